"""Rule options (docs/rules.md): where the sources disagree, an option decides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ligretto.rules.cards import DeckKind

#: R1: the fewest players a round can have.
MIN_PLAYERS = 2

#: R1: three Ligretto boxes seat 12; ordinary playing cards seat 16.
PLAYER_LIMITS: Mapping[str, tuple[int, int]] = {
    "ligretto": (MIN_PLAYERS, 12),
    "cards": (MIN_PLAYERS, 16),
}

#: R1: the most players any deck seats (seat numbers run below it).
MAX_PLAYERS = max(most for _, most in PLAYER_LIMITS.values())


def player_limits(deck: str) -> tuple[int, int]:
    """The fewest and most players with ``deck`` (R1).

    >>> player_limits("ligretto"), player_limits("cards")
    ((2, 12), (2, 16))
    """
    return PLAYER_LIMITS[deck]


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The rule variant of a round. Defaults follow docs/rules.md.

    - ``deck``: ``"ligretto"`` (2–12 players) or ``"cards"`` (2–16) (R1).
    - ``row_refill``: ``"auto"`` fills a row gap from the stack at once,
      ``"manual"`` needs an explicit ``refill`` action (R3).
    - ``recycle_shuffle``: shuffle the discard pile when it becomes the hand
      again (``True``) or keep its order (``False``) (R3).
    - ``deadlock``: ``"end"`` the round, or ``"reshuffle"`` every hand (R4).
    - ``row_storage``: the row as storage, R6.
    """

    deck: DeckKind = "ligretto"
    row_refill: Literal["auto", "manual"] = "auto"
    recycle_shuffle: bool = True
    deadlock: Literal["end", "reshuffle"] = "end"
    row_storage: bool = False

    def __post_init__(self) -> None:
        if self.deck not in PLAYER_LIMITS:
            raise ValueError(f"deck must be 'ligretto' or 'cards', not {self.deck!r}")
        if self.row_refill not in ("auto", "manual"):
            raise ValueError(f"row_refill must be 'auto' or 'manual', not {self.row_refill!r}")
        if type(self.recycle_shuffle) is not bool:
            raise ValueError(f"recycle_shuffle must be a bool, not {self.recycle_shuffle!r}")
        if self.deadlock not in ("end", "reshuffle"):
            raise ValueError(f"deadlock must be 'end' or 'reshuffle', not {self.deadlock!r}")
        if type(self.row_storage) is not bool:
            raise ValueError(f"row_storage must be a bool, not {self.row_storage!r}")

    @property
    def min_players(self) -> int:
        """Fewest players for this deck (R1): 2."""
        return PLAYER_LIMITS[self.deck][0]

    @property
    def max_players(self) -> int:
        """Most players for this deck (R1): 12 with Ligretto cards, 16 with playing cards."""
        return PLAYER_LIMITS[self.deck][1]

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless ``players`` is allowed with this deck (R1)."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{players!r} players: the {self.deck} deck seats "
                f"{self.min_players}–{self.max_players} players (R1)"
            )

    def to_dict(self) -> dict[str, str | bool]:
        """JSON-ready form; ``RuleOptions(**d)`` reads it back."""
        return {
            "deck": self.deck,
            "row_refill": self.row_refill,
            "recycle_shuffle": self.recycle_shuffle,
            "deadlock": self.deadlock,
            "row_storage": self.row_storage,
        }
