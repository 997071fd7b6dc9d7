"""A chunk played within its budget of simulated actions, and stopped by its study's signal."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator

import pytest

from ligretto.rules import RuleOptions
from ligretto.sim.report import RoundRecord
from ligretto.simulate.budget import BudgetedChunk, StopSignals, init_worker, play_chunk
from ligretto.simulate.run import GameSettings, SimConfig, play_rounds

CONFIG = SimConfig.from_names(["stack-first:medium", "greedy:medium"] * 2, seed=3)


@pytest.fixture
def signals() -> Iterator[StopSignals]:
    made = StopSignals(multiprocessing.get_context(), 2)
    init_worker(made.counters)  # this process reads them as a worker would
    yield made
    init_worker(None)


def test_a_chunk_within_its_budget_plays_what_the_command_plays() -> None:
    outcome = play_chunk(BudgetedChunk(CONFIG, range(5, 25), budget=10**9))
    assert not outcome.stopped
    assert list(outcome.records) == play_rounds((CONFIG, range(5, 25)))
    rounds = [r for r in outcome.records if isinstance(r, RoundRecord)]
    assert len(rounds) == 20
    assert outcome.actions == sum(outcome.costs) == sum(sum(r.actions) for r in rounds)


def test_a_chunk_stops_at_the_round_that_passes_its_budget() -> None:
    everything = play_chunk(BudgetedChunk(CONFIG, range(20), budget=10**9))
    budget = sum(everything.costs[:7]) + everything.costs[7] // 2
    outcome = play_chunk(BudgetedChunk(CONFIG, range(20), budget=budget))
    assert outcome.stopped
    assert outcome.records == everything.records[:7]
    assert outcome.actions == sum(everything.costs[:8])  # the round that passed it, counted


def test_a_game_stops_in_its_round_that_passes_the_budget() -> None:
    config = SimConfig.from_names(["random:easy"] * 16, seed=1, options=RuleOptions(deck="cards"))
    outcome = play_chunk(BudgetedChunk(config, range(3), budget=100_000, settings=GameSettings()))
    assert outcome.stopped and outcome.records == ()
    assert 100_000 < outcome.actions < 100_000 + 20_000  # one round past it at most


def test_a_chunk_stops_when_its_study_is_stopped(signals: StopSignals) -> None:
    generation = signals.begin(1)
    chunk = BudgetedChunk(CONFIG, range(10), budget=10**9, slot=1, generation=generation)
    assert not play_chunk(chunk).stopped
    signals.stop(1)
    outcome = play_chunk(chunk)
    assert outcome.stopped and outcome.records == () and outcome.actions == 0
    # the other slot's study plays on
    other = BudgetedChunk(CONFIG, range(3), budget=10**9, slot=0, generation=signals.begin(0))
    assert not play_chunk(other).stopped
