"""A group's export streamed: read and written a few games at a time.

``GET /api/groups/{id}/export.json`` sends a group of any size without
holding it in memory or a transaction open while the client reads
(:func:`export_stream`); games kept for the statistics
(:class:`~ligretto.store.group_queries.GroupQueries`) are taken from there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy.engine import Row

from ligretto.store import group_repository as sql
from ligretto.store.database import busy_guard
from ligretto.store.group_queries import GroupQueries
from ligretto.tafel import Round
from ligretto.tafel.group_exchange import group_json_chunks
from ligretto.tafel.stats import PlayedGame

EXPORT_BATCH = 20
"""Games whose rounds one read of a streamed export fetches (at most 20,000 rounds, T1)."""

EXPORT_PIECE = 256 * 1024
"""Bytes of JSON text gathered before a piece of a streamed export is sent."""


def _joined(pieces: Iterator[str], size: int) -> Iterator[bytes]:
    """*pieces* as UTF-8, gathered into pieces of about *size* bytes (fewer, larger writes)."""
    gathered: list[bytes] = []
    length = 0
    for piece in pieces:
        data = piece.encode()
        gathered.append(data)
        length += len(data)
        if length >= size:
            yield b"".join(gathered)
            gathered, length = [], 0
    if gathered:
        yield b"".join(gathered)


def export_stream(queries: GroupQueries, group_id: str) -> Iterator[bytes]:
    """A group's export (:meth:`GroupQueries.export_json`) as UTF-8 JSON
    text, read and written in pieces.

    The group and its games' rows are read now (an unknown group raises
    here, before anything is sent); the rounds are read
    :data:`EXPORT_BATCH` games at a time, each batch in its own short
    read, and written out before the next is read. So a group of any
    size holds at most one batch in memory and no lock or transaction
    for the time the client takes to read. Each game is as it is when
    its batch is read; games kept for the statistics are taken from
    memory. Iterate in a thread: every piece is reading and encoding.
    """
    with busy_guard(), queries.engine.connect() as conn:
        row, group = sql.read_group(conn, group_id, "share")
        rows = sql.read_game_rows(conn, group_id)
        conn.rollback()
    stored = sql.stored_group(row, group, len(rows))
    pieces = group_json_chunks(
        group_id=stored.id,
        version=stored.version,
        name=stored.name,
        members=stored.members,
        season=stored.season,
        games=_games_in_batches(queries, rows),
    )
    return _joined(pieces, EXPORT_PIECE)


def _games_in_batches(queries: GroupQueries, rows: Sequence[Row[Any]]) -> Iterator[PlayedGame]:
    for start in range(0, len(rows), EXPORT_BATCH):
        batch = rows[start : start + EXPORT_BATCH]
        known = queries.kept_games(batch)
        missing = [game_id for game_id, played in known.items() if played is None]
        rounds: dict[str, list[Round]] = {}
        if missing:
            with busy_guard(), queries.engine.connect() as conn:
                rounds = sql.read_rounds_of(conn, missing)
                conn.rollback()
        for r in batch:
            yield known[r.id] or sql.played_game(r, rounds.get(r.id, []))
