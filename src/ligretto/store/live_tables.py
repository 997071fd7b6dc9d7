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

**One authority per table, across processes.**  Each row names the
process that serves the table (``owner``) and how long that claim holds
(``lease_until``).  A process renews the leases of its tables every few
seconds (:meth:`LiveTableStore.renew`) and writes only rows it owns; a
table whose lease has run out (its process died or stopped) can be taken
by another process (:meth:`LiveTableStore.take`), which restores it from
these rows.  Two processes therefore never both run a table: a process
that lost a lease learns it at its next renewal and stops the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ligretto.store.database import busy_guard
from ligretto.store.leases import LeasedStore
from ligretto.store.models import LiveActionRow, LiveTableRow
from ligretto.store.round_replays import KeptRound, insert_rounds

OPEN = "open"
CLOSED = "closed"


class TableElsewhereError(Exception):
    """Another process holds the table's lease: it serves the table now.

    When that process has died, its lease runs out within
    :data:`LEASE_SECONDS`, and then the table can be taken here.
    """

    code = "table_elsewhere"


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
    #: Milliseconds of play since "Ligretto!" when it was accepted.
    t_ms: int | None = None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """An open table as stored: its state and its current round's actions."""

    code: str
    state: dict[str, Any]
    actions: list[StoredAction]


class LiveTableStore(LeasedStore):
    """The tables of every server process that uses this database."""

    def _mine(self) -> Any:
        """Rows this process may write: its own."""
        return LiveTableRow.owner == self.owner

    def _free(self, now: datetime) -> Any:
        """Rows this process may take: its own, nobody's, or with a lease run out."""
        return or_(
            LiveTableRow.owner == self.owner,
            LiveTableRow.owner.is_(None),
            LiveTableRow.lease_until.is_(None),
            LiveTableRow.lease_until < now,
        )

    def write(
        self,
        states: Mapping[str, dict[str, Any]],
        actions: Sequence[StoredAction],
        closes: Mapping[str, str | None] | None = None,
        rounds: Sequence[KeptRound] = (),
    ) -> None:
        """One batch, in one transaction: the newest state of each changed
        table (``state["round_no"]`` drops the actions of other rounds),
        the actions accepted since the last batch, in order, the rounds
        that finished (kept replayable, :mod:`ligretto.store.round_replays`),
        and then the tables that closed (``code`` → reason), which stay
        closed.

        Only tables this process owns are written (a new code is this
        process's from its first batch on): a process that lost a table's
        lease cannot overwrite what the new owner does."""
        closes = closes or {}
        if not states and not actions and not closes and not rounds:
            return
        now = self._now()
        with busy_guard(), self._writer.begin() as conn:
            statements = _statements(conn.dialect.name)
            if states:
                until = self._until(now)
                conn.execute(
                    statements.upsert,
                    [
                        {
                            "code": code,
                            "status": OPEN,
                            "closed_reason": None,
                            "state": json.dumps(state, separators=(",", ":")),
                            "owner": self.owner,
                            "lease_until": until,
                            "created_at": now,
                            "updated_at": now,
                        }
                        for code, state in states.items()
                    ],
                )
                conn.execute(
                    statements.drop_other_rounds,
                    [
                        {"b_code": code, "b_round": int(state.get("round_no", 0))}
                        for code, state in states.items()
                    ],
                )
            latest = {code: int(state.get("round_no", 0)) for code, state in states.items()}
            owner = self.owner
            rows = [
                (a.code, a.round_no, a.index, a.seat, a.action, a.seq, a.t_ms, a.code, owner)
                for a in actions
                if a.round_no == latest.get(a.code, a.round_no)
            ]
            if rows:
                # Only into tables this process owns, decided by the database
                # row by row; a batch written again after a failure must not
                # fail twice (an action already there is left as it is).
                # The driver's own statement, many rows at once: through
                # SQLAlchemy's parameter handling and a select of the owned
                # codes first, a batch cost several times the database's work.
                conn.exec_driver_sql(statements.insert_owned_actions, rows)
            owned = self._owned(conn, set(closes) | {r.code for r in rounds})
            insert_rounds(conn, [r for r in rounds if r.code in owned])
            for code, reason in closes.items():
                if code in owned:
                    _close(conn, code, reason, now)

    def _owned(self, conn: Connection, codes: set[str]) -> set[str]:
        if not codes:
            return set()
        rows = conn.execute(
            _statements(conn.dialect.name).owned, {"b_codes": list(codes), "b_owner": self.owner}
        )
        return {code for (code,) in rows}

    def renew(self, codes: Iterable[str]) -> set[str]:
        """Extend this process's leases on ``codes``; return the codes it
        no longer holds (another process took them, or they closed): stop
        serving those.  A code not written yet is not lost."""
        wanted = set(codes)
        if not wanted:
            return set()
        now = self._now()
        with busy_guard(), self._writer.begin() as conn:
            statements = _statements(conn.dialect.name)
            kept = {
                code
                for (code,) in conn.execute(
                    statements.renew,
                    {
                        "b_codes": list(wanted),
                        "b_owner": self.owner,
                        "b_until": self._until(now),
                    },
                )
            }
            others = wanted - kept
            if not others:
                return set()
            rows = conn.execute(statements.known, {"b_codes": list(others)})
            return {code for (code,) in rows}

    def release(self, codes: Iterable[str]) -> None:
        """A graceful stop: the leases end now, so another process may take
        the tables at once (this one takes its own back when it starts)."""
        wanted = set(codes)
        if not wanted:
            return
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                update(LiveTableRow)
                .where(LiveTableRow.code.in_(wanted), self._mine())
                .values(lease_until=self._now())
            )

    def take(self, code: str) -> StoredTable | None:
        """Claim the open table ``code`` if nobody else holds it (its lease
        ran out, or it is this process's) and load it; ``None`` when there
        is no open table with this code.  Raises :class:`TableElsewhereError`
        while another process holds it."""
        now = self._now()
        # Read first: a code nobody has (a typo, a guess) costs no write.
        with busy_guard(), self.engine.connect() as conn:
            row = conn.execute(
                select(LiveTableRow.owner, LiveTableRow.lease_until).where(
                    LiveTableRow.code == code, LiveTableRow.status == OPEN
                )
            ).first()
        if row is None:
            return None
        with busy_guard(), self._writer.begin() as conn:
            taken = conn.execute(
                update(LiveTableRow)
                .where(LiveTableRow.code == code, LiveTableRow.status == OPEN, self._free(now))
                .values(owner=self.owner, lease_until=self._until(now))
                .returning(LiveTableRow.code)
            ).first()
            if taken is not None:
                return self._load(conn, code)
        raise TableElsewhereError(code)

    def open_tables(self) -> list[StoredTable]:
        """Every open table this process served, or nobody holds, claimed
        again and loaded with its current round's actions in order (at
        start; tables another process served are taken one by one when
        someone comes for them, :meth:`take`)."""
        now = self._now()
        with busy_guard(), self._writer.begin() as conn:
            codes = conn.execute(
                update(LiveTableRow)
                .where(
                    LiveTableRow.status == OPEN,
                    or_(self._mine(), LiveTableRow.owner.is_(None)),
                )
                .values(owner=self.owner, lease_until=self._until(now))
                .returning(LiveTableRow.code)
            ).all()
            found = [self._load(conn, code) for (code,) in codes]
        return sorted(found, key=lambda t: t.code)

    def _load(self, conn: Connection, code: str) -> StoredTable:
        text = conn.execute(
            select(LiveTableRow.state).where(LiveTableRow.code == code)
        ).scalar_one()
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
                LiveActionRow.t_ms,
            )
            .where(LiveActionRow.code == code)
            .order_by(LiveActionRow.round_no, LiveActionRow.idx)
        ).all()
        actions = [StoredAction(code, r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]
        return StoredTable(code, state, actions)

    def close(self, code: str, reason: str | None = None) -> None:
        """The table is over (or cannot be restored): it stays as a closed
        row — its code is not handed out again while it exists — and its
        actions go."""
        with busy_guard(), self._writer.begin() as conn:
            _close(conn, code, reason, self._now())

    def close_stale(self, idle: float) -> list[str]:
        """Close the open tables that no process holds and that have not
        changed for ``idle`` seconds (handed back and never asked for
        again); return their codes."""
        now = self._now()
        with busy_guard(), self._writer.begin() as conn:
            codes = [
                code
                for (code,) in conn.execute(
                    select(LiveTableRow.code).where(
                        LiveTableRow.status == OPEN,
                        or_(LiveTableRow.lease_until.is_(None), LiveTableRow.lease_until < now),
                        LiveTableRow.updated_at < now - timedelta(seconds=idle),
                    )
                )
            ]
            for code in codes:
                _close(conn, code, "idle", now)
        return codes

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


def _close(conn: Connection, code: str, reason: str | None, now: datetime) -> None:
    conn.execute(
        update(LiveTableRow)
        .where(LiveTableRow.code == code)
        .values(status=CLOSED, closed_reason=reason, updated_at=now)
    )
    conn.execute(delete(LiveActionRow).where(LiveActionRow.code == code))


@dataclass(frozen=True, slots=True)
class _BatchStatements:
    """The statements of a journal batch and of the lease renewal, built once
    per dialect and run for many rows at once: building a statement per row
    (or one with a literal per table) cost more than the database's own
    work, and it holds the interpreter while the tables wait."""

    upsert: Any
    drop_other_rounds: Any
    #: Driver SQL (its parameter style): one action, only if the table's row
    #: is the writing process's (the owner given last).
    insert_owned_actions: str
    owned: Any
    # The lease renewal's (every few seconds, for every table of the process).
    renew: Any
    known: Any


_BATCH_STATEMENTS: dict[str, _BatchStatements] = {}


def _statements(dialect: str) -> _BatchStatements:
    built = _BATCH_STATEMENTS.get(dialect)
    if built is None:
        built = _BATCH_STATEMENTS[dialect] = _BatchStatements(
            upsert=_upsert(dialect),
            drop_other_rounds=delete(LiveActionRow).where(
                LiveActionRow.code == bindparam("b_code"),
                LiveActionRow.round_no != bindparam("b_round"),
            ),
            insert_owned_actions=_insert_owned_actions(dialect),
            owned=select(LiveTableRow.code).where(
                LiveTableRow.code.in_(bindparam("b_codes", expanding=True)),
                LiveTableRow.owner == bindparam("b_owner"),
            ),
            renew=update(LiveTableRow)
            .where(
                LiveTableRow.code.in_(bindparam("b_codes", expanding=True)),
                LiveTableRow.status == OPEN,
                LiveTableRow.owner == bindparam("b_owner"),
            )
            .values(lease_until=bindparam("b_until"))
            .returning(LiveTableRow.code),
            known=select(LiveTableRow.code).where(
                LiveTableRow.code.in_(bindparam("b_codes", expanding=True))
            ),
        )
    return built


def _insert_owned_actions(dialect: str) -> str:
    """``INSERT … SELECT … WHERE EXISTS`` (the owner's row) ``ON CONFLICT DO
    NOTHING``, in the driver's parameter style: SQLite's ``?``, psycopg's
    ``%s``. (SQLite reads ``ON CONFLICT`` after a ``SELECT`` only when the
    ``SELECT`` has a ``WHERE``, as this one has.)"""
    mark = "%s" if dialect == "postgresql" else "?"
    actions, tables = LiveActionRow.__tablename__, LiveTableRow.__tablename__
    if dialect == "postgresql":  # typed: a NULL seat would be read as text
        types = ("varchar", "integer", "integer", "integer", "varchar", "integer", "integer")
        values = ", ".join(f"{mark}::{name}" for name in types)
    else:
        values = ", ".join([mark] * 7)
    return (
        f"INSERT INTO {actions} (code, round_no, idx, seat, action, seq, t_ms) "
        f"SELECT {values} WHERE EXISTS "
        f"(SELECT 1 FROM {tables} WHERE code = {mark} AND owner = {mark}) "
        "ON CONFLICT DO NOTHING"
    )


def _upsert(dialect: str) -> Any:
    """Insert a table row, or replace its state (keeping ``created_at``) —
    only where the writing process owns it (the row's ``owner``)."""
    insert = (
        postgresql.insert(LiveTableRow) if dialect == "postgresql" else sqlite.insert(LiveTableRow)
    )
    excluded = insert.excluded
    changed = {
        "status": excluded.status,
        "closed_reason": excluded.closed_reason,
        "state": excluded.state,
        "updated_at": excluded.updated_at,
    }
    return insert.on_conflict_do_update(
        index_elements=["code"], set_=changed, where=LiveTableRow.owner == excluded.owner
    )
