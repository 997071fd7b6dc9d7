"""Reaction-time model (bots): a distribution per level, ordered by skill."""

import math
import random
import statistics

import pytest

from ligretto.bots.timing import LEVELS, Level, ReactionModel, reaction_model, standard_normal


def test_levels_are_ordered_from_slow_to_fast() -> None:
    order = [Level.EASY, Level.MEDIUM, Level.HARD, Level.EXPERT]
    plays = [LEVELS[lv].mean_play for lv in order]
    turns = [LEVELS[lv].mean_turn for lv in order]
    assert plays == sorted(plays, reverse=True)
    assert turns == sorted(turns, reverse=True)


def test_times_are_positive_variable_and_have_the_stated_median() -> None:
    model = reaction_model("medium")
    rng = random.Random(1)
    notices = [model.notice(rng) for _ in range(4000)]
    assert min(notices) > 0
    assert len(set(notices)) > 1000  # a distribution, not a constant
    assert statistics.median(notices) == pytest.approx(model.notice_median, rel=0.05)
    turns = [model.turn(rng) for _ in range(4000)]
    assert statistics.fmean(turns) == pytest.approx(model.mean_turn, rel=0.05)
    # right-skewed, as human reaction times are
    assert statistics.fmean(turns) > statistics.median(turns)


def test_same_rng_seed_gives_same_times() -> None:
    model = reaction_model(Level.HARD)
    a = [model.play(random.Random(5)) for _ in range(3)]
    b = [model.play(random.Random(5)) for _ in range(3)]
    assert a == b


def test_unknown_level_and_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'godlike'"):
        reaction_model("godlike")
    with pytest.raises(ValueError):
        ReactionModel(Level.EASY, notice_median=0, move_median=1, turn_median=1)
    assert math.isfinite(reaction_model("expert").mean_play)


def test_standard_normal_table_has_the_moments_of_n01() -> None:
    rng = random.Random(3)
    draws = [standard_normal(rng) for _ in range(40_000)]
    assert statistics.fmean(draws) == pytest.approx(0.0, abs=0.02)
    assert statistics.pstdev(draws) == pytest.approx(1.0, abs=0.02)
    assert sum(d > 1.96 for d in draws) / len(draws) == pytest.approx(0.025, abs=0.004)
