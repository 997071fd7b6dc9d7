"""The Tafel service: every user action on a stored game, one transaction each.

Web pages, the JSON API and online play all go through :class:`TafelService`.
Each write

1. locks the game row (PostgreSQL ``FOR UPDATE``; SQLite ``BEGIN IMMEDIATE``),
2. checks the edit token and, if given, the expected version,
3. loads the rounds with one query and rebuilds the domain :class:`Game`
   (or, when the stored version matches, copies the game kept in memory
   from this service's last write of it),
4. applies the action through the domain (which verifies before it changes),
5. writes one round row, the game row's new version and one history row,
6. commits, then tells the change listeners (live updates).

A refused action raises and changes nothing (T2/T3). A round is saved whole
or not at all.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.engine import Connection

from ligretto.store.database import writer
from ligretto.store.models import EventRow, GameRow, RoundRow
from ligretto.tafel import (
    Deck,
    Game,
    Mode,
    Round,
    describe,
    describe_round,
    from_description,
)
from ligretto.tafel.game import names_to_counts

Counts = Mapping[str, object] | Sequence[object]
"""Per-player counts: ``{"Anna": 0, "Ben": 3}`` or a list in seating order."""

EXPORT_FORMAT = "ligretto-tafel"
EXPORT_FORMAT_VERSION = 1
GAME_ID_BYTES = 12  # 96 random bits: nobody finds a game by counting
TOKEN_BYTES = 24  # 192 random bits
MAX_ID_LENGTH = 32
_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes


class StoreError(Exception):
    """Base of the store's own errors (the domain's are ``TafelError``)."""


class GameNotFoundError(StoreError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__("there is no game with this id")
        self.game_id = game_id


class ForbiddenError(StoreError, PermissionError):
    """The edit token is missing or wrong."""

    def __init__(self) -> None:
        super().__init__("this needs the game's edit link (a valid edit token)")


class VersionConflictError(StoreError):
    """The write was based on an old version: another phone changed the game first."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the game was changed meanwhile (version {current}, this change was based on "
            f"version {expected}); reload and enter it again"
        )
        self.expected = expected
        self.current = current


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its id and version around the domain object."""

    id: str
    version: int
    game: Game
    created_at: datetime
    updated_at: datetime

    def describe(self, *, with_rounds: bool = True) -> dict[str, Any]:
        """JSON-ready data: ``id``, ``version``, timestamps and :func:`ligretto.tafel.describe`."""
        data: dict[str, Any] = {"id": self.id, "version": self.version}
        data.update(describe(self.game, with_rounds=with_rounds))
        data["created_at"] = self.created_at.isoformat()
        data["updated_at"] = self.updated_at.isoformat()
        return data


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and its secret edit token (shown once; only its hash is stored)."""

    stored: StoredGame
    edit_token: str


@dataclass(frozen=True, slots=True)
class WriteResult:
    """The game after a write, and the round it touched (if any)."""

    stored: StoredGame
    round: Round | None = None

    def describe_round(self) -> dict[str, Any] | None:
        if self.round is None:
            return None
        game = self.stored.game
        totals = None
        if self.round.complete and self.round.number <= len(game.rounds):
            if self.round.number == game.complete_rounds:
                totals = game.totals  # the usual case, without a second pass
            else:
                totals = game.running_totals()[self.round.number - 1]
        return describe_round(game, self.round, totals)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One recorded change (T6)."""

    version: int
    at: datetime
    action: str
    round: int | None
    detail: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "at": self.at.isoformat(),
            "action": self.action,
            "round": self.round,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class _Cached:
    version: int
    game: Game


@dataclass(slots=True)
class _Change:
    action: str
    round: Round | None = None
    round_op: str | None = None  # "insert", "update" or "delete"
    detail: dict[str, Any] = field(default_factory=dict)
    changed: bool = True


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite gives naive datetimes back; everything is stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _dump(values: Sequence[int]) -> str:
    return json.dumps(list(values), separators=(",", ":"))


ChangeListener = Callable[[str, int], None]


class TafelService:
    """All actions on stored Tafel games. Thread-safe; one transaction per call.

    ``listeners`` are called with ``(game_id, version)`` after each commit
    (e.g. :meth:`ligretto.store.hub.ChangeHub.publish`).
    """

    cache_size = 256
    """How many recently written games are kept in memory for the next write."""

    def __init__(self, engine: Engine, listeners: Iterable[ChangeListener] = ()) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self.listeners: list[ChangeListener] = list(listeners)
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_lock = threading.Lock()

    # ------------------------------------------------------------------ reads
    def get_game(self, game_id: str) -> StoredGame:
        """The game with all rounds; raises :class:`GameNotFoundError`."""
        cached = self._cached(game_id)
        with self.engine.connect() as conn:
            # FOR SHARE keeps a writer from committing between the two reads
            # (PostgreSQL); SQLite reads one snapshot per transaction anyway.
            stored = self._load(conn, game_id, lock="share", cached=cached)[0]
            conn.rollback()
        return stored

    def version(self, game_id: str) -> int:
        """The game's current version (cheap; for live updates)."""
        if not _is_game_id(game_id):
            raise GameNotFoundError(game_id)
        with self.engine.connect() as conn:
            version = conn.execute(
                select(GameRow.version).where(GameRow.id == game_id)
            ).scalar_one_or_none()
            conn.rollback()
        if version is None:
            raise GameNotFoundError(game_id)
        return version

    def check_token(self, game_id: str, token: str | None) -> bool:
        """Whether ``token`` is the game's edit token; raises :class:`GameNotFoundError`."""
        if not _is_game_id(game_id):
            raise GameNotFoundError(game_id)
        with self.engine.connect() as conn:
            row = conn.execute(
                select(GameRow.token_hash).where(GameRow.id == game_id)
            ).one_or_none()
            conn.rollback()
        if row is None:
            raise GameNotFoundError(game_id)
        return _token_ok(row.token_hash, token)

    def history(self, game_id: str) -> list[HistoryEntry]:
        """Every change of the game, oldest first (T6)."""
        if not _is_game_id(game_id):
            raise GameNotFoundError(game_id)
        with self.engine.connect() as conn:
            exists = conn.execute(select(GameRow.id).where(GameRow.id == game_id)).first()
            if exists is None:
                raise GameNotFoundError(game_id)
            rows = conn.execute(
                select(
                    EventRow.version,
                    EventRow.at,
                    EventRow.action,
                    EventRow.round_n,
                    EventRow.detail,
                )
                .where(EventRow.game_id == game_id)
                .order_by(EventRow.id)
            ).all()
            conn.rollback()
        return [
            HistoryEntry(r.version, _aware(r.at), r.action, r.round_n, json.loads(r.detail))
            for r in rows
        ]

    def export_json(self, game_id: str) -> dict[str, Any]:
        """The whole game with its history, re-importable with :meth:`import_game`."""
        stored = self.get_game(game_id)
        data: dict[str, Any] = {"format": EXPORT_FORMAT, "format_version": EXPORT_FORMAT_VERSION}
        data.update(stored.describe())
        data["history"] = [h.as_dict() for h in self.history(game_id)]
        return data

    def export_csv(self, game_id: str) -> str:
        """One line per round: caller, then stack, middle, points, total per player."""
        stored = self.get_game(game_id)
        game = stored.game
        out = io.StringIO()
        table = csv.writer(out, lineterminator="\r\n")
        header = ["round", "caller"]
        for name in game.players:
            safe = _csv_safe(name)
            header += [f"{safe} stack", f"{safe} middle", f"{safe} points", f"{safe} total"]
        table.writerow(header)
        for rnd, totals in zip(game.rounds, game.running_totals(), strict=True):
            caller = rnd.caller
            line: list[object] = [
                rnd.number,
                "" if caller is None else _csv_safe(game.players[caller]),
            ]
            points = rnd.points
            for seat in range(len(game.players)):
                line += [
                    rnd.stacks[seat],
                    "" if rnd.middle is None else rnd.middle[seat],
                    "" if points is None else points[seat],
                    "" if totals is None else totals[seat],
                ]
            table.writerow(line)
        return out.getvalue()

    # ---------------------------------------------------------------- creation
    def create_game(
        self,
        players: Iterable[str],
        *,
        mode: Mode | str = Mode.TARGET,
        target: int | None = None,
        rounds: int | None = None,
        deck: Deck | str = Deck.LIGRETTO,
        row_storage: bool = False,
    ) -> CreatedGame:
        """A new game (T1); ``rounds`` is the agreed number of a rounds game."""
        game = Game(
            players,
            mode=mode,
            target=target,
            agreed_rounds=rounds,
            deck=deck,
            row_storage=row_storage,
        )
        return self._insert_game(game, action="create", detail={"players": list(game.players)})

    def import_game(self, data: Mapping[str, Any]) -> CreatedGame:
        """A new game (new id and token) from an export; every round is checked again."""
        game = from_description(data)
        return self._insert_game(
            game, action="import", detail={"source_id": data.get("id")} if "id" in data else {}
        )

    def _insert_game(self, game: Game, *, action: str, detail: dict[str, Any]) -> CreatedGame:
        game_id = secrets.token_urlsafe(GAME_ID_BYTES)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = _now()
        with self._writer.begin() as conn:
            conn.execute(
                insert(GameRow).values(
                    id=game_id,
                    token_hash=hash_token(token),
                    players=json.dumps(list(game.players)),
                    mode=game.mode.value,
                    target=game.target,
                    agreed_rounds=game.agreed_rounds,
                    deck=game.deck.value,
                    row_storage=game.row_storage,
                    closed=game.closed,
                    scored=game.scored,
                    version=1,
                    created_at=now,
                    updated_at=now,
                )
            )
            if game.rounds:
                conn.execute(
                    insert(RoundRow),
                    [
                        {
                            "game_id": game_id,
                            "n": rnd.number,
                            "stacks": _dump(rnd.stacks),
                            "middle": None if rnd.middle is None else _dump(rnd.middle),
                            "confirmed": rnd.confirmed,
                            "updated_at": now,
                        }
                        for rnd in game.rounds
                    ],
                )
            self._record(conn, game_id, 1, now, _Change(action, detail=detail))
        stored = StoredGame(game_id, 1, game, now, now)
        self._notify(game_id, 1)
        return CreatedGame(stored, token)

    # ------------------------------------------------------------------ writes
    def open_round(
        self,
        game_id: str,
        token: str | None,
        stacks: Counts,
        *,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Save a new round with stack counts only (T2)."""

        def act(game: Game) -> _Change:
            rnd = game.open_round(stacks)
            return _Change(
                "open_round", rnd, "insert", {"stacks": names_to_counts(game, rnd.stacks)}
            )

        return self._write(game_id, token, expected_version, act)

    def complete_round(
        self,
        game_id: str,
        token: str | None,
        number: int,
        middle: Counts,
        *,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Enter the middle counts of the pending round ``number`` (T3)."""

        def act(game: Game) -> _Change:
            return _complete(game, number, middle, confirm)

        return self._write(game_id, token, expected_version, act)

    def correct_round(
        self,
        game_id: str,
        token: str | None,
        number: int,
        *,
        stacks: Counts | None = None,
        middle: Counts | None = None,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Correct any round (T6); what is not given stays. Totals and outcome follow."""

        def act(game: Game) -> _Change:
            return _correct(game, number, stacks, middle, confirm)

        return self._write(game_id, token, expected_version, act)

    def put_round(
        self,
        game_id: str,
        token: str | None,
        number: int,
        *,
        stacks: Counts | None = None,
        middle: Counts | None = None,
        confirm: bool = False,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Complete round ``number`` if it is pending and only the middle is given,
        otherwise correct it (the API's ``PUT /rounds/{n}``)."""

        def act(game: Game) -> _Change:
            if not game.round(number).complete and stacks is None and middle is not None:
                return _complete(game, number, middle, confirm)
            return _correct(game, number, stacks, middle, confirm)

        return self._write(game_id, token, expected_version, act)

    def remove_last_round(
        self,
        game_id: str,
        token: str | None,
        number: int | None = None,
        *,
        expected_version: int | None = None,
    ) -> WriteResult:
        """Remove the last round (T6); ``number``, if given, must be the last one."""

        def act(game: Game) -> _Change:
            rnd = game.remove_last_round(number)
            return _Change("remove_round", rnd, "delete", {"removed": _round_counts(game, rnd)})

        return self._write(game_id, token, expected_version, act)

    def finish(
        self, game_id: str, token: str | None, *, expected_version: int | None = None
    ) -> WriteResult:
        """Beenden (T5): close the game for entry; ends a target game early too."""

        def act(game: Game) -> _Change:
            if game.closed:
                return _Change("finish", changed=False)
            game.finish()
            return _Change("finish", detail={"winners": list(game.winners)})

        return self._write(game_id, token, expected_version, act)

    def score(
        self, game_id: str, token: str | None, *, expected_version: int | None = None
    ) -> WriteResult:
        """Werten (T5): the final ranking with the winner or winners (finishes first)."""

        def act(game: Game) -> _Change:
            if game.scored:
                return _Change("score", changed=False)
            winners = game.score()
            return _Change("score", detail={"winners": list(winners)})

        return self._write(game_id, token, expected_version, act)

    # --------------------------------------------------------------- internals
    def _load(
        self,
        conn: Connection,
        game_id: str,
        *,
        lock: str | None,
        cached: _Cached | None = None,
    ) -> tuple[StoredGame, str]:
        """Read a game; with ``cached`` at the stored version, skip reading its rounds."""
        if not _is_game_id(game_id):
            raise GameNotFoundError(str(game_id))
        query = select(GameRow).where(GameRow.id == game_id)
        if lock == "update":
            query = query.with_for_update()
        elif lock == "share":
            query = query.with_for_update(read=True)
        row = conn.execute(query).one_or_none()
        if row is None:
            raise GameNotFoundError(game_id)
        if cached is not None and cached.version == row.version:
            game = cached.game.copy()  # the cached game itself is never changed
        else:
            game = Game.restore(
                json.loads(row.players),
                mode=row.mode,
                target=row.target,
                agreed_rounds=row.agreed_rounds,
                deck=row.deck,
                row_storage=row.row_storage,
                rounds=self._load_rounds(conn, game_id),
                closed=row.closed,
                scored=row.scored,
            )
        stored = StoredGame(
            row.id, row.version, game, _aware(row.created_at), _aware(row.updated_at)
        )
        return stored, row.token_hash

    @staticmethod
    def _load_rounds(conn: Connection, game_id: str) -> list[Round]:
        rows = conn.execute(
            select(RoundRow.n, RoundRow.stacks, RoundRow.middle, RoundRow.confirmed)
            .where(RoundRow.game_id == game_id)
            .order_by(RoundRow.n)
        ).all()
        return [
            Round(
                r.n,
                tuple(json.loads(r.stacks)),
                None if r.middle is None else tuple(json.loads(r.middle)),
                r.confirmed,
            )
            for r in rows
        ]

    def _cached(self, game_id: str) -> _Cached | None:
        with self._cache_lock:
            return self._cache.get(game_id)

    def _keep_cached(self, game_id: str, version: int, game: Game) -> None:
        with self._cache_lock:
            self._cache[game_id] = _Cached(version, game)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def _write(
        self,
        game_id: str,
        token: str | None,
        expected_version: int | None,
        act: Callable[[Game], _Change],
    ) -> WriteResult:
        # The game of the last write is kept in memory and used again when the
        # stored version (read under the row lock) still matches: then a write
        # reads one row and writes one round, however long the game is. Any
        # other writer, in this process or another, bumps the version first.
        cached = self._cached(game_id)
        with self._writer.begin() as conn:
            stored, token_hash = self._load(conn, game_id, lock="update", cached=cached)
            if not _token_ok(token_hash, token):
                raise ForbiddenError()
            if expected_version is not None and expected_version != stored.version:
                raise VersionConflictError(expected_version, stored.version)
            game = stored.game
            change = act(game)  # a refused action raises here: nothing was written
            if not change.changed:
                return WriteResult(stored, change.round)
            now = _now()
            version = stored.version + 1
            rnd = change.round
            if rnd is not None and change.round_op == "insert":
                conn.execute(
                    insert(RoundRow).values(
                        game_id=game_id,
                        n=rnd.number,
                        stacks=_dump(rnd.stacks),
                        middle=None if rnd.middle is None else _dump(rnd.middle),
                        confirmed=rnd.confirmed,
                        updated_at=now,
                    )
                )
            elif rnd is not None and change.round_op == "update":
                conn.execute(
                    update(RoundRow)
                    .where(RoundRow.game_id == game_id, RoundRow.n == rnd.number)
                    .values(
                        stacks=_dump(rnd.stacks),
                        middle=None if rnd.middle is None else _dump(rnd.middle),
                        confirmed=rnd.confirmed,
                        updated_at=now,
                    )
                )
            elif rnd is not None and change.round_op == "delete":
                conn.execute(
                    delete(RoundRow).where(RoundRow.game_id == game_id, RoundRow.n == rnd.number)
                )
            conn.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(version=version, closed=game.closed, scored=game.scored, updated_at=now)
            )
            self._record(conn, game_id, version, now, change)
        # Only after the commit: a failed commit leaves the cache as it was.
        # The cache keeps its own copy, so nothing a caller does alters it.
        self._keep_cached(game_id, version, game.copy())
        result = WriteResult(
            StoredGame(game_id, version, game, stored.created_at, now), change.round
        )
        self._notify(game_id, version)
        return result

    @staticmethod
    def _record(
        conn: Connection, game_id: str, version: int, now: datetime, change: _Change
    ) -> None:
        conn.execute(
            insert(EventRow).values(
                game_id=game_id,
                version=version,
                at=now,
                action=change.action,
                round_n=None if change.round is None else change.round.number,
                detail=json.dumps(change.detail, ensure_ascii=False),
            )
        )

    def _notify(self, game_id: str, version: int) -> None:
        for listener in self.listeners:
            listener(game_id, version)


def _is_game_id(game_id: object) -> bool:
    # Anything else cannot be an id; refusing it early also keeps odd bytes
    # (PostgreSQL refuses NUL in text) away from the database.
    return isinstance(game_id, str) and _ID_PATTERN.fullmatch(game_id) is not None


def _token_ok(token_hash: str, token: str | None) -> bool:
    if not token:
        return False
    return hmac.compare_digest(token_hash, hash_token(token))


def _complete(game: Game, number: int, middle: Counts, confirm: bool) -> _Change:
    """Enter the pending round's middle (T3) and describe it for the history."""
    rnd = game.complete_round(number, middle, confirm=confirm)
    assert rnd.middle is not None
    detail: dict[str, Any] = {"middle": names_to_counts(game, rnd.middle)}
    if rnd.confirmed:
        detail["confirmed"] = True
    return _Change("complete_round", rnd, "update", detail)


def _correct(
    game: Game, number: int, stacks: Counts | None, middle: Counts | None, confirm: bool
) -> _Change:
    """Correct a round (T6) and record it before and after."""
    old = game.round(number)
    rnd = game.correct_round(number, stacks=stacks, middle=middle, confirm=confirm)
    detail = {"before": _round_counts(game, old), "after": _round_counts(game, rnd)}
    return _Change("correct_round", rnd, "update", detail)


def _round_counts(game: Game, rnd: Round) -> dict[str, Any]:
    return {
        "stacks": names_to_counts(game, rnd.stacks),
        "middle": None if rnd.middle is None else names_to_counts(game, rnd.middle),
    }


def _csv_safe(text: str) -> str:
    # A name starting with = + - @ would be run as a formula by spreadsheets.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
