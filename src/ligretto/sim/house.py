"""House rules a table may agree on, for the simulator only: sets per player, the stack penalty.

People try variants the rule book does not have: each player plays with
two sets of cards shuffled together (80 cards: the same stack of 10 and
row, a hand twice as long), or a card left in the Ligretto stack costs 1
point instead of R5's 2. The simulator plays them so that a study can ask
what they change; the rules engine, online tables and the Tafel keep the
rules of docs/rules.md (a Tafel game scores by R5 and counts at most 40
cards a player, T3).

The stack penalty changes the score only, never how the bots play (they
follow R7 as they always do): the same rounds, scored otherwise. Two sets
change the deal (``ligretto.sim.decks``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ligretto.rules.result import STACK_PENALTY, points
from ligretto.rules.values import FrozenValue

__all__ = ["MAX_PENALTY", "MAX_SETS", "HouseRules"]

MAX_SETS: Final = 3
"""The most sets of 40 cards a player may play with (three boxes' worth at
four players already: R1's material, stretched)."""

MAX_PENALTY: Final = 5
"""The highest stack penalty a study may try (R5's is 2)."""


@dataclass(frozen=True, slots=True)
class HouseRules(FrozenValue):
    """``sets`` of 40 cards per player (1: R1) and the points a card left in
    the stack costs (``stack_penalty``, 2: R5)."""

    sets: int = 1
    stack_penalty: int = STACK_PENALTY

    def __post_init__(self) -> None:
        if type(self.sets) is not int or not 1 <= self.sets <= MAX_SETS:
            raise ValueError(f"sets per player are 1 to {MAX_SETS}, not {self.sets!r}")
        if type(self.stack_penalty) is not int or not 0 <= self.stack_penalty <= MAX_PENALTY:
            raise ValueError(
                f"the stack penalty is 0 to {MAX_PENALTY} points a card, not {self.stack_penalty!r}"
            )

    @property
    def fit_the_tafel(self) -> bool:
        """Whether a game under these rules can be kept on the Tafel: one set
        (T3 counts at most 40 cards a player) and R5's stack penalty."""
        return self.sets == 1 and self.stack_penalty == STACK_PENALTY

    def points(self, middle: int, stack: int) -> int:
        """A seat's points: +1 a middle card, −``stack_penalty`` a stack card.

        >>> HouseRules(stack_penalty=1).points(14, 3)
        11
        """
        return points(middle, stack, self.stack_penalty)

    def to_dict(self) -> dict[str, Any]:
        return {"sets": self.sets, "stack_penalty": self.stack_penalty}
