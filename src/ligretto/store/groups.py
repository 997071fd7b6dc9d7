"""The group service: groups, members and their games, one transaction per action.

Like :class:`~ligretto.store.TafelService`, every write locks the group's
row, checks the group token (only its hash is stored, :mod:`ligretto.store.tokens`)
and the expected version (If-Match), lets the domain verify the change
(:class:`~ligretto.tafel.groups.Group`), writes, and raises the group's
version. A refused action raises and changes nothing.

Statistics are derived from the games' rounds (:mod:`ligretto.tafel.stats`,
:mod:`ligretto.tafel.ratings`); :meth:`GroupService.computed` keeps the
last results per group for as long as the group's fingerprint (its
version, its games and their versions) stays the same, so a page read
after a page read costs one small query.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine

from ligretto.store import group_repository as sql
from ligretto.store import repository
from ligretto.store.changes import Change
from ligretto.store.database import busy_guard, writer
from ligretto.store.errors import (
    GameInGroupError,
    GameNotInGroupError,
    GroupForbiddenError,
    VersionConflictError,
)
from ligretto.store.results import CreatedGame, StoredGame
from ligretto.store.tokens import hash_token, new_game_id, new_token, token_matches
from ligretto.tafel import Code, Deck, Game, InvalidGameError, Mode, TafelError
from ligretto.tafel.errors import GroupError
from ligretto.tafel.exchange import game_from_json
from ligretto.tafel.groups import Group
from ligretto.tafel.limits import MAX_GROUP_GAMES
from ligretto.tafel.stats import PlayedGame, Season

__all__ = ["CreatedGroup", "GroupService", "StoredGroup"]

T = TypeVar("T")
NOT_GIVEN: Any = object()
"""Marks an argument that was not given (None clears a season)."""

EXPORT_FORMAT = "ligretto-group"
EXPORT_FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class StoredGroup:
    """A group as stored: id, version, name, members, season and its number of games."""

    id: str
    version: int
    name: str
    members: tuple[str, ...]
    season: Season | None
    games: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class CreatedGroup:
    """A new group and its secret token (shown once; only its hash is stored)."""

    stored: StoredGroup
    token: str
    game_tokens: dict[str, str]
    """For an import: the new edit token of each imported game, by its new id."""


class GroupService:
    """All actions on stored groups. Thread-safe; one transaction per call."""

    cache_size = 64
    """How many groups' computed statistics are kept in memory."""

    games_cache_size = 20_000
    """How many games (with their rounds, at one version) are kept for the next read."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self._computed: OrderedDict[str, tuple[tuple[int, int, int], dict[str, Any]]] = (
            OrderedDict()
        )
        self._games: OrderedDict[tuple[str, int, datetime], PlayedGame] = OrderedDict()
        self._memos: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ reads
    def get_group(self, group_id: str) -> StoredGroup:
        """The group; raises :class:`~ligretto.store.errors.GroupNotFoundError`."""
        with busy_guard(), self.engine.connect() as conn:
            row, group = sql.read_group(conn, group_id, "share")
            stored = _stored(row, group, sql.count_games(conn, group_id))
            conn.rollback()
        return stored

    def check_token(self, group_id: str, token: str | None) -> bool:
        """Whether *token* is the group's token; raises GroupNotFoundError."""
        with busy_guard(), self.engine.connect() as conn:
            row = sql.read_group_row(conn, group_id)
            conn.rollback()
        return token_matches(row.token_hash, token)

    def played_games(self, group_id: str) -> tuple[StoredGroup, list[PlayedGame]]:
        """The group and every game of it with all rounds, oldest first.

        Games read before at the same version (and date) are taken from
        memory; only the rounds of the others are read, so after one
        correction one game's rounds are read again, not the group's.
        """
        with busy_guard(), self.engine.connect() as conn:
            row, group = sql.read_group(conn, group_id, "share")
            rows = sql.read_game_rows(conn, group_id)
            with self._lock:
                known = {r.id: self._games.get((r.id, r.version, r.played_at)) for r in rows}
            missing = [game_id for game_id, played in known.items() if played is None]
            rounds = sql.read_rounds_of(conn, missing)
            conn.rollback()
        games: list[PlayedGame] = []
        fresh: list[tuple[tuple[str, int, datetime], PlayedGame]] = []
        for r in rows:
            played = known[r.id]
            if played is None:
                played = sql.played_game(r, rounds.get(r.id, []))
                fresh.append(((r.id, r.version, r.played_at), played))
            games.append(played)
        with self._lock:
            for key, played in fresh:
                self._games[key] = played
            while len(self._games) > self.games_cache_size:
                self._games.popitem(last=False)
        return _stored(row, group, len(games)), games

    def computed(
        self,
        group_id: str,
        what: str,
        compute: Callable[[StoredGroup, list[PlayedGame]], T],
    ) -> T:
        """``compute(group, games)``, kept until the group or any of its games changes.

        *what* names the result (one per kind of statistics and filter).
        """
        with busy_guard(), self.engine.connect() as conn:
            mark = sql.fingerprint(conn, group_id)
            conn.rollback()
        with self._lock:
            entry = self._computed.get(group_id)
            if entry is not None and entry[0] == mark and what in entry[1]:
                self._computed.move_to_end(group_id)
                value: T = entry[1][what]
                return value
        stored, games = self.played_games(group_id)
        value = compute(stored, games)
        with self._lock:
            entry = self._computed.get(group_id)
            if entry is None or entry[0] != mark:
                entry = (mark, {})
            entry[1][what] = value
            self._computed[group_id] = entry
            self._computed.move_to_end(group_id)
            while len(self._computed) > self.cache_size:
                self._computed.popitem(last=False)
        return value

    def memo(self, group_id: str, key: str, factory: Callable[[], T]) -> tuple[threading.Lock, T]:
        """A scratch object kept per group and *key* across changes, with its lock.

        For computations that continue from their last result (the ratings,
        :class:`~ligretto.tafel.ratings.RatingMemo`); hold the lock while
        using the object.
        """
        with self._lock:
            memos = self._memos.setdefault(group_id, {})
            self._memos.move_to_end(group_id)
            while len(self._memos) > self.cache_size:
                self._memos.popitem(last=False)
            if key not in memos:
                memos[key] = (threading.Lock(), factory())
            entry: tuple[threading.Lock, T] = memos[key]
        return entry

    # ---------------------------------------------------------------- creation
    def create_group(self, name: object, members: Iterable[object] = ()) -> CreatedGroup:
        """A new group (name and first members under the one name rule)."""
        group = Group(name, members)
        group_id, token, now = new_game_id(), new_token(), _now()
        with busy_guard(), self._writer.begin() as conn:
            sql.insert_group(conn, group_id, hash_token(token), group, now)
        stored = StoredGroup(
            group_id, 1, group.name, tuple(m.name for m in group.members), None, 0, now, now
        )
        return CreatedGroup(stored, token, {})

    # ------------------------------------------------------------------ writes
    def update_group(
        self,
        group_id: str,
        token: str | None,
        *,
        name: object = NOT_GIVEN,
        season: Season | None = NOT_GIVEN,
        expected_version: int | None = None,
    ) -> StoredGroup:
        """Rename the group and/or set its season (None: seasons are calendar years)."""
        with busy_guard(), self._writer.begin() as conn:
            row, group = self._locked(conn, group_id, token, expected_version)
            values: dict[str, Any] = {}
            if name is not NOT_GIVEN:
                group = Group(name, [m.name for m in group.members])
                values["name"] = group.name
            if season is not NOT_GIVEN:
                values["season_start"] = None if season is None else season.start
                values["season_end"] = None if season is None else season.end
            return self._bump(conn, row, group, values)

    def add_members(
        self,
        group_id: str,
        token: str | None,
        names: Sequence[object],
        *,
        expected_version: int | None = None,
    ) -> StoredGroup:
        """New members (each under the one name rule, unique in the group)."""
        with busy_guard(), self._writer.begin() as conn:
            row, group = self._locked(conn, group_id, token, expected_version)
            start = len(group.members)
            added = [group.add_member(n).name for n in _names(names)]
            sql.insert_members(conn, group_id, added, start=start)
            return self._bump(conn, row, group, {})

    def create_game(
        self,
        group_id: str,
        token: str | None,
        players: Iterable[str],
        *,
        mode: Mode | str = Mode.TARGET,
        target: int | None = None,
        rounds: int | None = None,
        deck: Deck | str = Deck.LIGRETTO,
        row_storage: bool = False,
        new_members: Iterable[object] = (),
        expected_version: int | None = None,
    ) -> tuple[CreatedGame, StoredGroup]:
        """A new game of the group (T1); players who are not members join if confirmed."""
        game = Game(
            players,
            mode=mode,
            target=target,
            agreed_rounds=rounds,
            deck=deck,
            row_storage=row_storage,
        )
        game_id, game_token, now = new_game_id(), new_token(), _now()
        rows = repository.new_game_rows(game_id, hash_token(game_token), game, now)
        with busy_guard(), self._writer.begin() as conn:
            row, group = self._locked(conn, group_id, token, expected_version)
            start = len(group.members)
            joined = group.admit(game.players, new_members)
            repository.insert_game(conn, rows)
            repository.append_history(
                conn, game_id, 1, now, Change("create", detail={"players": list(game.players)})
            )
            sql.insert_members(conn, group_id, list(joined), start=start)
            sql.link_game(conn, group_id, game_id, now)
            stored_group = self._bump(conn, row, group, {}, games_delta=1)
        created = CreatedGame(StoredGame(game_id, 1, game, now, now), game_token)
        return created, stored_group

    def add_game(
        self,
        group_id: str,
        token: str | None,
        game_id: str,
        game_token: str | None,
        *,
        new_members: Iterable[object] = (),
        expected_version: int | None = None,
    ) -> StoredGroup:
        """Add an existing game (its edit token needed too); new players join if confirmed."""
        with busy_guard(), self._writer.begin() as conn:
            row, group = self._locked(conn, group_id, token, expected_version)
            stored_game, game_hash = repository.read_game(conn, game_id, lock="share")
            if not token_matches(game_hash, game_token):
                raise GroupForbiddenError.for_game()
            elsewhere = sql.game_group(conn, game_id)
            if elsewhere is not None:
                raise GameInGroupError(game_id, elsewhere != group_id)
            start = len(group.members)
            joined = group.admit(stored_game.game.players, new_members)
            sql.insert_members(conn, group_id, list(joined), start=start)
            sql.link_game(conn, group_id, game_id, stored_game.created_at)
            return self._bump(conn, row, group, {}, games_delta=1)

    def remove_game(
        self,
        group_id: str,
        token: str | None,
        game_id: str,
        *,
        expected_version: int | None = None,
    ) -> StoredGroup:
        """Take a game out of the group (the game itself stays as it is)."""
        with busy_guard(), self._writer.begin() as conn:
            row, group = self._locked(conn, group_id, token, expected_version)
            if not sql.unlink_game(conn, group_id, game_id):
                raise GameNotInGroupError(game_id)
            return self._bump(conn, row, group, {}, games_delta=-1)

    # ------------------------------------------------------- export and import
    def export_json(self, group_id: str) -> dict[str, Any]:
        """The whole group: name, members, season and every game with its rounds."""
        from ligretto.tafel.exchange import game_to_json

        stored, games = self.played_games(group_id)
        return {
            "format": EXPORT_FORMAT,
            "format_version": EXPORT_FORMAT_VERSION,
            "id": stored.id,
            "version": stored.version,
            "name": stored.name,
            "members": list(stored.members),
            "season": None
            if stored.season is None
            else {"start": stored.season.start.isoformat(), "end": stored.season.end.isoformat()},
            "games": [
                {
                    "played_at": g.played_at.isoformat(),
                    "game": game_to_json(
                        g.game,
                        game_id=g.id,
                        version=0,
                        created_at=g.played_at,
                        updated_at=g.played_at,
                    ),
                }
                for g in games
            ],
        }

    def import_group(self, data: Mapping[str, Any]) -> CreatedGroup:
        """A new group (new ids and tokens) from an export; every game is checked again."""
        if not isinstance(data, Mapping):
            raise _bad_import("a group export is a JSON object")
        group = Group(data.get("name"), _names(data.get("members", [])))
        season = parse_season(data.get("season"))
        items = data.get("games", [])
        if not isinstance(items, list):
            raise _bad_import("games must be a list")
        if len(items) > MAX_GROUP_GAMES:
            raise _bad_import(f"a group import holds at most {MAX_GROUP_GAMES} games")
        now = _now()
        prepared: list[tuple[repository.NewGameRows, datetime]] = []
        tokens: dict[str, str] = {}
        for index, item in enumerate(items, start=1):
            try:
                if not isinstance(item, Mapping) or not isinstance(item.get("game"), Mapping):
                    raise _bad_import("each game is an object with its export under 'game'")
                exported = item["game"]
                if not isinstance(exported.get("players"), list):
                    raise _bad_import("players must be a list of names in seating order")
                game = game_from_json(exported)
                played_at = _moment(item.get("played_at"))
                group.admit(game.players, game.players)
            except TafelError as error:
                raise error.with_message(f"game {index}: {error.message}") from None
            game_id, game_token = new_game_id(), new_token()
            tokens[game_id] = game_token
            prepared.append(
                (repository.new_game_rows(game_id, hash_token(game_token), game, now), played_at)
            )
        group_id, token = new_game_id(), new_token()
        with busy_guard(), self._writer.begin() as conn:
            sql.insert_group(conn, group_id, hash_token(token), group, now)
            if season is not None:
                sql.update_group(
                    conn, group_id, 1, now, season_start=season.start, season_end=season.end
                )
            for rows, _ in prepared:
                repository.insert_game(conn, rows)
                repository.append_history(
                    conn,
                    rows.game["id"],
                    1,
                    now,
                    Change("import", detail={"rounds": len(rows.rounds)}),
                )
            sql.link_games(conn, group_id, [(rows.game["id"], at) for rows, at in prepared])
        stored = StoredGroup(
            group_id,
            1,
            group.name,
            tuple(m.name for m in group.members),
            season,
            len(prepared),
            now,
            now,
        )
        return CreatedGroup(stored, token, tokens)

    # --------------------------------------------------------------- internals
    def _locked(
        self, conn: Any, group_id: str, token: str | None, expected_version: int | None
    ) -> tuple[Any, Group]:
        row, group = sql.read_group(conn, group_id, "update")
        if not token_matches(row.token_hash, token):
            raise GroupForbiddenError()
        if expected_version is not None and expected_version != row.version:
            raise VersionConflictError(expected_version, row.version)
        return row, group

    def _bump(
        self, conn: Any, row: Any, group: Group, values: dict[str, Any], games_delta: int = 0
    ) -> StoredGroup:
        now = _now()
        version = row.version + 1
        sql.update_group(conn, row.id, version, now, **values)
        season: Season | None
        start = values.get("season_start", row.season_start)
        end = values.get("season_end", row.season_end)
        season = None if start is None or end is None else Season(start, end)
        return StoredGroup(
            row.id,
            version,
            group.name,
            tuple(m.name for m in group.members),
            season,
            sql.count_games(conn, row.id),
            sql.aware(row.created_at),
            now,
        )


def _stored(row: Any, group: Group, games: int) -> StoredGroup:
    span = sql.season_of(row)
    return StoredGroup(
        row.id,
        row.version,
        group.name,
        tuple(m.name for m in group.members),
        None if span is None else Season(*span),
        games,
        sql.aware(row.created_at),
        sql.aware(row.updated_at),
    )


def parse_season(value: object) -> Season | None:
    """``{"start": "2026-01-01", "end": "2026-06-30"}`` or None (calendar years)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise GroupError(
            Code.BAD_SEASON, 'a season is {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}', rule="T6"
        )
    try:
        start = date.fromisoformat(str(value.get("start")))
        end = date.fromisoformat(str(value.get("end")))
    except ValueError:
        raise GroupError(
            Code.BAD_SEASON, "a season's start and end are dates (YYYY-MM-DD)", rule="T6"
        ) from None
    return Season(start, end)


def _moment(value: object) -> datetime:
    if not isinstance(value, str):
        raise _bad_import("each game needs played_at, a date and time (ISO 8601)")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _bad_import("played_at must be a date and time (ISO 8601)") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _names(values: object) -> list[object]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise GroupError(Code.BAD_GROUP_NAME, "members must be a list of names", rule="T1")
    return list(values)[:1000]


def _bad_import(message: str) -> InvalidGameError:
    return InvalidGameError(Code.BAD_IMPORT, message, rule="T6")


def _now() -> datetime:
    return datetime.now(UTC)
