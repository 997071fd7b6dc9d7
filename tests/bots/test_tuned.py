"""The ``tuned`` strategy: its weights load, it plays legal moves (R3) and is reproducible."""

from __future__ import annotations

import random

import pytest

from helpers.positions import assert_plays_legally, three_sources
from ligretto.bots import Tuned, Weights, get_strategy, make_bot, strategy_names
from ligretto.bots.tuned import TUNED, WATCHFUL_LIKE
from ligretto.rules import Play, RuleOptions, Source
from ligretto.sim.engine import simulate_round


def test_the_shipped_weights_load_and_name_every_feature() -> None:
    strategy = get_strategy("tuned")
    assert isinstance(strategy, Tuned)
    assert strategy.weights == TUNED
    assert "tuned" in strategy_names()
    assert Weights.from_vector(TUNED.vector()) == TUNED
    assert len(TUNED.vector()) == len(Weights.names())
    with pytest.raises(ValueError, match="need 11 weights"):
        Weights.from_vector([1.0, 2.0])


@pytest.mark.parametrize("weights", [TUNED, WATCHFUL_LIKE], ids=["tuned", "watchful-like"])
def test_r3_tuned_picks_a_legal_action_or_waits(weights: Weights) -> None:
    options = [RuleOptions(), RuleOptions(row_refill="manual", row_storage=True)]
    assert_plays_legally(Tuned(weights), options, steps=80)


def test_r7_the_source_weights_order_the_plays() -> None:
    view = three_sources().view(0)
    rng = random.Random(0)
    by_the_book = Tuned(WATCHFUL_LIKE).choose(view, rng)
    assert isinstance(by_the_book, Play) and by_the_book.source is Source.STACK
    backwards = Weights.from_vector(
        [-1.0, 1.0, *WATCHFUL_LIKE.vector()[2:]]  # stack −1, discard +1
    )
    choice = Tuned(backwards).choose(view, rng)
    assert isinstance(choice, Play) and choice.source is Source.DISCARD


def test_a_seed_gives_the_same_round() -> None:
    bots = [make_bot("tuned:medium"), make_bot("watchful:medium")] * 2
    first = simulate_round(bots, 123)
    again = simulate_round([make_bot("tuned:medium"), make_bot("watchful:medium")] * 2, 123)
    assert first == again
    assert sum(first.refused) == 0
