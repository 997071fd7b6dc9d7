"""Decks between the rounds of a game (R2 "shuffle the own deck", R5 "sorted back by the backs").

The shuffle models do what their names say, a seat gets exactly its own
cards back in the order they lay, and the simulated games show what the
models imply: the fewer the riffles, the further the faster player's edge
lies from the edge of a uniform deal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ligretto.bots import BotSpec, make_bot
from ligretto.rules import Card, Round, RuleOptions
from ligretto.sim.decks import ShuffleModel, dealt, gathered, next_decks, round_decks
from ligretto.sim.engine import play_dealt
from ligretto.simulate.run import SimConfig, simulate


def _rising_sequences(cards: list[int]) -> int:
    """How many rising runs of consecutive values a permutation of 0…n−1 splits into."""
    where = {card: place for place, card in enumerate(cards)}
    return 1 + sum(1 for v in range(1, len(cards)) if where[v] < where[v - 1])


def test_a_riffle_keeps_each_half_in_order_and_seven_mix_the_deck() -> None:
    rng = random.Random(1)
    packet = list(range(40))
    once = ShuffleModel.parse("riffle").shuffle(packet, rng)
    assert sorted(once) == packet and once != packet
    # Gilbert–Shannon–Reeds: one riffle interleaves two packets, each kept in order
    assert _rising_sequences(once) <= 2
    seven = ShuffleModel.parse("riffle:7").shuffle(packet, rng)
    assert _rising_sequences(seven) > 10  # a uniform order has about 20


def test_a_perfect_riffle_interleaves_the_halves_one_by_one() -> None:
    packet = list(range(10))
    assert ShuffleModel.parse("perfect").shuffle(packet, random.Random(1)) == [
        0, 5, 1, 6, 2, 7, 3, 8, 4, 9,
    ]  # fmt: skip
    # for 40 cards, twelve out-shuffles (and no fewer) bring the deck back where it was
    forty = list(range(40))
    orders = [ShuffleModel("perfect", k).shuffle(forty, random.Random(1)) for k in (11, 12)]
    assert orders[0] != forty and orders[1] == forty


def test_none_keeps_the_order_and_uniform_is_a_permutation() -> None:
    packet = list(range(40))
    assert ShuffleModel.parse("none").shuffle(packet, random.Random(1)) == packet
    mixed = ShuffleModel.parse("uniform").shuffle(packet, random.Random(1))
    assert sorted(mixed) == packet and mixed != packet


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("shake", "unknown shuffle 'shake'"),
        ("riffle:0", "1 to 20 times"),
        ("riffle:99", "1 to 20 times"),
        ("riffle:two", "a whole number"),
        ("none:2", "none takes no number"),
    ],
)
def test_an_unknown_shuffle_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ShuffleModel.parse(text)


def test_every_seat_gets_its_own_cards_back_in_the_order_they_lay() -> None:
    bots = [make_bot("stack-first:medium") for _ in range(4)]
    rnd = Round.deal(4, 11)
    play_dealt(rnd, bots, 11)
    packets = gathered(rnd)
    snapshot = rnd.snapshot()
    for seat, packet in enumerate(packets):
        assert Counter(packet) == Counter(range(40))  # its 40 cards, none of another seat
        own = [
            Card.parse(card["card"]).code
            for pile in snapshot["middle"]
            for card in pile["cards"]
            if card["owner"] == seat
        ]
        assert packet[: len(own)] == own  # the middle first, pile by pile, from the 1 up
        stack = [Card.parse(c).code for c in snapshot["seats"][seat]["stack"]]
        assert packet[len(own) : len(own) + len(stack)] == stack[::-1]  # then the stack


def test_without_a_shuffle_the_next_stack_starts_with_the_middle_cards() -> None:
    bots = [make_bot("stack-first:medium") for _ in range(4)]
    rnd = Round.deal(4, 11)
    play_dealt(rnd, bots, 11)
    packets = gathered(rnd)
    decks = next_decks(rnd, [ShuffleModel("none")] * 4, random.Random(1))
    following = Round.deal(4, 12, RuleOptions(), decks)
    for seat, laid in enumerate(following.snapshot()["seats"]):
        # the first card gathered is the new stack's top; the next ones lie under it
        top_down = [Card.parse(c).code for c in reversed(laid["stack"])]
        assert top_down == packets[seat][:10]
    assert dealt(list(range(20)), 3)[:10] == list(range(9, -1, -1))


def test_a_table_that_shuffles_uniformly_deals_every_round_from_its_seed() -> None:
    # The default: nothing is carried over, every seed gives the round it always gave.
    assert round_decks(4, 7, models=[ShuffleModel()] * 4, previous=Round.deal(4, 1)) is None
    assert round_decks(4, 7) is None
    two_sets = round_decks(4, 7, sets=2)
    assert two_sets is not None and all(Counter(d) == {c: 2 for c in range(40)} for d in two_sets)


def _edge(model: str, games: int) -> float:
    """Points per round of a seat 1.5 times as fast over three equal ones, all shuffling so."""
    config = SimConfig(
        tuple(BotSpec.parse("stack-first:medium") for _ in range(4)),
        seed=1,
        speeds=(1.5, 1.0, 1.0, 1.0),
        shuffles=(ShuffleModel.parse(model),) * 4,
    )
    return simulate(config, games=games).comparisons[0].result.difference.mean


@pytest.mark.many_rounds
def test_more_riffles_bring_the_faster_players_edge_to_the_uniform_deals() -> None:
    # Unshuffled decks carry each round's runs of one colour into the next
    # stack; every riffle breaks them up, until the deck is as good as new.
    games = 300
    uniform = _edge("uniform", games)  # about 10.3 points a round
    away = {model: abs(_edge(model, games) - uniform) for model in ("none", "riffle:1", "riffle:7")}
    # seed 1 measured 3.8 points away without a shuffle, 1.1 after one riffle,
    # 0.1 after seven (each edge's 95 % interval is about ± 0.5)
    assert away["none"] > 2.5
    assert away["none"] > away["riffle:1"] + 1.5
    assert away["riffle:1"] > away["riffle:7"] + 0.5
    assert away["riffle:7"] < 0.6
