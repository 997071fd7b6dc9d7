"""Rounds always end: tables of every strategy, with and without row storage.

With row storage (R6) a table can play on without a card going to the
middle while R4 rightly sees no deadlock (a card could still go into a
row). The bots store where it helps, so that is rare; the simulator's stall
guard settles what remains (``Round.settle_stuck``, counted as ``stuck``),
and ``stalled`` — the safety limit — never happens.

The CI run plays 1,000 row-storage and 333 plain rounds per strategy
(2–4 seats, mixed levels, both R4 options), a few seconds each; the
``fast`` profile and the pure pass a quarter of them (``examples``);
``LIGRETTO_STALL_ROUNDS=20000`` plays that many row-storage rounds instead.
"""

from __future__ import annotations

import os
import random
from typing import ClassVar

import pytest

from helpers.profiles import examples
from ligretto.bots import Bot, BotSpec, BotView, Strategy, make_bot, reaction_model, strategy_names
from ligretto.bots.timing import Level
from ligretto.rules import Action, RuleOptions, Store, Termination
from ligretto.sim.engine import RoundLimits, simulate_round
from ligretto.sim.seeds import derive_seed

ROUNDS = int(os.environ.get("LIGRETTO_STALL_ROUNDS", examples(1000)))
PLAIN_ROUNDS = max(1, ROUNDS // 3)


def _table(name: str, rng: random.Random) -> tuple[list[Bot], RuleOptions]:
    players = rng.choice([2, 3, 4])
    bots = [make_bot(name, rng.choice(list(Level))) for _ in range(players)]
    return bots, RuleOptions(deadlock=rng.choice(["end", "reshuffle"]))


def _run(name: str, rounds: int, row_storage: bool) -> tuple[int, int, int]:
    """(rounds that ended, rounds settled by the stall guard, stalled rounds)."""
    rng = random.Random(name)
    ended = stuck = stalled = 0
    for i in range(rounds):
        bots, options = _table(name, rng)
        options = RuleOptions(deadlock=options.deadlock, row_storage=row_storage)
        record = simulate_round(bots, derive_seed(31, i), options, index=i)
        ended += record.termination is not None
        stuck += record.stuck > 0
        stalled += record.stalled
        if record.stuck_ended:
            assert record.termination is Termination.DEADLOCK and record.caller is None
    return ended, stuck, stalled


@pytest.mark.slow
@pytest.mark.parametrize("name", strategy_names())
def test_r6_row_storage_rounds_of_every_strategy_all_end(name: str) -> None:
    ended, stuck, stalled = _run(name, ROUNDS, row_storage=True)
    assert stalled == 0 and ended == ROUNDS
    # the bots store where it helps: the stall guard is a rare backstop
    assert stuck <= ROUNDS // 200, stuck


@pytest.mark.parametrize("name", strategy_names())
def test_r4_rounds_without_row_storage_all_end_by_themselves(name: str) -> None:
    ended, stuck, stalled = _run(name, PLAIN_ROUNDS, row_storage=False)
    assert stalled == 0 and ended == PLAIN_ROUNDS
    # R4 is exact here, the guard only cuts a very long quiet spell short
    assert stuck <= max(1, PLAIN_ROUNDS // 500), stuck


class NeverStores(Strategy):
    """The issue's table: plays the first fitting card, else turns; never stores."""

    name: ClassVar[str] = "never-stores"
    summary: ClassVar[str] = "first fitting card, else refill, turn or recycle; never stores"

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        for action in view.actions:
            if not isinstance(action, Store):
                return action
        return None


def _never_storing(players: int) -> list[Bot]:
    spec = BotSpec("greedy", Level.EXPERT)
    return [Bot(NeverStores(), reaction_model(Level.EXPERT), spec) for _ in range(players)]


def _stalling_seed(options: RuleOptions) -> int:
    """A deal on which the never-storing table stalls (found by search, fixed)."""
    for seed in range(200):
        limits = RoundLimits(stuck_after=60)
        record = simulate_round(_never_storing(2), seed, options, limits=limits)
        if record.stuck:
            return seed
    raise AssertionError("no stalling deal among 200")  # pragma: no cover


@pytest.mark.parametrize("deadlock", ["end", "reshuffle"])
def test_r4_the_stall_guard_settles_a_stalled_table_deterministically(deadlock: str) -> None:
    options = RuleOptions(row_storage=True, deadlock=deadlock)  # type: ignore[arg-type]
    limits = RoundLimits(stuck_after=60)
    seed = _stalling_seed(options)
    record = simulate_round(_never_storing(2), seed, options, limits=limits)
    assert record.stuck >= 1 and not record.stalled
    assert record.termination is not None
    if deadlock == "end":
        assert record.stuck == 1 and record.stuck_ended
        assert record.termination is Termination.DEADLOCK and record.caller is None
    assert simulate_round(_never_storing(2), seed, options, limits=limits) == record
    # without the guard the same table runs into the safety limit
    unguarded = RoundLimits(stuck_after=1e9, max_actions=3000)
    assert simulate_round(_never_storing(2), seed, options, limits=unguarded).stalled


def test_the_stall_guard_time_must_be_positive() -> None:
    with pytest.raises(ValueError, match="stuck_after"):
        RoundLimits(stuck_after=0)
