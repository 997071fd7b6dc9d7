"""The outcome of a round (R4) and its scoring (R5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ligretto.rules.values import FrozenValue

STACK_PENALTY: Final = 2
"""R5: the points each card left in the Ligretto stack costs."""


def points(middle: int, stack: int, penalty: int = STACK_PENALTY) -> int:
    """R5: +1 for each own card in the middle, −2 for each card left in the stack.

    ``penalty`` is for the simulator's house rule of another stack penalty
    (``ligretto.sim.house``); everything else scores by R5.

    >>> points(14, 3)
    8
    >>> points(14, 3, penalty=1)
    11
    """
    return middle - penalty * stack


@dataclass(frozen=True, slots=True)
class SeatResult(FrozenValue):
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


class Termination(StrEnum):
    """How a round ended (R4): a seat called Ligretto Stop, or nobody could
    play any more and the table ended the round (``deadlock="end"``).

    The value is the text form, as on the wire (``round_over.ended_by``).

    >>> Termination("deadlock") is Termination.DEADLOCK, f"{Termination.STOP}"
    (True, 'stop')
    """

    STOP = "stop"
    DEADLOCK = "deadlock"


@dataclass(frozen=True, slots=True)
class RoundResult(FrozenValue):
    """How the round stands (R4, R5): how it ended (``termination``, ``None``
    while it runs), who called Ligretto Stop (``caller``, set exactly when
    ``termination`` is :attr:`Termination.STOP`) and the per-seat counts.

    >>> from ligretto.rules import Round
    >>> result = Round.deal(players=2, seed=1).result()
    >>> result.termination is None, result.over, len(result.seats)
    (True, False, 2)
    """

    termination: Termination | None
    caller: int | None
    seats: tuple[SeatResult, ...]

    def __post_init__(self) -> None:
        if (self.caller is not None) != (self.termination is Termination.STOP):
            raise ValueError(
                f"a caller ({self.caller!r}) goes with a Ligretto Stop and only with it, "
                f"not with termination {self.termination!r} (R4)"
            )

    @property
    def over(self) -> bool:
        """Whether the round has ended, so the counts are final."""
        return self.termination is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "over": self.over,
            "termination": None if self.termination is None else self.termination.value,
            "caller": self.caller,
            "seats": [s.to_dict() for s in self.seats],
        }
