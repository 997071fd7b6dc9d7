"""Every finished online round is kept and replays exactly (docs/online-play.md, Replays).

Seeded tables of bots play whole games into a database; each kept round
is rebuilt with ``Round.replay`` from its record alone and must end as
the table scored it on its Tafel game (R5, T2/T3).
"""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select

from helpers.live_table import settled
from helpers.live_wire import FAST
from ligretto.live.clock import ManualClock
from ligretto.live.connection import Connection
from ligretto.live.protocol import Join, Move
from ligretto.live.registry import TableRegistry
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.scoring.tafel import TafelScoreKeeper
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.rules.replay_file import read_replay, replay_round
from ligretto.store import TafelService
from ligretto.store.live_tables import LiveTableStore
from ligretto.store.models import RoundReplayRow
from ligretto.store.round_replays import RoundReplays

BOTS = [
    BotSpec(None, "stack-first", "hard"),
    BotSpec(None, "greedy", "medium"),
    BotSpec(None, "random", "easy"),
    BotSpec(None, "watchful", "expert"),
]
QUICK = dataclasses.replace(FAST, between_rounds=0.01)


async def wait_for(condition: Any, seconds: float = 120.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table did not get there")


async def bot_game(registry: TableRegistry, seed: int, rounds: int = 2) -> tuple[Table, Any]:
    """Four bots play a game of ``rounds`` rounds; the host watches (a table
    nobody is connected to pauses its bots)."""
    table = registry.create(
        seats=4,
        options=RuleOptions(),
        end=EndCondition("rounds", rounds=rounds),
        bots=BOTS,
        settings=dataclasses.replace(QUICK, seed=seed),
    )
    host = Connection()
    table.submit(host, Join(type="join", host_token=table.host_token))
    table.call(table.begin_game)
    await wait_for(lambda: table.phase == "game_over")
    last = table.state.round.dealt
    assert last is not None
    return table, last.snapshot()


@pytest.mark.parametrize("seed", [11, 12])
def test_r5_every_finished_round_is_kept_and_replays_to_what_the_table_scored(
    engine: Engine, seed: int
) -> None:
    service = TafelService(engine)

    async def scenario() -> tuple[str, str, dict[str, Any]]:
        registry = TableRegistry(
            scorekeeper=TafelScoreKeeper(service), settings=QUICK, store=LiveTableStore(engine)
        )
        table, last = await bot_game(registry, seed)
        game_id = table.state.game.tafel_game
        assert game_id is not None
        await registry.stop()  # the journal writes what is left
        return table.code, game_id, last

    code, game_id, last = asyncio.run(scenario())
    replays = RoundReplays(engine)
    assert replays.numbers(code) == [1, 2]
    scored = service.get_game(game_id).game.rounds
    for n in (1, 2):
        data = replays.get(code, n)
        assert data is not None
        assert (data["table"], data["round"], data["game_round"]) == (code, n, n)
        assert data["tafel_game"] == game_id
        assert [s["bot"] for s in data["seats"]] == [
            {"strategy": b.strategy, "level": b.level} for b in BOTS
        ]
        rnd = replay_round(data)
        assert rnd.is_over
        result = rnd.result()
        assert result.to_dict() == data["result"]
        # What the table scored on its Tafel game (T2, T3), and its points (R5).
        assert tuple(s.stack for s in result.seats) == scored[n - 1].stacks
        assert tuple(s.middle for s in result.seats) == scored[n - 1].middle
        assert tuple(s.points for s in result.seats) == scored[n - 1].points
        times = read_replay(data).times
        assert list(times) == sorted(times) and len(times) == len(rnd.log) > 0
    # The last round's whole state, card for card.
    last_data = replays.get(code, 2)
    assert last_data is not None
    assert replay_round(last_data).snapshot() == last


def test_a_round_being_played_has_no_replay_and_a_restart_keeps_its_times(
    engine: Engine,
) -> None:
    """A restored round's actions keep their play times; the round is kept
    once it finishes after the restart, with the times going on."""
    store = LiveTableStore(engine)

    async def before() -> tuple[str, list[int]]:
        clock = ManualClock()  # the bot moves only when the test moves time
        registry = TableRegistry(settings=dataclasses.replace(QUICK, clock=clock), store=store)
        table = registry.create(
            seats=2, options=RuleOptions(), end=EndCondition(), host_name="Anna", bots=BOTS[:1]
        )
        anna = Connection()
        table.submit(anna, Join(type="join", host_token=table.host_token))
        table.call(table.begin_game)
        await settled(table)
        clock.advance()  # "Ligretto!"
        await settled(table)
        assert table.phase == "playing"
        for _ in range(3):
            clock.advance(0.05)
            await settled(table)
            assert table.round is not None
            action = table.round.legal_actions(0)[0]
            table.submit(anna, Move(type="move", action=str(action)))
            await settled(table)
        assert table.round is not None and not table.round.is_over
        times = list(table.state.round.times)
        await registry.stop()
        return table.code, times

    code, times = asyncio.run(before())
    assert len(times) >= 3 and times == sorted(times) and times[-1] >= 150
    assert RoundReplays(engine).get(code, 1) is None  # still being played

    async def after() -> list[int]:
        # The scores stay up: the round read below is the one that finished.
        settings = dataclasses.replace(QUICK, between_rounds=60.0)
        registry = TableRegistry(settings=settings, store=store)
        await registry.restore()
        table = registry.get(code)
        assert table is not None
        assert table.state.round.times == times
        # A watcher: the bots play on, and a stand-in for Anna, who stays away.
        table.submit(Connection(), Join(type="join"))
        await wait_for(lambda: table.phase in ("round_over", "game_over"))
        await registry.stop()
        return list(table.state.round.times)

    finished = asyncio.run(after())
    data = RoundReplays(engine).get(code, 1)
    assert data is not None
    assert [a["t_ms"] for a in data["actions"]] == finished
    assert finished[: len(times)] == times
    assert len(finished) > len(times) and min(finished[len(times) :]) >= times[-1]


def test_r3_a_play_that_lost_a_race_is_kept_with_the_faster_seat_and_the_margin() -> None:
    from helpers.live_wire import race_position

    async def scenario() -> list[dict[str, Any]]:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, bot_pace=0.05, dealer=race_position, clock=clock)
        table = Table(
            "RACE",
            seats=2,
            options=RuleOptions(),
            end=EndCondition(),
            host_token="host-token",
            host_name="Anna",
            bots=[BotSpec(1, "greedy", "expert")],
            settings=settings,
        )
        table.start_task()
        anna = Connection()
        table.submit(anna, Join(type="join", host_token="host-token"))
        table.call(table.begin_game)
        await settled(table)
        clock.advance()  # "Ligretto!"
        await settled(table)
        clock.advance(0.01)
        # The bot wants R2 onto pile 0 as well; Anna is there first.
        table.submit(anna, Move(type="move", action="play R2 row0 p0", ref=1))
        await settled(table)
        for _ in range(1000):
            if table.state.round.races:
                break
            clock.advance(0.01)
            await settled(table)
        races = list(table.state.round.races)
        await table.stop()
        return races

    races = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert len(races) == 1
    race = races[0]
    assert (race["seat"], race["action"], race["refused_by_seat"]) == (1, "play R2 row0 p0", 0)
    assert 0 <= int(race["margin_ms"]) <= 2000
    assert int(race["t_ms"]) >= 10


def test_retention_deletes_rounds_of_deleted_games_and_past_the_age(engine: Engine) -> None:
    replays = RoundReplays(engine)
    now = datetime.now(UTC)
    game = TafelService(engine).create_game(["Anna", "Ben"]).stored.id
    with engine.begin() as conn:
        rows = [
            {"code": "KEEPME", "n": 1, "tafel_game": game, "finished_at": now, "data": "{}"},
            {"code": "NOGAME", "n": 1, "tafel_game": "gone", "finished_at": now, "data": "{}"},
            {"code": "NOLINK", "n": 1, "tafel_game": None, "finished_at": now, "data": "{}"},
            {
                "code": "OLDONE",
                "n": 1,
                "tafel_game": None,
                "finished_at": now - timedelta(days=40),
                "data": "{}",
            },
        ]
        conn.execute(insert(RoundReplayRow), rows)

    def codes() -> set[str]:
        with engine.connect() as conn:
            return set(conn.execute(select(RoundReplayRow.code)).scalars()) & {
                r["code"] for r in rows
            }

    assert replays.purge("forever") == 0
    replays.purge("game", now=now)
    assert codes() == {"KEEPME", "NOLINK", "OLDONE"}
    replays.purge("forever", max_days=30, now=now)
    assert "OLDONE" not in codes() and "NOLINK" in codes()


def test_with_replays_off_the_journal_keeps_no_round() -> None:
    from ligretto.live.journal import Journal
    from ligretto.store.round_replays import KeptRound

    class Writer:
        def write(self, *args: Any) -> None:
            raise AssertionError("nothing to write")

    journal = Journal(Writer(), keep_rounds=False)
    journal.round(KeptRound("ABCDEF", 1, None, datetime.now(UTC), {}))
    assert journal.pending == 0


def test_the_retention_settings_are_checked() -> None:
    from pydantic import ValidationError

    from ligretto.web.settings import Settings

    assert (Settings().replays, Settings().replay_max_days) == ("game", 0.0)
    with pytest.raises(ValidationError):
        Settings(replays="sometimes")
    with pytest.raises(ValidationError):
        Settings(replay_max_days=-1)
