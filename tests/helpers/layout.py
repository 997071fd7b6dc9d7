"""Constructed positions for the rules tests, via ``Round.from_snapshot(fill_hand=True)``."""

from __future__ import annotations

from typing import Any

from ligretto.rules import Round, RuleOptions, row_size


def seat(
    stack: str = "",
    row: list[str] | None = None,
    hand: str = "",
    discard: str = "",
) -> dict[str, Any]:
    """One seat; card lists are space separated, bottom to top. A row
    position is a space separated string too ('' = a gap)."""
    return {
        "stack": stack.split(),
        "row": [cell.split() for cell in (row or [])],
        "hand": hand.split(),
        "discard": discard.split(),
    }


def build(
    seats: list[dict[str, Any]],
    middle: list[list[tuple[str, int]]] | None = None,
    options: RuleOptions | None = None,
    seed: int = 1,
) -> Round:
    """A round from an explicit layout; cards not placed go under the hands.

    A seat with no row given gets gaps only for manual refill, so tests give
    rows explicitly; ``middle`` lists each pile's (card, owner) pairs.
    """
    options = options or RuleOptions()
    players = len(seats)
    for s in seats:
        if not s["row"]:
            s["row"] = [[] for _ in range(row_size(players))]
    return Round.from_snapshot(
        {
            "players": players,
            "seed": seed,
            "options": options.to_dict(),
            "seats": seats,
            "middle": [
                {"id": i, "cards": [{"card": c, "owner": o} for c, o in pile]}
                for i, pile in enumerate(middle or [])
            ],
        },
        fill_hand=True,
    )


def pile(colour: str, upto: int, owner: int = 0) -> list[tuple[str, int]]:
    """A middle pile of ``colour`` from 1 up to ``upto``, all owned by ``owner``."""
    return [(f"{colour}{v}", owner) for v in range(1, upto + 1)]
