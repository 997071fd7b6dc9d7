"""R2 from given decks: ``Round.deal(..., decks=...)`` lays each seat's cards out as they come.

The simulator deals so from decks carried over from the round before and
from two sets of cards per seat (a house rule); the layout is the one the
shuffled deal makes, and a round from such decks keeps the rules'
invariants with every card a seat holds, however many sets.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.profiles import examples
from ligretto.rules import Card, MalformedActionError, Round, RuleOptions, row_size


def _codes(cards: list[str]) -> list[int]:
    return [Card.parse(c).code for c in cards]


def _laid_out(snapshot: dict[str, Any], seat: int) -> list[int]:
    """A dealt seat's cards in the order ``deal`` lays a deck out."""
    s = snapshot["seats"][seat]
    row = [cell[0] for cell in s["row"]]
    return _codes(s["stack"] + row + s["hand"])


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_r2_a_deal_from_decks_is_the_shuffled_deal_of_the_same_order(players: int) -> None:
    for seed in range(20):
        dealt = Round.deal(players, seed)
        before = dealt.snapshot()
        decks = [_laid_out(before, seat) for seat in range(players)]
        again = Round.deal(players, seed, decks=decks)
        assert again.snapshot() == before
        for seat in range(players):
            assert again.legal_actions(seat) == dealt.legal_actions(seat)


def test_r2_the_stack_top_is_the_tenth_card_and_the_hand_turns_from_its_end() -> None:
    deck = list(range(40))
    r = Round.deal(4, 1, decks=[deck] * 4)
    seat = r.snapshot()["seats"][0]
    assert seat["stack"] == [str(Card.from_code("ligretto", c)) for c in range(10)]  # bottom to top
    assert [cell[0] for cell in seat["row"]] == ["G1", "G2", "G3"]
    assert seat["hand"][-1] == "Y10"  # the next card to turn


def test_two_sets_per_seat_hold_every_card_twice() -> None:
    rng = random.Random(3)
    decks = []
    for _ in range(3):
        deck = list(range(40)) * 2
        rng.shuffle(deck)
        decks.append(deck)
    r = Round.deal(3, 5, decks=decks)
    snapshot = r.snapshot()
    for seat, deck in zip(snapshot["seats"], decks, strict=True):
        assert len(seat["stack"]) == 10 and len(seat["row"]) == row_size(3)
        assert len(seat["hand"]) == 80 - 10 - row_size(3)
        held = seat["stack"] + [c for cell in seat["row"] for c in cell] + seat["hand"]
        assert Counter(_codes(held)) == Counter(deck)


@pytest.mark.parametrize(
    "decks",
    [
        [list(range(40))],  # one deck for two seats
        [list(range(40)), list(range(12))],  # too few cards for stack and row
        [list(range(40)), [*range(39), 40]],  # no such card
        [list(range(40)), [*range(39), -1]],
    ],
)
def test_r2_decks_that_cannot_be_dealt_are_refused(decks: list[list[int]]) -> None:
    with pytest.raises(MalformedActionError):
        Round.deal(2, 1, decks=decks)


@given(
    players=st.integers(2, 6),
    sets=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    options=st.builds(
        RuleOptions,
        recycle_shuffle=st.booleans(),
        deadlock=st.sampled_from(["end", "reshuffle"]),
        row_storage=st.booleans(),
        row_refill=st.sampled_from(["auto", "manual"]),
    ),
)
@settings(max_examples=examples(40), deadline=None)
def test_rounds_from_any_number_of_sets_keep_every_card_and_score_by_r5(
    players: int, sets: int, seed: int, options: RuleOptions
) -> None:
    rng = random.Random(seed)
    decks = []
    for _ in range(players):
        deck = list(range(40)) * sets
        rng.shuffle(deck)
        decks.append(deck)
    r = Round.deal(players, seed, options, decks=decks)
    for _ in range(3000 * players * sets):
        if r.is_over:
            break
        seat = rng.randrange(players)
        actions = r.legal_actions(seat)
        if actions:
            r.apply(seat, actions[rng.randrange(len(actions))])
    snapshot = r.snapshot()
    owned: list[list[str]] = [[] for _ in range(players)]
    for pile in snapshot["middle"]:
        for card in pile["cards"]:
            owned[card["owner"]].append(card["card"])
    result = r.result()
    for seat, laid in enumerate(snapshot["seats"]):
        middle = len(owned[seat])
        owned[seat] += laid["stack"] + [c for cell in laid["row"] for c in cell]
        owned[seat] += laid["hand"] + laid["discard"]
        assert Counter(_codes(owned[seat])) == Counter(decks[seat])  # no card lost or made
        counted = result.seats[seat]
        assert (counted.middle, counted.stack) == (middle, len(laid["stack"]))
        assert counted.points == middle - 2 * len(laid["stack"])  # R5
