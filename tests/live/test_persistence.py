"""Tables in the database: written in batches, restored exactly (issue: tables
outlive the server).

In-process: a registry with a store plays, stops (or "crashes": its tasks
are cancelled without the final flush), and a second registry on the same
database restores the tables.  The process-level tests (SIGTERM, SIGKILL)
are in ``test_restart_process.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from helpers.live_table import settled
from helpers.live_wire import FAST
from ligretto.live.clock import ManualClock
from ligretto.live.connection import Connection
from ligretto.live.journal import Journal
from ligretto.live.persistence import table_state
from ligretto.live.protocol import Join, Move, Stuck
from ligretto.live.registry import TableRegistry
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.scoring.tafel import TafelScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.settings import TableSettings
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.store import TafelService, make_engine, migrate
from ligretto.store.live_tables import LiveTableStore


@pytest.fixture
def stores(tmp_path: Path) -> tuple[TafelScoreKeeper, LiveTableStore]:
    engine = make_engine(f"sqlite:///{tmp_path / 'tafel.db'}")
    migrate(engine)
    return TafelScoreKeeper(TafelService(engine)), LiveTableStore(engine)


def drain(conn: Connection) -> list[dict[str, Any]]:
    """Every message queued for ``conn`` so far, parsed."""
    out: list[dict[str, Any]] = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if isinstance(text, str):  # a connection without a transport: all queued
            out.append(json.loads(text))
    return out


def last_view(messages: list[dict[str, Any]]) -> dict[str, Any]:
    views = [m for m in messages if m["type"] in ("view", "events")]
    assert views, "no view arrived"
    return views[-1]


async def play_moves(table: Table, conn: Connection, count: int) -> int:
    """``conn``'s person makes up to ``count`` legal moves (plays first)."""
    made = 0
    for _ in range(count):
        await settled(table)
        assert table.round is not None and conn.seat is not None
        if table.round.is_over:
            break
        legal = table.round.legal_actions(conn.seat)
        plays = [a for a in legal if str(a).startswith("play")]
        action = (plays or legal)[0]
        table.submit(conn, Move(type="move", action=str(action)))
        made += 1
    await settled(table)
    return made


async def two_people_and_a_bot(
    registry: TableRegistry,
) -> tuple[Table, Connection, Connection, dict[int, str]]:
    """Anna (host) and Ben at a table with a slow bot; the round is on."""
    table = registry.create(
        seats=3,
        options=RuleOptions(),
        end=EndCondition("rounds", rounds=2),
        host_name="Anna",
        bots=[BotSpec(2, "greedy", "easy")],
    )
    anna, ben = Connection(), Connection()
    table.submit(anna, Join(type="join", host_token=table.host_token))
    table.submit(ben, Join(type="join", name="Ben"))
    await settled(table)
    tokens = {}
    for conn in (anna, ben):
        welcome = next(m for m in drain(conn) if m["type"] == "welcome")
        tokens[welcome["seat"]] = welcome["token"]
    table.call(table.begin_game)
    for _ in range(200):
        await asyncio.sleep(0.01)
        if table.phase == "playing":
            break
    assert table.phase == "playing"
    return table, anna, ben, tokens


SLOW_BOT = dataclasses.replace(FAST, bot_pace=1000.0, between_rounds=0.05)


def test_a_stopped_table_comes_back_with_its_code_seats_tokens_and_cards(
    stores: tuple[TafelScoreKeeper, LiveTableStore],
) -> None:
    tafel, store = stores

    async def before() -> tuple[str, dict[int, str], dict[int, dict[str, Any]], int, Any]:
        registry = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
        table, anna, ben, tokens = await two_people_and_a_bot(registry)
        assert await play_moves(table, anna, 4) == 4
        await play_moves(table, ben, 3)
        seen = {0: last_view(drain(anna)), 1: last_view(drain(ben))}
        assert table.round is not None
        snapshot = table.round.snapshot()
        tokens[-1] = table.host_token
        await registry.stop()  # a graceful stop: everything is written
        return table.code, tokens, seen, table.seq, snapshot

    code, tokens, seen, seq, snapshot = asyncio.run(before())

    async def after() -> None:
        registry = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
        assert await registry.restore() == [code]
        table = registry.get(code)
        assert table is not None and table.phase == "countdown" and table.state.round.resuming
        assert table.seq == seq
        assert table.round is not None and table.round.snapshot() == snapshot
        # The old host token is unknown to this process; the seat tokens work.
        with pytest.raises(LookupError):
            _ = table.host_token
        anna, ben = Connection(), Connection()
        table.submit(anna, Join(type="join", token=tokens[0], host_token=tokens[-1]))
        table.submit(ben, Join(type="join", token=tokens[1]))
        await settled(table)
        for conn, seat in ((anna, 0), (ben, 1)):
            messages = drain(conn)
            welcome = next(m for m in messages if m["type"] == "welcome")
            assert welcome["seat"] == seat and welcome["host"] == (seat == 0)
            view = next(m for m in messages if m["type"] == "view")
            assert (view["seq"], view["view"]) == (seen[seat]["seq"], seen[seat]["view"])
            countdown = next(m for m in messages if m["type"] == "countdown")
            assert countdown["resume"] is True
        # "Resuming… 3 2 1", then play goes on.
        for _ in range(200):
            await asyncio.sleep(0.01)
            if table.phase == "playing":
                break
        assert table.phase == "playing" and not table.state.round.resuming
        assert await play_moves(table, anna, 2) == 2
        await registry.stop()

    asyncio.run(after())


def test_a_crash_loses_at_most_what_came_after_the_last_batch(
    stores: tuple[TafelScoreKeeper, LiveTableStore],
) -> None:
    """A journal that writes only when told: flush at move k, play on,
    then the process "dies" (no final flush). The restored round is the
    round after move k exactly — nothing written is lost, nothing after
    the last batch comes back half."""
    tafel, store = stores

    async def crash() -> tuple[str, dict[str, Any], int]:
        registry = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
        assert registry.journal is not None
        registry.journal.interval = 3600.0  # no batch but the ones asked for
        table, anna, _ben, _ = await two_people_and_a_bot(registry)
        await play_moves(table, anna, 5)
        await registry.journal.flush()
        assert table.round is not None
        written = table.round.snapshot(), table.seq
        await play_moves(table, anna, 3)
        assert table.seq > written[1]
        # Crash: every task just stops; nothing more reaches the database.
        registry.journal._closed = True
        for t in registry._tables.values():
            assert t.task is not None
            t.task.cancel()
        return table.code, written[0], written[1]

    code, snapshot, seq = asyncio.run(crash())

    async def after() -> None:
        registry = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
        assert await registry.restore() == [code]
        table = registry.get(code)
        assert table is not None and table.round is not None
        assert (table.round.snapshot(), table.seq) == (snapshot, seq)
        await registry.stop()

    asyncio.run(after())


async def stopped_after_two_moves(tafel: TafelScoreKeeper, store: LiveTableStore) -> None:
    """A table with two moves played, stopped: what the store keeps of it."""
    registry = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
    table, anna, _ben, _ = await two_people_and_a_bot(registry)
    await play_moves(table, anna, 2)
    await registry.stop()


def test_a_table_that_cannot_be_rebuilt_is_closed_with_its_reason(
    stores: tuple[TafelScoreKeeper, LiveTableStore],
) -> None:
    tafel, store = stores

    async def scenario() -> None:
        await stopped_after_two_moves(tafel, store)
        # A state stored by another version of the table.
        bad = store.open_tables()[0]
        store.write({bad.code: {**bad.state, "format": 99}}, [])
        again = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
        assert await again.restore() == []
        assert await again.closed_reason(bad.code) == "incompatible"
        await again.stop()
        assert store.open_tables() == []
        assert store.closed_reason(bad.code) == "incompatible"
        # Its Tafel game is still there.
        game_id = bad.state["tafel_game"]
        assert game_id is not None and tafel.service.get_game(game_id).game is not None

    asyncio.run(scenario())


def test_an_action_log_the_engine_refuses_closes_the_table(
    stores: tuple[TafelScoreKeeper, LiveTableStore],
) -> None:
    tafel, store = stores

    async def scenario() -> None:
        await stopped_after_two_moves(tafel, store)
        stored = store.open_tables()[0]
        first = stored.actions[0]
        # An action that names a card no deck has: the engine refuses the log.
        store.write(
            {stored.code: stored.state},
            [dataclasses.replace(first, index=len(stored.actions), action="play Z9 from stack")],
        )
        again = TableRegistry(scorekeeper=tafel, settings=SLOW_BOT, store=store)
        assert await again.restore() == []
        assert await again.closed_reason(stored.code) == "incompatible"
        await again.stop()

    asyncio.run(scenario())


def test_a_lobby_comes_back_as_a_lobby_and_a_finished_game_as_finished(
    stores: tuple[TafelScoreKeeper, LiveTableStore],
) -> None:
    tafel, store = stores

    async def scenario() -> None:
        registry = TableRegistry(scorekeeper=tafel, settings=FAST, store=store)
        lobby = registry.create(
            seats=3, options=RuleOptions(), end=EndCondition(), host_name="Anna"
        )
        host_token = lobby.host_token
        done = registry.create(
            seats=2,
            options=RuleOptions(),
            end=EndCondition("rounds", rounds=1),
            bots=[BotSpec(None, "greedy", "expert"), BotSpec(None, "greedy", "expert")],
        )
        watcher = Connection()
        done.submit(watcher, Join(type="join"))
        done.call(done.begin_game)
        for _ in range(1000):
            await asyncio.sleep(0.01)
            if done.phase == "game_over":
                break
        assert done.phase == "game_over" and done.tafel_game is not None
        await registry.stop()
        again = TableRegistry(scorekeeper=tafel, settings=FAST, store=store)
        assert sorted(await again.restore()) == sorted([lobby.code, done.code])
        back = again.get(lobby.code)
        assert back is not None and back.phase == "lobby"
        assert [s.kind for s in back.seats] == ["human", "empty", "empty"]
        host = Connection()
        back.submit(host, Join(type="join", host_token=host_token))
        await settled(back)
        welcome = next(m for m in drain(host) if m["type"] == "welcome")
        assert welcome["host"] is True and welcome["seat"] == 0
        assert welcome["host_token"] == host_token
        over = again.get(done.code)
        assert over is not None and over.phase == "game_over"
        assert over.tafel_game == done.tafel_game
        game = tafel.service.get_game(done.tafel_game).game
        assert game.complete_rounds == 1  # not recorded twice
        await again.stop()

    asyncio.run(scenario())


def test_a_round_that_ended_before_the_tafel_answered_is_recorded_once(
    stores: tuple[TafelScoreKeeper, LiveTableStore],
) -> None:
    """The process stopped after the last move but before the table noted
    the Tafel's answer: the restored table records the round, and a round
    the Tafel already holds is not written twice."""
    tafel, store = stores
    # The round-over pause outlasts the test: a short one could end before
    # the phase is read on a busy machine, and the next round start.
    settings = dataclasses.replace(SLOW_BOT, between_rounds=30.0)

    async def scenario() -> None:
        registry = TableRegistry(scorekeeper=tafel, settings=settings, store=store)
        table, anna, _ben, _ = await two_people_and_a_bot(registry)
        await play_moves(table, anna, 1)
        # The round ends by agreement (R4 stall) and is recorded...
        table.call(table.stall.settle)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if table.state.game.recorded_round == 1:
                break
        assert table.tafel_game is not None and table.state.game.recorded_round == 1
        state = table_state(table.state)
        await registry.stop()
        # ...but the stored state is the one from before the Tafel answered.
        store.write(
            {table.code: {**state, "phase": "playing", "recorded": 0, "tafel_rounds": 0}}, []
        )
        again = TableRegistry(scorekeeper=tafel, settings=settings, store=store)
        await again.restore()
        back = again.get(table.code)
        assert back is not None
        for _ in range(200):
            await asyncio.sleep(0.01)
            if back.state.game.recorded_round == 1:
                break
        assert back.phase == "round_over" and back.state.game.tafel_rounds == 1
        assert tafel.service.get_game(table.tafel_game).game.complete_rounds == 1
        await again.stop()

    asyncio.run(scenario())


# ----------------------------------------------------------------------
# R4 stall guard
# ----------------------------------------------------------------------


def stall_table(clock: ManualClock) -> tuple[TableRegistry, Table]:
    settings = TableSettings(
        countdown=0.0, between_rounds=5.0, bot_pace=1000.0, clock=clock, stall_after=30.0, seed=3
    )
    registry = TableRegistry(settings=settings)
    table = registry.create(seats=2, options=RuleOptions(), end=EndCondition(), host_name="Anna")
    return registry, table


async def run_for(table: Table, clock: ManualClock, seconds: float, step: float = 1.0) -> None:
    for _ in range(round(seconds / step)):
        clock.advance(step)
        await settled(table)


def test_people_who_agree_they_are_stuck_end_the_round_as_a_deadlock() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        registry, table = stall_table(clock)
        anna, ben = Connection(), Connection()
        table.submit(anna, Join(type="join", host_token=table.host_token))
        table.submit(ben, Join(type="join", name="Ben"))
        table.call(table.begin_game)
        await settled(table)
        await run_for(table, clock, 1.0)
        assert table.phase == "playing"
        # Too early: nobody is offered anything, and agreeing is refused.
        table.submit(anna, Stuck(type="stuck"))
        await settled(table)
        refused = [m for m in drain(anna) if m["type"] == "refused"]
        assert refused and refused[-1]["code"] == "not_stuck"
        await run_for(table, clock, 31.0)
        offers = [m["table"] for m in drain(ben) if m["type"] == "table"]
        assert offers and offers[-1]["stuck_offered"] is True
        table.submit(anna, Stuck(type="stuck"))
        await settled(table)
        assert table.phase == "playing" and table.state.round.stuck_agreed == {0}
        table.submit(ben, Stuck(type="stuck"))
        await settled(table)
        assert table.phase in ("round_over", "game_over")
        assert table.round is not None and table.round.result().termination == "deadlock"
        assert table.round.log[-1] == (None, table.round.log[-1][1])
        await registry.stop()

    asyncio.run(scenario())


def test_a_card_to_the_middle_withdraws_the_offer() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        registry, table = stall_table(clock)
        anna, ben = Connection(), Connection()
        table.submit(anna, Join(type="join", host_token=table.host_token))
        table.submit(ben, Join(type="join", name="Ben"))
        table.call(table.begin_game)
        await settled(table)
        await run_for(table, clock, 32.0)
        assert table.state.round.stuck_offered
        assert table.round is not None
        plays = [
            (conn, a)
            for conn, seat in ((anna, 0), (ben, 1))
            for a in table.round.legal_actions(seat)
            if str(a).startswith("play")
        ]
        assert plays, "the deal of seed 3 has a card for the middle"
        table.submit(plays[0][0], Move(type="move", action=str(plays[0][1])))
        await settled(table)
        assert not table.state.round.stuck_offered and table.phase == "playing"
        await registry.stop()

    asyncio.run(scenario())


def test_a_table_with_no_person_present_decides_by_itself() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        registry, table = stall_table(clock)
        anna, ben, watcher = Connection(), Connection(), Connection()
        table.submit(anna, Join(type="join", host_token=table.host_token))
        table.submit(ben, Join(type="join", name="Ben"))
        table.call(table.begin_game)
        await settled(table)
        await run_for(table, clock, 1.0)
        # Both people leave and stay away; a watcher stays. Their stand-ins
        # (very slow here) play no card to the middle.
        table.submit(watcher, Join(type="join"))
        table.left(anna)
        table.left(ben)
        await run_for(table, clock, 33.0)
        assert all(s.away for s in table.seats)
        assert table.phase in ("round_over", "game_over")
        assert table.round is not None and table.round.result().termination == "deadlock"
        await registry.stop()

    asyncio.run(scenario())


def test_the_journal_keeps_a_batch_whose_write_failed() -> None:
    class Flaky:
        def __init__(self) -> None:
            self.calls = 0
            self.written: list[Any] = []

        def write(self, states: Any, actions: Any, closes: Any = None, rounds: Any = ()) -> None:
            self.calls += 1
            if self.calls == 1:
                raise OSError("the database is away")
            self.written.append((dict(states), list(actions), dict(closes or {})))

    async def scenario() -> None:
        flaky = Flaky()
        journal = Journal(flaky, interval=3600.0)
        journal.changed("ABC", lambda: {"round_no": 1})
        with pytest.raises(OSError):
            await journal.flush()
        assert journal.pending == 1 and journal.failures == 1
        journal.closed("XYZ", "idle")
        await journal.flush()
        assert flaky.written == [({"ABC": {"round_no": 1}}, [], {"XYZ": "idle"})]
        await journal.close()

    asyncio.run(scenario())


def test_replay_of_the_stored_log_is_the_round() -> None:
    # What restore relies on: seed + actions (text) rebuild the round exactly.
    rnd = Round.deal(3, 99)
    for _ in range(40):
        seat = len(rnd.log) % 3
        legal = rnd.legal_actions(seat)
        if rnd.is_over or not legal:
            break
        rnd.apply(seat, legal[0])
    again = Round.replay(3, 99, None, [(s, str(a)) for s, a in rnd.log])
    assert again.snapshot() == rnd.snapshot()
