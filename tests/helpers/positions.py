"""Hand-made table positions for bot tests (through ``Round.from_snapshot``)."""

from __future__ import annotations

from typing import Any

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
