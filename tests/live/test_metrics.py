"""What online play counts for ``/metrics``: people's moves and their answers, the journal."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import pytest

from helpers.live_table import settled
from helpers.live_wire import FAST
from helpers.metrics import value
from ligretto.live.clock import ManualClock
from ligretto.live.connection import Connection
from ligretto.live.journal import Journal
from ligretto.live.protocol import Join, Move, Ping
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table
from ligretto.metrics.moves import MOVES
from ligretto.metrics.series import MOVE_ANSWER_BUCKETS
from ligretto.rules.options import RuleOptions
from ligretto.store.live_tables import StoredAction


class Outbox(Connection):
    """A connection that keeps what it was sent, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


def test_a_move_is_counted_when_it_reaches_the_table_and_when_it_is_answered() -> None:
    """Received at the table's door, answered once its answer is queued, and
    the time between goes to the histogram (here the 3 ms the actor spent on
    the command before it); a bot's move and a ping count as neither."""

    async def scenario() -> None:
        clock = ManualClock()
        settings = dataclasses.replace(FAST, clock=clock)
        table = Table(
            "COUNT",
            seats=2,
            options=RuleOptions(),
            end=EndCondition(),
            host_token="host-token-1234",
            host_name="Anna",
            bots=[BotSpec(1, "greedy", "easy")],
            settings=settings,
        )
        anna = Outbox()
        table.start_task()
        table.submit(anna, Join(type="join", token="host-token-1234"))
        await settled(table)
        received, answered = MOVES.received, MOVES.answered
        buckets = list(MOVES.answers.buckets)
        table.call(lambda: clock.advance(0.003))  # the actor is busy for 3 ms first
        table.submit(anna, Move(type="move", action="turn", ref=1))
        assert (MOVES.received, MOVES.answered) == (received + 1, answered)  # queued
        await settled(table)
        assert json.loads(anna.texts[-1])["code"] == "not_started"  # a refusal is an answer
        assert (MOVES.received, MOVES.answered) == (received + 1, answered + 1)
        grew = [new - old for new, old in zip(MOVES.answers.buckets, buckets, strict=True)]
        assert grew[MOVE_ANSWER_BUCKETS.index(0.005)] == 1 and sum(grew) == 1
        table.submit(anna, Ping(type="ping", t=1.0))
        table.call(table.begin_game)
        for _ in range(100):  # the bot plays on its own
            clock.advance(0.05)
            await settled(table)
        assert table.moves_applied > 0
        assert (MOVES.received, MOVES.answered) == (received + 1, answered + 1)
        await table.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


class Writer:
    """Batches go nowhere; the first ``fail`` writes fail."""

    def __init__(self, fail: int = 0) -> None:
        self.fail = fail

    def write(self, states: Any, actions: Any, closes: Any = None, rounds: Any = ()) -> None:
        if self.fail:
            self.fail -= 1
            raise OSError("the database is away")


def _action(index: int) -> StoredAction:
    return StoredAction("ABC", 1, index, 0, "turn", index + 1)


def test_each_batch_of_the_journal_is_observed_with_its_moves_and_its_commit_time() -> None:
    async def scenario() -> None:
        journal = Journal(Writer(fail=1), interval=3600.0)
        count = value("ligretto_journal_batch_actions_count")
        moves = value("ligretto_journal_batch_actions_sum")
        commits = value("ligretto_journal_commit_seconds_count")
        failures = value("ligretto_journal_failures_total")
        for index in range(3):
            journal.action(_action(index))
        with pytest.raises(OSError):
            await journal.flush()
        assert value("ligretto_journal_failures_total") == failures + 1
        assert value("ligretto_journal_commit_seconds_count") == commits  # nothing committed
        journal.action(_action(3))
        await journal.flush()  # the failed batch's moves and the new one, together
        assert value("ligretto_journal_batch_actions_count") == count + 1
        assert value("ligretto_journal_batch_actions_sum") == moves + 4
        assert value("ligretto_journal_commit_seconds_count") == commits + 1
        await journal.close()

    asyncio.run(scenario())
