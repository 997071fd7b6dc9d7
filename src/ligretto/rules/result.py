"""The outcome of a round and its scoring (R5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def points(middle: int, stack: int) -> int:
    """R5: +1 for each own card in the middle, −2 for each card left in the stack.

    >>> points(14, 3)
    8
    """
    return middle - 2 * stack


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's count: cards in the middle, cards left in the stack, points (R5)."""

    seat: int
    middle: int
    stack: int
    points: int

    def to_dict(self) -> dict[str, int]:
        return {
            "seat": self.seat,
            "middle": self.middle,
            "stack": self.stack,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How the round stands: ``over``, who called Ligretto Stop (``caller``),
    whether it ended in a deadlock (then ``caller`` is ``None``), and the
    per-seat counts (R4, R5)."""

    over: bool
    caller: int | None
    deadlock: bool
    seats: tuple[SeatResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "caller": self.caller,
            "deadlock": self.deadlock,
            "seats": [s.to_dict() for s in self.seats],
        }
