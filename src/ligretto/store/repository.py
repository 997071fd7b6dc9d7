"""The SQL of the Tafel: read a game with its rounds, insert one, write a round,
move the game row to a new version, append to its history (T6).

Functions of an open connection; the caller owns the transaction (one per
user action, see :mod:`ligretto.store.service`). A round's counts are JSON
arrays in seating order; totals are never stored, they follow from the rounds.
Every read raises :class:`GameNotFoundError` for an unknown id.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    ColumnElement,
    Integer,
    bindparam,
    cast,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection, Row

from ligretto.rules.result import points
from ligretto.store.cache import CachedGame
from ligretto.store.changes import Change, RoundOp
from ligretto.store.errors import GameNotFoundError
from ligretto.store.models import Base, EventRow, GameRow, RoundRow
from ligretto.store.results import HistoryEntry, StoredGame, StoredRound
from ligretto.store.rows import aware, restore_game, restore_round
from ligretto.store.tokens import is_game_id
from ligretto.tafel import Code, Game, NoSuchRoundError, Round
from ligretto.tafel.limits import MAX_ROUNDS

Lock = Literal["share", "update"]
"""``update`` for writes (``FOR UPDATE``); ``share`` keeps writers out while reading."""

# The statements of every write, built once with bound parameters (the
# ``b_`` ones name the row; the others are the columns they set). Built per
# call, SQLAlchemy's statement construction and cache-key walk cost more
# CPU than the database's own work for a round entry, and a write holds
# the game's lock and the GIL meanwhile. They are dialect-neutral:
# ``FOR UPDATE`` compiles to nothing on SQLite.
_GAMES = Base.metadata.tables[GameRow.__tablename__]
_ROUNDS = Base.metadata.tables[RoundRow.__tablename__]
_EVENTS = Base.metadata.tables[EventRow.__tablename__]
_GAME_BY_ID = select(_GAMES).where(_GAMES.c.id == bindparam("b_id"))
_GAME_ROW: dict[Lock | None, Any] = {
    None: _GAME_BY_ID,
    "update": _GAME_BY_ID.with_for_update(),
    "share": _GAME_BY_ID.with_for_update(read=True),
}
_INSERT_ROUND = insert(_ROUNDS)
_UPDATE_ROUND = update(_ROUNDS).where(
    _ROUNDS.c.game_id == bindparam("b_game"), _ROUNDS.c.n == bindparam("b_n")
)
_DELETE_ROUND = delete(_ROUNDS).where(
    _ROUNDS.c.game_id == bindparam("b_game"), _ROUNDS.c.n == bindparam("b_n")
)
_UPDATE_GAME = update(_GAMES).where(_GAMES.c.id == bindparam("b_id"))
_INSERT_EVENT = insert(_EVENTS)
_ROUND_COLUMNS = (_ROUNDS.c.n, _ROUNDS.c.stacks, _ROUNDS.c.middle, _ROUNDS.c.confirmed)
_ROUNDS_OF_GAME = (
    select(*_ROUND_COLUMNS).where(_ROUNDS.c.game_id == bindparam("b_game")).order_by(_ROUNDS.c.n)
)
_ONE_ROUND = select(*_ROUND_COLUMNS).where(
    _ROUNDS.c.game_id == bindparam("b_game"), _ROUNDS.c.n == bindparam("b_n")
)
_VERSION = select(GameRow.version).where(GameRow.id == bindparam("b_id"))
_TOKEN_HASH = select(GameRow.token_hash).where(GameRow.id == bindparam("b_id"))


def read_game(
    conn: Connection,
    game_id: str,
    *,
    lock: Lock | None,
    cached: CachedGame | None = None,
) -> tuple[StoredGame, str]:
    """The game and its token hash; with ``cached`` at the stored version, skip its rounds."""
    row = _read_game_row(conn, game_id, lock)
    if cached is not None and cached.version == row.version:
        game = cached.game.copy()  # the cached game itself is never changed
    else:
        game = restore_game(row, read_rounds(conn, game_id))
    stored = StoredGame(row.id, row.version, game, aware(row.created_at), aware(row.updated_at))
    return stored, row.token_hash


def read_round(conn: Connection, game_id: str, number: int, *, lock: Lock | None) -> StoredRound:
    """Round *number* with the running totals after it, without reading the other rounds.

    Three statements whatever the length of the game: the game row, the
    round's row and, for a complete round, one aggregate over the rounds up
    to it (the database adds up the counts; one row comes back).
    """
    row = _read_game_row(conn, game_id, lock)
    game = restore_game(row, [])  # players and settings only: names the counts
    found = None
    # A game has at most MAX_ROUNDS rounds: other numbers are not even looked
    # up (nor sent to a database whose integers they may not fit).
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= MAX_ROUNDS:
        found = conn.execute(_ONE_ROUND, {"b_game": game_id, "b_n": number}).one_or_none()
    if found is None:
        count = conn.execute(
            select(func.count()).select_from(RoundRow).where(RoundRow.game_id == game_id)
        ).scalar_one()
        raise NoSuchRoundError(
            Code.NO_SUCH_ROUND,
            f"there is no round {number}: the game has {count} round(s)",
            rule="T6",
        )
    rnd = restore_round(found)
    totals = None
    if rnd.complete:
        totals = _totals_through(conn, game_id, number, len(game.players))
    return StoredRound(row.id, row.version, game, rnd, totals)


def _totals_through(conn: Connection, game_id: str, number: int, seats: int) -> tuple[int, ...]:
    # Only the last round can be pending, so rounds 1..number are complete
    # when round *number* is. Points are linear in the counts (R5: middle −
    # 2 × stack), so the total of the points is the points of the summed
    # middles and stacks: the rule stays in ligretto.rules.result.points.
    dialect = conn.dialect.name
    sums: list[ColumnElement[Any]] = []
    for seat in range(seats):
        sums.append(func.sum(_json_item(dialect, RoundRow.middle, seat)))
        sums.append(func.sum(_json_item(dialect, RoundRow.stacks, seat)))
    summed = conn.execute(
        select(*sums).where(
            RoundRow.game_id == game_id, RoundRow.n <= number, RoundRow.middle.is_not(None)
        )
    ).one()
    return tuple(points(int(summed[2 * s]), int(summed[2 * s + 1])) for s in range(seats))


def _json_item(dialect: str, column: Any, index: int) -> ColumnElement[Any]:
    """Element *index* of a JSON array stored as text, as an integer."""
    if dialect == "postgresql":
        return cast(cast(column, JSONB)[index].astext, Integer)
    return func.json_extract(column, f"$[{index}]")


def _read_game_row(conn: Connection, game_id: str, lock: Lock | None) -> Row[Any]:
    _check_id(game_id)
    row = conn.execute(_GAME_ROW[lock], {"b_id": game_id}).one_or_none()
    if row is None:
        raise GameNotFoundError(game_id)
    return row


def read_rounds(conn: Connection, game_id: str) -> list[Round]:
    """Every round of the game, in order, with one query."""
    rows = conn.execute(_ROUNDS_OF_GAME, {"b_game": game_id}).all()
    return [restore_round(r) for r in rows]


def read_version(conn: Connection, game_id: str) -> int:
    """The game's current version, from its row alone."""
    _check_id(game_id)
    version = conn.execute(_VERSION, {"b_id": game_id}).scalar_one_or_none()
    if version is None:
        raise GameNotFoundError(game_id)
    return version


def read_token_hash(conn: Connection, game_id: str) -> str:
    """The stored hash of the game's edit token."""
    _check_id(game_id)
    token_hash = conn.execute(_TOKEN_HASH, {"b_id": game_id}).scalar_one_or_none()
    if token_hash is None:
        raise GameNotFoundError(game_id)
    return token_hash


def read_history(conn: Connection, game_id: str) -> list[HistoryEntry]:
    """Every change of the game, oldest first (T6)."""
    _check_id(game_id)
    exists = conn.execute(select(GameRow.id).where(GameRow.id == game_id)).first()
    if exists is None:
        raise GameNotFoundError(game_id)
    rows = conn.execute(
        select(EventRow.version, EventRow.at, EventRow.action, EventRow.round_n, EventRow.detail)
        .where(EventRow.game_id == game_id)
        .order_by(EventRow.id)
    ).all()
    return [
        HistoryEntry(r.version, aware(r.at), r.action, r.round_n, json.loads(r.detail))
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class NewGameRows:
    """A new game's rows, made ready before the write transaction begins.

    An import brings up to :data:`~ligretto.tafel.limits.MAX_ROUNDS` rounds;
    encoding them is done beforehand so the write lock is held only for the
    inserts themselves.
    """

    game: dict[str, Any]
    rounds: list[dict[str, Any]]


def new_game_rows(game_id: str, token_hash: str, game: Game, now: datetime) -> NewGameRows:
    """The game row at version 1 and, for an import, all its rounds (no database needed)."""
    row = {
        "id": game_id,
        "token_hash": token_hash,
        "players": json.dumps(list(game.players)),
        "mode": game.mode.value,
        "target": game.target,
        "agreed_rounds": game.agreed_rounds,
        "deck": game.deck.value,
        "row_storage": game.row_storage,
        "closed": game.closed,
        "scored": game.scored,
        "version": 1,
        "created_at": now,
        "updated_at": now,
    }
    return NewGameRows(row, [_round_row(game_id, rnd, now) for rnd in game.rounds])


def insert_game(conn: Connection, rows: NewGameRows) -> None:
    """Insert the rows of :func:`new_game_rows`: one statement for the game, one for its rounds."""
    conn.execute(insert(GameRow).values(rows.game))
    if rows.rounds:
        conn.execute(insert(RoundRow), rows.rounds)


def read_last_change(conn: Connection, game_id: str) -> HistoryEntry | None:
    """The game's latest history entry (what an Undo would take back), or None."""
    row = conn.execute(
        select(EventRow.version, EventRow.at, EventRow.action, EventRow.round_n, EventRow.detail)
        .where(EventRow.game_id == game_id)
        .order_by(EventRow.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    return HistoryEntry(row.version, aware(row.at), row.action, row.round_n, json.loads(row.detail))


def write_round(conn: Connection, game_id: str, rnd: Round, op: RoundOp, now: datetime) -> None:
    """Insert, update or delete the one round row an action touched (a round is saved whole)."""
    if op == "insert":
        conn.execute(_INSERT_ROUND, _round_row(game_id, rnd, now))
    elif op == "update":
        conn.execute(
            _UPDATE_ROUND, {"b_game": game_id, "b_n": rnd.number, **_round_counts(rnd, now)}
        )
    else:
        conn.execute(_DELETE_ROUND, {"b_game": game_id, "b_n": rnd.number})


def update_game(conn: Connection, game_id: str, version: int, game: Game, now: datetime) -> None:
    """Move the game row to *version*, with the game's Beenden/Werten state (T5)."""
    conn.execute(
        _UPDATE_GAME,
        {
            "b_id": game_id,
            "version": version,
            "closed": game.closed,
            "scored": game.scored,
            "updated_at": now,
        },
    )


def append_history(
    conn: Connection, game_id: str, version: int, now: datetime, change: Change
) -> None:
    """One history row for the change that made *version* (T6)."""
    conn.execute(
        _INSERT_EVENT,
        {
            "game_id": game_id,
            "version": version,
            "at": now,
            "action": change.action,
            "round_n": None if change.round is None else change.round.number,
            "detail": json.dumps(change.detail, ensure_ascii=False),
        },
    )


def _round_row(game_id: str, rnd: Round, now: datetime) -> dict[str, Any]:
    return {"game_id": game_id, "n": rnd.number, **_round_counts(rnd, now)}


def _round_counts(rnd: Round, now: datetime) -> dict[str, Any]:
    return {
        "stacks": _dump(rnd.stacks),
        "middle": None if rnd.middle is None else _dump(rnd.middle),
        "confirmed": rnd.confirmed,
        "updated_at": now,
    }


def _check_id(game_id: object) -> None:
    if not is_game_id(game_id):
        raise GameNotFoundError(str(game_id))


def _dump(values: Sequence[int]) -> str:
    return json.dumps(list(values), separators=(",", ":"))
