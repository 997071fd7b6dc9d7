"""Hypothesis: with any study options, a seed gives the same report and rounds
with one worker, with two, and on a Dask cluster.

Speeds, overlooking, shuffles between rounds and house rules change what
is played, never that it follows from the seed alone: every round's deal,
decks and bots' draws are derived from the master seed and the round's or
game's index, however the chunks are spread.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.profiles import examples
from ligretto.bots import BotSpec
from ligretto.rules import RuleOptions
from ligretto.sim.decks import ShuffleModel
from ligretto.sim.house import HouseRules
from ligretto.sim.report import RoundRecord
from ligretto.simulate.run import GAME_CHUNK, ROUND_CHUNK, GameSettings, SimConfig, simulate
from ligretto.tafel import Mode

distributed = pytest.importorskip("distributed")

BOTS = ("stack-first:medium", "greedy:hard", "watchful:easy", "random:medium")
SHUFFLES = ("uniform", "none", "riffle:1", "riffle:3", "perfect:1")


@st.composite
def studies(draw: st.DrawFn) -> tuple[SimConfig, int, int]:
    seats = draw(st.integers(2, 4))
    bots = tuple(BotSpec.parse(draw(st.sampled_from(BOTS))) for _ in range(seats))
    speeds: tuple[float, ...] = ()
    if draw(st.booleans()):
        speeds = tuple(draw(st.sampled_from([0.5, 1.0, 1.5, 3.0])) for _ in range(seats))
    overlook: tuple[float, ...] = ()
    if draw(st.booleans()):
        overlook = tuple(draw(st.sampled_from([0.0, 0.1, 0.5])) for _ in range(seats))
    shuffles = tuple(ShuffleModel.parse(draw(st.sampled_from(SHUFFLES))) for _ in range(seats))
    house = HouseRules(sets=draw(st.integers(1, 2)), stack_penalty=draw(st.integers(0, 3)))
    options = RuleOptions(
        recycle_shuffle=draw(st.booleans()), deadlock=draw(st.sampled_from(["end", "reshuffle"]))
    )
    config = SimConfig(
        bots,
        seed=draw(st.integers(0, 2**40)),
        options=options,
        speeds=speeds,
        overlook=overlook,
        shuffles=shuffles,
        house=house,
    )
    games = config.carries_decks or draw(st.booleans())
    # more than one chunk, so that two workers share the work
    if games:
        return config, 0, draw(st.integers(GAME_CHUNK + 1, 2 * GAME_CHUNK))
    return config, draw(st.integers(ROUND_CHUNK + 1, ROUND_CHUNK + 60)), 0


def _run(config: SimConfig, rounds: int, games: int, **where: Any) -> tuple[Any, list[Any]]:
    seen: list[tuple[RoundRecord, int | None]] = []
    report = simulate(
        config,
        rounds=rounds,
        games=games,
        settings=GameSettings(Mode.ROUNDS, agreed_rounds=2),
        on_round=lambda record, game: seen.append((record, game)),
        **where,
    )
    return report.to_dict(), seen


@given(study=studies())
@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_a_seed_gives_the_same_study_on_one_worker_two_and_a_cluster(
    scheduler: str, study: tuple[SimConfig, int, int]
) -> None:
    config, rounds, games = study
    one = _run(config, rounds, games, workers=1)
    assert one == _run(config, rounds, games, workers=2)
    assert one == _run(config, rounds, games, cluster=scheduler)
    report, seen = one
    assert report["rounds"] == len(seen) == (rounds or 2 * games)
