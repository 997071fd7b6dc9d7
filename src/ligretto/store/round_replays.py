"""Finished rounds of online tables, kept replayable, and how long they are kept.

Each finished round is one row holding its JSON record (the format of
:mod:`ligretto.rules.replay_file`: seed, options, seats, every accepted
action with its play time, lost races, result).  Rows are inserted by the
journal's batch (:meth:`ligretto.store.live_tables.LiveTableStore.write`),
in the same transaction as the table's own state, never by a table's task.

Retention (``LIGRETTO_REPLAYS``, docs/online-play.md): ``game`` keeps a
round as long as the Tafel game that scored it exists (a round no game
scored is kept), ``forever`` keeps every round, ``off`` keeps none; and
``LIGRETTO_REPLAY_MAX_DAYS`` deletes rounds older than that whatever the
mode (0: no limit).  :meth:`RoundReplays.purge` applies both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Connection, Engine, and_, delete, exists, select
from sqlalchemy.dialects import postgresql, sqlite

from ligretto.store.database import busy_guard, writer
from ligretto.store.models import GameRow, RoundReplayRow

#: How finished rounds are kept (``LIGRETTO_REPLAYS``).
Retention = Literal["game", "forever", "off"]
RETENTIONS: tuple[Retention, ...] = ("game", "forever", "off")


@dataclass(frozen=True, slots=True)
class KeptRound:
    """A finished round on its way to the database: ``n`` counts the
    table's rounds across its games; ``data`` is its JSON-ready record."""

    code: str
    n: int
    tafel_game: str | None
    finished_at: datetime
    data: dict[str, Any]
    #: The round's number on the Tafel game's board (``None``: no game).
    tafel_round: int | None = None


def insert_rounds(conn: Connection, rounds: list[KeptRound]) -> None:
    """Insert finished rounds in the caller's transaction; a round stored
    already (a batch written again, a round scored again after a restart)
    stays as it is."""
    if not rounds:
        return
    dialect = conn.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    conn.execute(
        insert(RoundReplayRow).on_conflict_do_nothing(),
        [
            {
                "code": r.code,
                "n": r.n,
                "tafel_game": r.tafel_game,
                "tafel_round": r.tafel_round,
                "finished_at": r.finished_at,
                "data": json.dumps(r.data, separators=(",", ":"), ensure_ascii=False),
            }
            for r in rounds
        ],
    )


class RoundReplays:
    """Reading the kept rounds, and deleting those past their retention."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)

    def get(self, code: str, n: int) -> dict[str, Any] | None:
        """The record of the table ``code``'s finished round ``n``, or ``None``."""
        with busy_guard(), self.engine.connect() as conn:
            text = conn.execute(
                select(RoundReplayRow.data).where(
                    RoundReplayRow.code == code, RoundReplayRow.n == n
                )
            ).scalar_one_or_none()
        if text is None:
            return None
        data = json.loads(text)
        return data if isinstance(data, dict) else None

    def numbers(self, code: str) -> list[int]:
        """The numbers of the table's kept rounds, in order."""
        with busy_guard(), self.engine.connect() as conn:
            rows = conn.execute(
                select(RoundReplayRow.n)
                .where(RoundReplayRow.code == code)
                .order_by(RoundReplayRow.n)
            )
            return [n for (n,) in rows]

    def for_game(self, tafel_game: str) -> dict[int, tuple[str, int]]:
        """The kept rounds a Tafel game scored: its round number -> the
        table's code and the round's number there.  A round the board
        failed to take was scored again as the same number: the later wins."""
        with busy_guard(), self.engine.connect() as conn:
            rows = conn.execute(
                select(RoundReplayRow.tafel_round, RoundReplayRow.code, RoundReplayRow.n)
                .where(
                    RoundReplayRow.tafel_game == tafel_game,
                    RoundReplayRow.tafel_round.is_not(None),
                )
                .order_by(RoundReplayRow.finished_at, RoundReplayRow.n)
            )
            return {number: (code, n) for number, code, n in rows if number is not None}

    def purge(
        self, retention: Retention, max_days: float = 0.0, now: datetime | None = None
    ) -> int:
        """Delete the rounds past their retention; return how many went."""
        now = now or datetime.now(UTC)
        gone = 0
        with busy_guard(), self._writer.begin() as conn:
            if retention == "off":
                gone += conn.execute(delete(RoundReplayRow)).rowcount
            if retention == "game":
                orphaned = and_(
                    RoundReplayRow.tafel_game.is_not(None),
                    ~exists().where(GameRow.id == RoundReplayRow.tafel_game),
                )
                gone += conn.execute(delete(RoundReplayRow).where(orphaned)).rowcount
            if max_days > 0:
                oldest = now - timedelta(days=max_days)
                gone += conn.execute(
                    delete(RoundReplayRow).where(RoundReplayRow.finished_at < oldest)
                ).rowcount
        return gone
