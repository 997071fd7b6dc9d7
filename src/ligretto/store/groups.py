"""The group service: groups, members and their games, one transaction per action.

Like :class:`~ligretto.store.TafelService`, every write locks the group's
row, checks the group token (only its hash is stored, :mod:`ligretto.store.tokens`)
and the expected version (If-Match), lets the domain verify the change
(:class:`~ligretto.tafel.groups.Group`), writes, and raises the group's
version. A refused action raises and changes nothing.

The reads that derive numbers from the games (statistics, league, the
members' pages, the export) and the results they keep are
:class:`~ligretto.store.group_queries.GroupQueries`, the service's
``queries``; the exchange format of an export and an import is
:mod:`ligretto.tafel.group_exchange`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

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
from ligretto.store.group_queries import GroupQueries
from ligretto.store.results import CreatedGame, CreatedGroup, StoredGame, StoredGroup
from ligretto.store.rows import aware
from ligretto.store.tokens import hash_token, new_game_id, new_token, token_matches
from ligretto.tafel import Deck, Game, Mode
from ligretto.tafel.group_exchange import ImportedGroup, group_from_json, member_names
from ligretto.tafel.groups import Group, clean_group_name
from ligretto.tafel.stats import Season

__all__ = ["GroupService"]

NOT_GIVEN: Any = object()
"""Marks an argument that was not given (None clears a season)."""


class GroupService:
    """All actions on stored groups. Thread-safe; one transaction per call."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self.queries = GroupQueries(engine)
        """The group's reads: statistics, league, history, members, export."""

    # ------------------------------------------------------------------ reads
    def get_group(self, group_id: str) -> StoredGroup:
        """The group; raises :class:`~ligretto.store.errors.GroupNotFoundError`."""
        return self.queries.get_group(group_id)

    def check_token(self, group_id: str, token: str | None) -> bool:
        """Whether *token* is the group's token; raises GroupNotFoundError."""
        with busy_guard(), self.engine.connect() as conn:
            row = sql.read_group_row(conn, group_id)
            conn.rollback()
        return token_matches(row.token_hash, token)

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
                group = Group.restore(clean_group_name(name), [m.name for m in group.members])
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
            added = [group.add_member(n).name for n in member_names(names)]
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

    # ------------------------------------------------------------------ import
    def import_group(self, data: object) -> CreatedGroup:
        """A new group (new ids and tokens) from an export; every game is checked again."""
        return self.write_import(group_from_json(data))

    def write_import(self, imported: ImportedGroup) -> CreatedGroup:
        """A new group (new ids and tokens) from an export read by ``group_from_json``.

        Everything is checked before anything is written. The games are
        written in transactions of about :data:`IMPORT_BATCH_ROUNDS` rounds,
        so that no other write waits long for the database (SQLite has one
        writer at a time); the group and its links to the games come last,
        in one short transaction. Until then the games are in no group and
        nobody knows their ids; if a write fails, they are deleted again, so
        a refused import still leaves nothing behind.
        """
        group, season, now = imported.group, imported.season, _now()
        tokens: dict[str, str] = {}
        links: list[tuple[str, datetime]] = []
        try:
            for batch in _batches(imported.games, IMPORT_BATCH_ROUNDS):
                prepared: list[repository.NewGameRows] = []
                for game, played_at in batch:
                    game_id, game_token = new_game_id(), new_token()
                    prepared.append(
                        repository.new_game_rows(game_id, hash_token(game_token), game, now)
                    )
                    tokens[game_id] = game_token
                    links.append((game_id, played_at))
                history = [
                    {
                        "game_id": rows.game["id"],
                        "version": 1,
                        "at": now,
                        "action": "import",
                        "round_n": None,
                        "detail": json.dumps({"rounds": len(rows.rounds)}),
                    }
                    for rows in prepared
                ]
                with busy_guard(), self._writer.begin() as conn:
                    sql.insert_games(conn, prepared, history)
            group_id, token = new_game_id(), new_token()
            with busy_guard(), self._writer.begin() as conn:
                sql.insert_group(conn, group_id, hash_token(token), group, now)
                if season is not None:
                    sql.update_group(
                        conn, group_id, 1, now, season_start=season.start, season_end=season.end
                    )
                sql.link_games(conn, group_id, links)
        except BaseException:
            self._delete_games([game_id for game_id, _ in links])
            raise
        stored = StoredGroup(
            group_id,
            1,
            group.name,
            tuple(m.name for m in group.members),
            season,
            len(links),
            now,
            now,
        )
        return CreatedGroup(stored, token, tokens)

    def _delete_games(self, game_ids: list[str]) -> None:
        """Delete the games an import wrote before it failed (their rounds go with them)."""
        if not game_ids:
            return
        with self._writer.begin() as conn:
            sql.delete_games(conn, game_ids)

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
            aware(row.created_at),
            now,
        )


IMPORT_BATCH_ROUNDS = 2_000
"""Rounds an import writes per transaction (a game is never split).

Writing 2,000 rounds takes a few tens of milliseconds, well inside the
time another write waits for the lock (``LIGRETTO_BUSY_TIMEOUT``, 5 s)."""


def _batches(
    games: Sequence[tuple[Game, datetime]], rounds: int
) -> Iterator[list[tuple[Game, datetime]]]:
    """The games in runs of about *rounds* rounds (at least one game per run)."""
    batch: list[tuple[Game, datetime]] = []
    count = 0
    for item in games:
        if batch and count + len(item[0].rounds) > rounds:
            yield batch
            batch, count = [], 0
        batch.append(item)
        count += len(item[0].rounds)
    if batch:
        yield batch


def _now() -> datetime:
    return datetime.now(UTC)
