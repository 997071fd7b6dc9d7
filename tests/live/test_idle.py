"""A table nobody is connected to pauses its bots and is removed when idle.

Bot-only tables used to count every bot move as activity, so the idle
reaper never removed them and hundreds of them kept a core busy.  Time
runs on a ``ManualClock`` here: the tests move it instead of sleeping.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from helpers.live_table import settled
from helpers.live_wire import FAST
from ligretto.live.clock import ManualClock
from ligretto.live.connection import Connection
from ligretto.live.protocol import Join
from ligretto.live.registry import TableRegistry
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.scoring.tafel import TafelScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.store import TafelService, make_engine, migrate

IDLE = 600.0
BOTS = [BotSpec(None, s, "expert") for s in ("greedy", "stack-first", "watchful", "random")]


@pytest.fixture
def tafel(tmp_path: Path) -> TafelScoreKeeper:
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    return TafelScoreKeeper(TafelService(engine))


async def run_for(table: Table, clock: ManualClock, seconds: float, step: float = 0.05) -> None:
    """Move the clock ``seconds`` forward in steps, letting the table work."""
    for _ in range(round(seconds / step)):
        clock.advance(step)
        await settled(table)


def bot_table(registry: TableRegistry, clock: ManualClock) -> tuple[Table, Connection]:
    """Four bots and a host who only watches (joined); the game is dealt."""
    table = registry.create(
        seats=4,
        options=RuleOptions(),
        end=EndCondition("rounds", rounds=50),
        bots=BOTS,
    )
    host = Connection()
    table.submit(host, Join(type="join", host_token=table.host_token))
    table.call(table.begin_game)
    return table, host


def test_bots_pause_while_nobody_is_connected_and_go_on_when_someone_comes() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, bot_pace=0.2, clock=clock, idle_after=IDLE)
        registry = TableRegistry(settings=settings)
        table, host = bot_table(registry, clock)
        await run_for(table, clock, 3.0)
        assert table.phase == "playing" and table.moves_applied > 0
        table.left(host)
        await settled(table)
        assert table.paused
        await run_for(table, clock, 0.5)  # moves already on their way are dropped
        paused_at = table.moves_applied
        await run_for(table, clock, 30.0)
        assert table.moves_applied == paused_at
        # No bot keeps a timer going: the paused table costs nothing.
        assert clock.pending == 0
        # A watcher arrives: the bots play on.
        watcher = Connection()
        table.submit(watcher, Join(type="join"))
        await run_for(table, clock, 3.0)
        assert table.moves_applied > paused_at
        await registry.stop()

    asyncio.run(scenario())


def test_a_table_nobody_is_connected_to_is_removed_after_its_idle_time(
    tafel: TafelScoreKeeper,
) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, bot_pace=0.05, clock=clock, idle_after=IDLE)
        registry = TableRegistry(scorekeeper=tafel, settings=settings)
        table, host = bot_table(registry, clock)
        # Play until two rounds are on the Tafel (the board is written in a
        # worker thread: give it real time too).
        for _ in range(20_000):
            if table.round_no >= 3 and table.tafel_game is not None:
                break
            clock.advance(0.05)
            await settled(table)
            await asyncio.sleep(0)
        assert table.tafel_game is not None
        game_id = table.tafel_game
        table.left(host)
        await settled(table)
        while table.state.round.scoring:  # a round on its way to the board arrives first
            await asyncio.sleep(0.01)
        played = len(tafel.service.get_game(game_id).game.rounds)
        assert played >= 2
        # Someone connected keeps a table however long; nobody: idle_after.
        clock.advance(IDLE - 1)
        assert await registry.reap() == []
        assert registry.get(table.code) is table
        clock.advance(1)
        assert await registry.reap() == [table.code]
        assert registry.get(table.code) is None
        assert table._task is not None and table._task.done()
        # The Tafel game keeps every round that was played.
        assert len(tafel.service.get_game(game_id).game.rounds) == played
        await registry.stop()

    asyncio.run(scenario())


def test_a_connected_table_is_never_idle() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, clock=clock, idle_after=IDLE)
        registry = TableRegistry(settings=settings)
        table = registry.create(seats=2, options=RuleOptions(), end=EndCondition())
        watcher = Connection()
        table.submit(watcher, Join(type="join"))
        await settled(table)
        clock.advance(10 * IDLE)
        assert table.idle_for() == 0.0 and await registry.reap() == []
        table.left(watcher)
        await settled(table)
        clock.advance(IDLE)
        assert await registry.reap() == [table.code]
        await registry.stop()

    asyncio.run(scenario())
