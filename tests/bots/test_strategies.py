"""Bot strategies: each picks a legal action from its seat's view (R3, R7)."""

from __future__ import annotations

import random

import pytest

from helpers.positions import QUIET, assert_plays_legally, position, three_sources
from ligretto.bots import BotSpec, Level, get_strategy, make_bot, strategy_names
from ligretto.bots.strategies import STRATEGIES
from ligretto.rules import TURN, Play, Refill, RuleOptions, Source, Store


def test_registry_has_the_required_strategies_and_the_alias() -> None:
    names = strategy_names()
    for name in ("random", "greedy", "stack-first", "watchful"):
        assert name in names
    assert "mine" not in names  # an alias, not a second strategy
    assert get_strategy("mine").name == "watchful"
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        get_strategy("best")


def test_bot_spec_parses_strategy_and_level() -> None:
    spec = BotSpec.parse("stack-first:expert")
    assert (spec.strategy, spec.level) == ("stack-first", Level.EXPERT)
    assert str(BotSpec.parse("greedy")) == "greedy:medium"
    with pytest.raises(ValueError):
        BotSpec.parse("greedy:superhuman")
    assert repr(make_bot("random", "easy")) == "<bot random:easy>"


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_strategy_picks_a_legal_action_or_waits(name: str) -> None:
    options = [RuleOptions(row_refill="manual", row_storage=True)]
    assert_plays_legally(get_strategy(name), options, steps=60)


def test_r7_stack_first_plays_the_stack_top_before_row_and_discard() -> None:
    view = three_sources().view(0)
    sources = {a.source for a in view.plays}
    assert sources == {Source.STACK, Source.ROW, Source.DISCARD}
    choice = get_strategy("stack-first").choose(view, random.Random(0))
    assert isinstance(choice, Play) and choice.source is Source.STACK
    # without the stack play: the row card (it frees a gap for the stack, R7)
    rnd = position(
        [{"stack": ["Y10", "G5"], "row": [["R2"], ["B10"], ["B9"]], "discard": ["Y2"]}, QUIET],
        middle=[[("R1", 1)], [("Y1", 1)]],
    )
    choice = get_strategy("stack-first").choose(rnd.view(0), random.Random(0))
    assert isinstance(choice, Play) and choice.source is Source.ROW


def test_r3_stack_first_refills_a_manual_gap_at_once() -> None:
    rnd = position(
        [{"stack": ["Y10", "G5"], "row": [["R2"], [], ["B9"]]}, QUIET],
        middle=[[("R1", 1)]],
        options=RuleOptions(row_refill="manual"),
    )
    view = rnd.view(0)
    assert Refill(1) in view.actions and view.plays
    assert get_strategy("stack-first").choose(view, random.Random(0)) == Refill(1)


def test_greedy_plays_when_a_card_fits_else_turns() -> None:
    rnd = position([{"stack": ["Y10", "G5"], "row": [["R2"], ["B10"], ["B9"]]}, QUIET])
    view = rnd.view(0)
    assert not view.plays
    assert get_strategy("greedy").choose(view, random.Random(0)) == TURN
    rnd = position(
        [{"stack": ["Y10", "G5"], "row": [["R2"], ["B10"], ["B9"]]}, QUIET],
        middle=[[("R1", 1)]],
    )
    choice = get_strategy("greedy").choose(rnd.view(0), random.Random(0))
    assert isinstance(choice, Play) and str(choice.card) == "R2"


def test_race_aware_plays_a_contested_card_before_an_uncontested_one() -> None:
    # Seat 0 can play G3 from its stack (nobody else shows a G3) or R2 from
    # its row; seat 1 shows R2 on its stack, so the R2 pile is a race (R3).
    seats = [
        {"stack": ["Y10", "G3"], "row": [["R2"], ["B10"], ["B9"]]},
        {"stack": ["Y10", "R2"], "row": [["B10"], ["B9"], ["B8"]]},
    ]
    rnd = position(seats, middle=[[("G1", 0), ("G2", 0)], [("R1", 0)]])
    view = rnd.view(0)
    assert get_strategy("stack-first").choose(view, random.Random(0)).source is Source.STACK  # type: ignore[union-attr]
    choice = get_strategy("race-aware").choose(view, random.Random(0))
    assert isinstance(choice, Play) and str(choice.card) == "R2"


def test_watchful_watches_instead_of_burying_a_discard_top_about_to_fit() -> None:
    # Seat 0's discard top is R6; the red pile is at R4 and seat 1 shows R5:
    # once seat 1 plays it, R6 fits. Turning now would bury the R6 (R3).
    seats = [
        {"stack": ["Y10", "Y9"], "row": [["B10"], ["B9"], ["B8"]], "discard": ["R6"]},
        {"stack": ["Y10", "R5"], "row": [["B10"], ["B9"], ["B8"]]},
    ]
    middle = [[("R1", 0), ("R2", 0), ("R3", 0), ("R4", 0)]]
    view = position(seats, middle).view(0)
    assert not view.plays and TURN in view.actions
    assert get_strategy("stack-first").choose(view, random.Random(0)) == TURN
    assert get_strategy("watchful").choose(view, random.Random(0)) is None
    # nobody shows an R5: nothing to watch for, so it turns
    seats[1]["stack"] = ["Y10", "G5"]
    view = position(seats, middle).view(0)
    assert get_strategy("watchful").choose(view, random.Random(0)) == TURN


def test_watchful_watches_when_its_stack_top_or_a_row_card_is_about_to_fit() -> None:
    # The green pile is at G2 and seat 2 shows G3 in its row: seat 0's G4 —
    # on its stack, or in its row — fits as soon as seat 2 plays the G3.
    middle = [[("G1", 1), ("G2", 1)]]
    other = {"stack": ["Y10", "Y9"], "row": [["G3"], ["B9"], ["B8"]]}
    for mine in (
        {"stack": ["Y10", "G4"], "row": [["B10"], ["B9"], ["B8"]]},
        {"stack": ["Y10", "Y9"], "row": [["B10"], ["G4"], ["B8"]]},
    ):
        view = position([mine, QUIET, other], middle).view(0)
        assert not view.plays
        assert get_strategy("watchful").choose(view, random.Random(0)) is None
        assert get_strategy("race-aware").choose(view, random.Random(0)) == TURN
    # a 1 needs nobody: seat 0's G2 would fit a new green pile after seat 2's G1
    other["row"] = [["G1"], ["B9"], ["B8"]]
    mine = {"stack": ["Y10", "G2"], "row": [["B10"], ["B9"], ["B8"]]}
    view = position([mine, QUIET, other]).view(0)
    assert get_strategy("watchful").choose(view, random.Random(0)) is None


def test_r6_watchful_stores_a_stuck_stack_top_on_the_row() -> None:
    seats = [{"stack": ["Y10", "G5"], "row": [["R9"], ["B10"], ["B9"]]}, QUIET]
    rnd = position(seats, options=RuleOptions(row_storage=True))
    choice = get_strategy("watchful").choose(rnd.view(0), random.Random(0))
    assert isinstance(choice, Store) and choice.source is Source.STACK
    # every strategy but random stores it (more in tests/bots/test_row_storage.py)
    stored = get_strategy("stack-first").choose(rnd.view(0), random.Random(0))
    assert isinstance(stored, Store) and stored.source is Source.STACK


def test_bot_timing_depends_on_the_action_kind() -> None:
    bot = make_bot("stack-first", "medium")
    rnd = position([{"stack": ["Y10", "G5"], "row": [["R2"], ["B10"], ["B9"]]}, QUIET])
    delays = [bot.decide(rnd.view(0), random.Random(i)).delay for i in range(300)]
    turn_median = sorted(delays)[150]
    assert turn_median == pytest.approx(bot.timing.turn_median, rel=0.15)


def test_watchful_gives_up_watching_a_card_that_is_never_played() -> None:
    # a person may leave the fitting card lying: the bot must not watch for ever
    seats = [
        {"stack": ["Y10", "Y9"], "row": [["B10"], ["B9"], ["B8"]], "discard": ["R6"]},
        {"stack": ["Y10", "R5"], "row": [["B10"], ["B9"], ["B8"]]},
    ]
    view = position(seats, [[("R1", 0), ("R2", 0), ("R3", 0), ("R4", 0)]]).view(0)
    watchful = get_strategy("watchful")
    rng = random.Random(4)
    looks = [watchful.choose(view, rng) for _ in range(2000)]
    turns = looks.count(TURN)
    assert looks.count(None) + turns == 2000
    assert 20 <= turns <= 110  # about 3 % of the looks (patience 0.97)
