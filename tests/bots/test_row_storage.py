"""R6: bots use the row as storage where it helps, and only there.

(a) A stack top that fits nowhere goes into the row: off the stack it no
longer costs 2 points, and the stack card beneath comes up. (b) A discard
top goes into the row when the stack top then fits onto it. Plays to the
middle still come first, and every strategy keeps its order (docs/bots.md).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from helpers.positions import QUIET, position
from ligretto.bots import get_strategy
from ligretto.rules import TURN, Action, Card, RuleOptions, Source, Store

STORAGE = RuleOptions(row_storage=True)
#: every strategy that decides (``random`` picks any legal action)
DECIDING = ["greedy", "stack-first", "discard-first", "row-last", "race-aware", "watchful"]


def choose(name: str, seats: list[dict[str, Any]], options: RuleOptions = STORAGE) -> Action | None:
    view = position(seats, options=options).view(0)
    return get_strategy(name).choose(view, random.Random(0))


@pytest.mark.parametrize("name", DECIDING)
def test_r6_a_stack_top_that_fits_nowhere_goes_onto_the_lowest_row_top_that_takes_it(
    name: str,
) -> None:
    mine = {"stack": ["Y10", "G5"], "row": [["R9"], ["B7"], ["B10"]]}
    assert choose(name, [mine, QUIET]) == Store(Card.parse("G5"), Source.STACK, 1)
    # without the variant the same seat turns
    assert choose(name, [mine, QUIET], RuleOptions()) == TURN


@pytest.mark.parametrize("name", DECIDING)
def test_r6_a_discard_top_goes_into_the_row_when_it_makes_room_for_the_stack_top(
    name: str,
) -> None:
    # G5 fits onto no row top (G9 same colour, Y4 and B3 lower); R8 fits onto
    # G9, and then G5 fits onto R8.
    mine = {"stack": ["Y10", "G5"], "row": [["G9"], ["Y4"], ["B3"]], "discard": ["R8"]}
    assert choose(name, [mine, QUIET]) == Store(Card.parse("R8"), Source.DISCARD, 0)


@pytest.mark.parametrize("name", DECIDING)
def test_r6_no_store_of_a_discard_top_that_does_not_help_the_stack(name: str) -> None:
    # R3 fits onto G9, but G5 would not fit onto R3: storing it only buries G9.
    mine = {"stack": ["Y10", "G5"], "row": [["G9"], ["Y4"], ["B3"]], "discard": ["R3"]}
    assert choose(name, [mine, QUIET]) in (TURN, None)  # watchful may watch


@pytest.mark.parametrize("name", DECIDING)
def test_r6_a_play_to_the_middle_comes_before_storing(name: str) -> None:
    mine = {"stack": ["Y10", "G5"], "row": [["R9"], ["B7"], ["B1"]]}
    choice = choose(name, [mine, QUIET])
    assert not isinstance(choice, Store)
    assert str(choice) == "play B1 row2 new"
