"""A bot never reads hidden cards (R3: hand order, cards under a top are private).

Two rounds that differ only in hidden cards look the same from every seat;
every strategy, given either — as ``round.view(seat)`` or as the
simulator's lazy view — must choose the same, with the same random stream.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ligretto.bots import get_strategy
from ligretto.bots.strategies import STRATEGIES
from ligretto.rules import Round, RuleOptions
from ligretto.sim.engine import SeatSight


def _scramble_hidden(snapshot: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same table with every seat's hidden cards dealt anew.

    Hidden are the hand, the stack below its top and the discard pile below
    its top; they are mixed among these places, keeping each place's count.
    """
    data = {**snapshot, "seats": []}
    for seat in snapshot["seats"]:
        stack, discard, hand = list(seat["stack"]), list(seat["discard"]), list(seat["hand"])
        hidden = stack[:-1] + discard[:-1] + hand
        rng.shuffle(hidden)
        cut1 = max(len(stack) - 1, 0)
        cut2 = cut1 + max(len(discard) - 1, 0)
        data["seats"].append(
            {
                **seat,
                "stack": hidden[:cut1] + stack[-1:],
                "discard": hidden[cut1:cut2] + discard[-1:],
                "hand": hidden[cut2:],
            }
        )
    return data


def _positions(options: RuleOptions) -> list[Round]:
    """Rounds in mid play: a few dozen actions into each of several deals."""
    rounds = []
    stack_first = get_strategy("stack-first")
    for seed in range(12):
        rnd = Round.deal(4, seed, options)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 80)):
            seat = rng.randrange(4)
            action = stack_first.choose(rnd.view(seat), rng)
            if action is not None:
                rnd.apply(seat, action)
            if rnd.is_over:
                break
        if not rnd.is_over:
            rounds.append(rnd)
    return rounds


@pytest.mark.parametrize(
    "options",
    [RuleOptions(), RuleOptions(row_refill="manual", recycle_shuffle=False, row_storage=True)],
    ids=["default", "variants"],
)
def test_choices_depend_on_the_view_alone(options: RuleOptions) -> None:
    scrambler = random.Random(99)
    compared = differing = 0
    for rnd in _positions(options):
        snap = rnd.snapshot()
        twin = Round.from_snapshot(_scramble_hidden(snap, scrambler))
        differing += twin.snapshot()["seats"] != snap["seats"]
        for seat in range(4):
            assert twin.view(seat) == rnd.view(seat)  # the premise: nothing hidden shows
            for name in sorted(STRATEGIES):
                strategy = get_strategy(name)
                for k in range(3):
                    a = strategy.choose(rnd.view(seat), random.Random(k))
                    b = strategy.choose(SeatSight(twin, seat), random.Random(k))
                    c = strategy.choose(SeatSight(rnd, seat), random.Random(k))
                    assert a == b == c, (name, seat, a, b, c)
                    compared += 1
    assert differing >= 5  # the twins really hold other hidden cards
    assert compared > 500


def test_the_simulators_lazy_view_equals_the_full_view() -> None:
    rnd = _positions(RuleOptions())[0]
    for seat in range(4):
        full = rnd.view(seat)
        lazy = SeatSight(rnd, seat)
        assert tuple(lazy.actions) == full.actions
        assert tuple(lazy.plays) == full.plays
        assert lazy.seats == full.seats and lazy.middle == full.middle
        assert lazy.viewer == full.viewer and lazy.options == full.options
