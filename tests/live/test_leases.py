"""One authority per online table across processes (table leases).

Two registries with different owners on one database stand for two server
processes: a table is served by the one that holds its lease; the other
answers "elsewhere" until the lease runs out (the owner died) or was
released (the owner stopped), and then takes the table over from the
database with the same cards.  Runs on SQLite and, when configured, on
PostgreSQL (the ``engine`` fixture).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, update

from helpers.live_table import settled
from helpers.live_wire import FAST
from ligretto.live.connection import Connection
from ligretto.live.protocol import Join, Move
from ligretto.live.registry import TableRegistry
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.store.live_tables import LiveTableStore, StoredAction, TableElsewhereError
from ligretto.store.models import LiveTableRow

SLOW_BOT = dataclasses.replace(FAST, bot_pace=1000.0)


class Clock:
    """A process's clock: the real one, run ahead by what the test says.

    A lease runs out by the clock of the process that looks at it; a test
    runs the other process's clock past the lease instead of sleeping
    through it, so a slow machine cannot make a lease hold or lapse at the
    wrong moment."""

    def __init__(self) -> None:
        self.ahead = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead

    def run(self, seconds: float) -> None:
        self.ahead += timedelta(seconds=seconds)


def registry(
    engine: Engine, owner: str, lease: float = 30.0, clock: Clock | None = None
) -> TableRegistry:
    store = LiveTableStore(engine, owner, lease, clock=clock or Clock())
    return TableRegistry(settings=SLOW_BOT, store=store)


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if isinstance(text, str):  # a connection without a transport: all queued
            out.append(json.loads(text))
    return out


async def table_in_play(reg: TableRegistry) -> tuple[Table, str]:
    """Anna and a slow bot; Anna makes three moves; returns her seat token."""
    table = reg.create(
        seats=2,
        options=RuleOptions(),
        end=EndCondition(),
        host_name="Anna",
        bots=[BotSpec(1, "greedy", "easy")],
    )
    anna = Connection()
    table.submit(anna, Join(type="join", host_token=table.host_token))
    table.call(table.begin_game)
    # The countdown's end, however long a busy machine takes to it.
    for _ in range(6000):
        await asyncio.sleep(0.01)
        if table.phase == "playing":
            break
    assert table.phase == "playing"
    token = next(m for m in drain(anna) if m["type"] == "welcome")["token"]
    for _ in range(3):
        await settled(table)
        assert table.round is not None
        legal = table.round.legal_actions(0)
        table.submit(anna, Move(type="move", action=str(legal[0])))
    await settled(table)
    assert reg.journal is not None
    await reg.journal.flush()
    return table, token


def test_a_table_another_process_serves_is_not_taken(engine: Engine) -> None:
    async def scenario() -> None:
        a, b = registry(engine, "a"), registry(engine, "b")
        table, _ = await table_in_play(a)
        with pytest.raises(TableElsewhereError):
            await b.find(table.code)
        assert b.get(table.code) is None
        # Nor does a start of the other process bring it back there.
        assert table.code not in await b.restore()
        await a.stop()
        await b.stop()

    asyncio.run(scenario())


def test_a_stopped_process_hands_its_tables_over_at_once(engine: Engine) -> None:
    async def scenario() -> None:
        a, b = registry(engine, "a"), registry(engine, "b")
        table, token = await table_in_play(a)
        assert table.round is not None
        cards, seq = table.round.snapshot(), table.seq
        await a.stop()  # graceful: everything written, leases released
        moved = await b.find(table.code)
        assert moved is not None and moved.round is not None
        assert (moved.round.snapshot(), moved.seq) == (cards, seq)
        anna = Connection()
        moved.submit(anna, Join(type="join", token=token))
        await settled(moved)
        assert next(m for m in drain(anna) if m["type"] == "welcome")["seat"] == 0
        # Process a starts again: the table stays where it is now.
        again = registry(engine, "a")
        assert table.code not in await again.restore()
        with pytest.raises(TableElsewhereError):
            await again.find(table.code)
        await again.stop()
        await b.stop()

    asyncio.run(scenario())


def test_a_dead_process_s_tables_are_taken_once_its_lease_ran_out(engine: Engine) -> None:
    async def scenario() -> None:
        later = Clock()
        a = registry(engine, "a")
        b = registry(engine, "b", clock=later)
        table, _ = await table_in_play(a)
        assert table.round is not None
        cards = table.round.snapshot()
        # Process a dies: nothing more is written or renewed.
        assert a.journal is not None and a.store is not None
        a.journal._closed = True
        for task in (a._heartbeat, a._reaper, table.task):
            assert task is not None
            task.cancel()
        with pytest.raises(TableElsewhereError):
            await b.find(table.code)
        later.run(a.store.lease + 1)  # past the last lease a took
        moved = await b.find(table.code)
        assert moved is not None and moved.round is not None
        assert moved.round.snapshot() == cards
        await b.stop()

    asyncio.run(scenario())


def test_a_process_that_lost_a_lease_stops_the_table_and_writes_nothing(
    engine: Engine,
) -> None:
    """Process a stalled past its lease and b took the table over: a's next
    renewal tells it, a stops its copy, and what a still had to write does
    not overwrite b's table."""

    async def scenario() -> None:
        later = Clock()
        a = registry(engine, "a")
        b = registry(engine, "b", clock=later)
        table, _ = await table_in_play(a)
        assert a._heartbeat is not None and a.journal is not None and a.store is not None
        a._heartbeat.cancel()  # a stalls: no renewals
        later.run(a.store.lease + 1)  # ...past its lease, by b's clock
        moved = await b.find(table.code)
        assert moved is not None
        assert b.journal is not None and b.store is not None
        # b's first batch: the table as b took it (its row, its lease). The
        # row as it stands then, whatever b's journal chose to write.
        await b.journal.flush()
        before = b.store.take(table.code)
        assert before is not None
        # a still writes what its copy did: ignored, b's row stands.
        table.state.seq += 5
        table.note()
        await a.journal.flush()
        assert a.store is not None
        assert a.store.renew([table.code]) == {table.code}
        after = b.store.take(table.code)
        assert after is not None and after.state == before.state
        assert json.loads(json.dumps(after.state))["seq"] != table.state.seq
        await b.stop()
        a._heartbeat = None
        await a.stop()

    asyncio.run(scenario())


def test_a_batchs_actions_go_only_into_tables_the_writer_owns(engine: Engine) -> None:
    """The database decides, row by row, whose table an action is for: a
    process's actions for another's table (or for no table) are dropped,
    its own are kept, and a batch written twice changes nothing."""
    a, b = LiveTableStore(engine, "a"), LiveTableStore(engine, "b")
    a.write({"OWNEDA": {"round_no": 1}}, [])
    b.write({"OWNEDB": {"round_no": 1}}, [])
    mine = [
        StoredAction("OWNEDA", 1, 0, 0, "turn", 1, 120),
        StoredAction("OWNEDA", 1, 1, None, "stuck", 2),
    ]
    b.write(
        {}, [StoredAction("OWNEDA", 1, 0, 2, "turn", 7), StoredAction("NOSUCH", 1, 0, 0, "turn", 1)]
    )
    a.write({}, [*mine, StoredAction("OWNEDB", 1, 0, 1, "turn", 3)])
    a.write({}, mine)  # written again after a failure: no error, no change
    stored = a.take("OWNEDA")
    assert stored is not None and list(stored.actions) == mine
    theirs = b.take("OWNEDB")
    assert theirs is not None and list(theirs.actions) == []
    assert a.take("NOSUCH") is None


def test_one_take_per_code_when_many_come_at_once(engine: Engine) -> None:
    async def scenario() -> None:
        a, b = registry(engine, "a"), registry(engine, "b")
        table, _ = await table_in_play(a)
        await a.stop()
        found = await asyncio.gather(*(b.find(table.code) for _ in range(5)))
        assert all(t is found[0] for t in found) and found[0] is not None
        assert b.get(table.code) is found[0]
        await b.stop()

    asyncio.run(scenario())


def test_a_table_nobody_is_at_is_handed_back_and_taken_where_its_people_go(
    engine: Engine,
) -> None:
    """The proxy may send a table's people to another process (after a
    restart, say): the process that has the table but nobody at it hands
    it back, and the other one takes it over."""

    async def scenario() -> None:
        quick = dataclasses.replace(SLOW_BOT, handover_after=0.05)
        a = TableRegistry(settings=quick, store=LiveTableStore(engine, "a", 30.0))
        b = registry(engine, "b")
        table, token = await table_in_play(a)
        assert table.round is not None
        cards = table.round.snapshot()
        # Someone is connected: nothing is handed back.
        assert await a.hand_over_idle() == []
        table.left(next(iter(table.seats[0].conns)))
        await settled(table)
        await asyncio.sleep(0.1)  # at least the handover time (0.05 s) passes
        assert await a.hand_over_idle() == [table.code]
        assert a.get(table.code) is None
        moved = await b.find(table.code)
        assert moved is not None and moved.round is not None
        assert moved.round.snapshot() == cards
        anna = Connection()
        moved.submit(anna, Join(type="join", token=token))
        await settled(moved)
        assert next(m for m in drain(anna) if m["type"] == "welcome")["seat"] == 0
        await a.stop()
        await b.stop()

    asyncio.run(scenario())


def test_tables_no_process_ran_for_the_idle_time_are_closed(engine: Engine) -> None:
    async def scenario() -> None:
        a = registry(engine, "a")
        table, _ = await table_in_play(a)
        await a.stop()  # released, still open
        assert a.store is not None
        assert table.code in a.store.close_stale(0.0)
        assert a.store.closed_reason(table.code) == "idle"
        b = registry(engine, "b")
        assert await b.find(table.code) is None
        assert await b.closed_reason(table.code) == "idle"
        await b.stop()

    asyncio.run(scenario())


def _race(stores: list[LiveTableStore], code: str) -> tuple[list[str], list[str]]:
    """Both stores take ``code`` at the same moment: (who won, who was refused)."""
    start = threading.Barrier(len(stores))
    won: list[str] = []
    refused: list[str] = []

    def claim(store: LiveTableStore) -> None:
        start.wait()
        try:
            if store.take(code) is not None:
                won.append(store.owner)
        except TableElsewhereError:
            refused.append(store.owner)

    threads = [threading.Thread(target=claim, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return won, refused


def test_two_processes_racing_for_a_stale_table_never_both_get_it(engine: Engine) -> None:
    """A table whose owner died (its lease long run out), and two processes
    that both want it at the same moment, many times over: each time exactly
    one takes it, the other is told it is elsewhere and cannot renew it."""
    stores = [LiveTableStore(engine, "a"), LiveTableStore(engine, "b")]
    code = "RC" + secrets.token_hex(2).upper()
    LiveTableStore(engine, "dead").write({code: {"round_no": 0}}, [])
    for _ in range(20):
        with engine.begin() as conn:
            conn.execute(
                update(LiveTableRow)
                .where(LiveTableRow.code == code)
                .values(owner="dead", lease_until=datetime.now(UTC) - timedelta(minutes=5))
            )
        won, refused = _race(stores, code)
        assert len(won) == 1 and len(refused) == 1, (won, refused)
        loser = next(s for s in stores if s.owner != won[0])
        assert loser.renew([code]) == {code}


def test_two_processes_starting_together_split_the_unowned_tables(engine: Engine) -> None:
    """Tables nobody holds are taken at start by exactly one of two
    processes starting at once."""
    # Twenty different codes: drawn one by one, two were the same in about
    # one run in 340, and the test counted a table nobody could take.
    codes = [f"UN{n:04X}" for n in secrets.SystemRandom().sample(range(16**4), 20)]
    LiveTableStore(engine, "x").write({c: {"round_no": 0} for c in codes}, [])
    with engine.begin() as conn:
        conn.execute(
            update(LiveTableRow)
            .where(LiveTableRow.code.in_(codes))
            .values(owner=None, lease_until=None)
        )
    stores = [LiveTableStore(engine, "a"), LiveTableStore(engine, "b")]
    start = threading.Barrier(2)
    taken: dict[str, list[str]] = {}

    def begin(store: LiveTableStore) -> None:
        start.wait()
        taken[store.owner] = [t.code for t in store.open_tables() if t.code in codes]

    threads = [threading.Thread(target=begin, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(taken["a"] + taken["b"]) == sorted(codes)  # each exactly once
