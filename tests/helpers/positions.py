"""Hand-made table positions for bot tests (through ``Round.from_snapshot``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ligretto.bots import Strategy
from ligretto.rules import Round, RuleOptions

QUIET: dict[str, Any] = {"stack": ["Y10", "Y9"], "row": [["B10"], ["B9"], ["B8"]]}
"""A seat whose open cards fit nothing in the test positions."""


def position(
    seats: list[dict[str, Any]],
    middle: list[list[tuple[str, int]]] | None = None,
    options: RuleOptions | None = None,
) -> Round:
    """A four-seat round laid out as given (quiet seats fill up the table);
    every seat's missing cards fill its hand (R2: rows of three)."""
    options = options or RuleOptions()
    seats = seats + [QUIET] * (4 - len(seats))
    data = {
        "players": len(seats),
        "seed": 5,
        "options": options.to_dict(),
        "seats": seats,
        "middle": [
            {"id": i, "cards": [{"card": c, "owner": o} for c, o in pile]}
            for i, pile in enumerate(middle or [])
        ],
    }
    return Round.from_snapshot(data, fill_hand=True)


def three_sources() -> Round:
    """Seat 0's stack top G3, row card R2 and discard top Y2 all fit (R7's three sources)."""
    return position(
        [
            {"stack": ["Y10", "G3"], "row": [["R2"], ["B10"], ["B9"]], "discard": ["Y2"]},
            QUIET,
        ],
        middle=[[("G1", 1), ("G2", 1)], [("R1", 1)], [("Y1", 1)]],
    )


def assert_plays_legally(strategy: Strategy, options: Sequence[RuleOptions], steps: int) -> None:
    """R3: in three-seat rounds of five seeds under each of ``options``, the
    strategy, asked ``steps`` times for a random seat's move, picks one of the
    actions the seat's view offers or waits (one ``random.Random(1)`` for all)."""
    rng = random.Random(1)
    for seed in range(5):
        for rule_options in options:
            rnd = Round.deal(3, seed, rule_options)
            for _ in range(steps):
                seat = rng.randrange(3)
                view = rnd.view(seat)
                action = strategy.choose(view, rng)
                if action is None:
                    continue
                assert action in view.actions
                rnd.apply(seat, action)
                if rnd.is_over:
                    break
