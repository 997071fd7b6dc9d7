"""Cards (R1): 40 per seat, values 1–10 in four colours.

Two decks exist. The Ligretto deck has the colours red, green, blue and
yellow (text ``R``, ``G``, ``B``, ``Y``); the playing-card variant (source
001) uses the four suits of an ordinary deck without face cards, where the
ace counts 1 and "colour" means suit: hearts, diamonds, clubs, spades (text
``H``, ``D``, ``C``, ``S``). A card's text form is the colour letter followed
by the value: ``R5``, ``G10``, ``H1`` (the ace of hearts).

Inside a round every card is a small integer, its *code*:
``colour index × 10 + value − 1`` (0–39). A pile whose top has code ``c``
needs code ``c + 1`` next, unless the top is a 10.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Literal

from ligretto.rules.errors import MalformedActionError
from ligretto.rules.values import FrozenValue

DeckKind = Literal["ligretto", "cards"]

#: Number of cards in every seat's deck (R1).
DECK_SIZE: Final = 40
#: Values run 1..10 (R1).
MAX_VALUE = 10


class Colour(Enum):
    """A card colour; the value is the one-letter text form."""

    RED = "R"
    GREEN = "G"
    BLUE = "B"
    YELLOW = "Y"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"

    @property
    def deck(self) -> DeckKind:
        """The deck this colour belongs to."""
        return "cards" if self in _SUITS else "ligretto"

    @property
    def index(self) -> int:
        """Position 0–3 of the colour within its deck."""
        return _COLOUR_INDEX[self]


_LIGRETTO_COLOURS = (Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW)
_SUITS = (Colour.HEARTS, Colour.DIAMONDS, Colour.CLUBS, Colour.SPADES)
_COLOUR_INDEX = {c: i % 4 for i, c in enumerate(_LIGRETTO_COLOURS + _SUITS)}
_LETTERS = {c.value: c for c in Colour}


def read_decimal(text: str, max_digits: int = 6) -> int | None:
    """``text`` as a non-negative whole number in ASCII digits, else None.

    ``str.isdigit`` alone also accepts "²" (which ``int`` refuses) and other
    scripts' digits; the text forms use 0-9 only.
    """
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def deck_colours(deck: DeckKind) -> tuple[Colour, Colour, Colour, Colour]:
    """The four colours of a deck, in code order."""
    return _SUITS if deck == "cards" else _LIGRETTO_COLOURS


@dataclass(frozen=True, slots=True)
class Card(FrozenValue):
    """One card: a colour and a value 1–10. ``str(card)`` is e.g. ``"R5"``."""

    colour: Colour
    value: int
    code: int = field(init=False, compare=False, repr=False)
    deck: DeckKind = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise MalformedActionError(f"not a colour: {self.colour!r}")
        if type(self.value) is not int or not 1 <= self.value <= MAX_VALUE:
            raise MalformedActionError(f"card value must be 1–10, not {self.value!r}")
        object.__setattr__(self, "code", self.colour.index * 10 + self.value - 1)
        object.__setattr__(self, "deck", self.colour.deck)

    def __str__(self) -> str:
        return f"{self.colour.value}{self.value}"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``"R5"``, ``"G10"``, ``"H1"`` … (inverse of ``str``).

        >>> Card.parse("B7")
        Card(colour=<Colour.BLUE: 'B'>, value=7)
        """
        text = text.strip()
        colour = _LETTERS.get(text[:1].upper())
        value = read_decimal(text[1:])
        if colour is None or value is None:
            raise MalformedActionError(f"not a card: {text!r} (expected e.g. R5, G10, H1)")
        if not 1 <= value <= MAX_VALUE:
            raise MalformedActionError(f"not a card: {text!r} (values are 1–10)")
        return CARDS[colour.deck][colour.index * 10 + value - 1]

    @staticmethod
    def from_code(deck: DeckKind, code: int) -> Card:
        """The interned card of ``deck`` with the internal ``code`` (0–39)."""
        return CARDS[deck][code]


#: The 40 interned cards of each deck, indexed by code.
CARDS: Final[dict[DeckKind, tuple[Card, ...]]] = {
    deck: tuple(Card(colour, value) for colour in deck_colours(deck) for value in range(1, 11))
    for deck in ("ligretto", "cards")
}
