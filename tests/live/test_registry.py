"""Tables by code, idle tables stopped; slow clients dropped, not waited for."""

from __future__ import annotations

import asyncio

from ligretto.live.connection import OUTBOX_SIZE, Connection
from ligretto.live.registry import CODE_ALPHABET, CODE_LENGTH, TableRegistry
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions


def test_codes_are_short_unambiguous_and_found_in_any_case() -> None:
    async def scenario() -> None:
        registry = TableRegistry()
        tables = [
            registry.create(seats=2, options=RuleOptions(), end=EndCondition()) for _ in range(20)
        ]
        codes = {t.code for t in tables}
        assert len(codes) == 20
        for code in codes:
            assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
            assert not set(code) & set("01OIL")
            assert registry.get(code.lower()) is registry.get(code) is not None
        assert registry.get("NOSUCH") is None
        await registry.stop()
        assert len(registry) == 0
        assert all(t.task is not None and t.task.done() for t in tables)

    asyncio.run(scenario())


def test_a_table_nobody_touches_is_stopped() -> None:
    async def scenario() -> None:
        registry = TableRegistry(settings=TableSettings(idle_after=0.1))
        table = registry.create(seats=2, options=RuleOptions(), end=EndCondition())
        assert table.task is not None
        # Wait for the reaper (it looks every 0.05 s here), not for a fixed
        # time: on a busy machine the loop may wake late, and the table's
        # task ends a few steps after it left the index.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while registry.get(table.code) is not None:
            assert loop.time() < deadline, "the idle table was never stopped"
            await asyncio.sleep(0.01)
        await asyncio.wait({table.task}, timeout=30)
        assert table.task.done()
        await registry.stop()

    asyncio.run(scenario())


def test_a_client_that_cannot_keep_up_is_marked_and_not_waited_for() -> None:
    async def scenario() -> None:
        conn = Connection()
        for n in range(OUTBOX_SIZE + 10):
            conn.send(f"message {n}")  # never blocks, whatever the client does
        assert conn.overflowed
        assert conn.outbox.qsize() == OUTBOX_SIZE

    asyncio.run(scenario())
