"""Online tables in the database, so that they outlive the server process.

A table is one row: its code, whether it is open, and its state as JSON
text that only the table itself reads (:mod:`ligretto.live.persistence`).
The actions of its current round are rows of their own, appended in order
— the round's seed and its actions rebuild the round exactly
(``Round.replay``).  Actions of other rounds are deleted when a table
row says another round is dealt: those rounds are on the Tafel game.

Writes come in batches (:meth:`LiveTableStore.write`, one transaction),
from the journal that collects what the tables did
(:mod:`ligretto.live.journal`), never from a table's own task.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ligretto.store.database import busy_guard, writer
from ligretto.store.models import LiveActionRow, LiveTableRow

OPEN = "open"
CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One accepted action: ``index`` counts from 0 within the round;
    ``seat`` is ``None`` only for the table's agreed "stuck" (R4)."""

    code: str
    round_no: int
    index: int
    seat: int | None
    action: str
    seq: int


@dataclass(frozen=True, slots=True)
class StoredTable:
    """An open table as stored: its state and its current round's actions."""

    code: str
    state: dict[str, Any]
    actions: list[StoredAction]


class LiveTableStore:
    """The tables of every server process that uses this database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)

    def write(
        self,
        states: Mapping[str, dict[str, Any]],
        actions: Sequence[StoredAction],
        closes: Mapping[str, str | None] | None = None,
    ) -> None:
        """One batch, in one transaction: the newest state of each changed
        table (``state["round_no"]`` drops the actions of other rounds),
        the actions accepted since the last batch, in order, and then the
        tables that closed (``code`` → reason), which stay closed."""
        closes = closes or {}
        if not states and not actions and not closes:
            return
        now = datetime.now(UTC)
        with busy_guard(), self._writer.begin() as conn:
            for code, state in states.items():
                values = {
                    "code": code,
                    "status": OPEN,
                    "closed_reason": None,
                    "state": json.dumps(state, separators=(",", ":")),
                    "created_at": now,
                    "updated_at": now,
                }
                conn.execute(_upsert(conn.dialect.name, values))
                conn.execute(
                    delete(LiveActionRow).where(
                        LiveActionRow.code == code,
                        LiveActionRow.round_no != int(state.get("round_no", 0)),
                    )
                )
            latest = {code: int(state.get("round_no", 0)) for code, state in states.items()}
            rows = [
                {
                    "code": a.code,
                    "round_no": a.round_no,
                    "idx": a.index,
                    "seat": a.seat,
                    "action": a.action,
                    "seq": a.seq,
                }
                for a in actions
                if a.round_no == latest.get(a.code, a.round_no)
            ]
            if rows:
                # A batch written again after a failure must not fail twice.
                conn.execute(_insert_new(conn.dialect.name), rows)
            for code, reason in closes.items():
                _close(conn, code, reason)

    def open_tables(self) -> list[StoredTable]:
        """Every table that was open, with its current round's actions in order."""
        with busy_guard(), self.engine.connect() as conn:
            tables = conn.execute(
                select(LiveTableRow.code, LiveTableRow.state).where(LiveTableRow.status == OPEN)
            ).all()
            found: list[StoredTable] = []
            for code, text in tables:
                try:
                    state = json.loads(text)
                except ValueError:
                    state = {}
                if not isinstance(state, dict):
                    state = {}
                rows = conn.execute(
                    select(
                        LiveActionRow.round_no,
                        LiveActionRow.idx,
                        LiveActionRow.seat,
                        LiveActionRow.action,
                        LiveActionRow.seq,
                    )
                    .where(LiveActionRow.code == code)
                    .order_by(LiveActionRow.round_no, LiveActionRow.idx)
                ).all()
                actions = [StoredAction(code, r[0], r[1], r[2], r[3], r[4]) for r in rows]
                found.append(StoredTable(code, state, actions))
        return found

    def close(self, code: str, reason: str | None = None) -> None:
        """The table is over (or cannot be restored): it stays as a closed
        row — its code is not handed out again while it exists — and its
        actions go."""
        with busy_guard(), self._writer.begin() as conn:
            _close(conn, code, reason)

    def closed_reason(self, code: str) -> str | None:
        """Why a closed table was closed (``""`` when for no particular
        reason); ``None`` when no closed table has this code."""
        with busy_guard(), self.engine.connect() as conn:
            row = conn.execute(
                select(LiveTableRow.status, LiveTableRow.closed_reason).where(
                    LiveTableRow.code == code
                )
            ).first()
        if row is None or row[0] != CLOSED:
            return None
        return row[1] or ""

    def known(self, code: str) -> bool:
        """Whether any table, open or closed, ever had this code."""
        with busy_guard(), self.engine.connect() as conn:
            row = conn.execute(select(LiveTableRow.code).where(LiveTableRow.code == code)).first()
        return row is not None


def _close(conn: Connection, code: str, reason: str | None) -> None:
    conn.execute(
        update(LiveTableRow)
        .where(LiveTableRow.code == code)
        .values(status=CLOSED, closed_reason=reason, updated_at=datetime.now(UTC))
    )
    conn.execute(delete(LiveActionRow).where(LiveActionRow.code == code))


def _insert_new(dialect: str) -> Any:
    if dialect == "postgresql":
        return postgresql.insert(LiveActionRow).on_conflict_do_nothing()
    return sqlite.insert(LiveActionRow).on_conflict_do_nothing()


def _upsert(dialect: str, values: dict[str, Any]) -> Any:
    """Insert the table row, or replace its state (keeping ``created_at``)."""
    changed = {k: values[k] for k in ("status", "closed_reason", "state", "updated_at")}
    if dialect == "postgresql":
        pg = postgresql.insert(LiveTableRow).values(**values)
        return pg.on_conflict_do_update(index_elements=["code"], set_=changed)
    lite = sqlite.insert(LiveTableRow).values(**values)
    return lite.on_conflict_do_update(index_elements=["code"], set_=changed)
