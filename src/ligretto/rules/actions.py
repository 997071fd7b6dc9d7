"""Actions a seat can take (R3, R6), as frozen values with a text form.

``Action.parse(str(action)) == action`` for every action, so a round is a
replayable log of ``(seat, action)`` pairs. Row positions and middle pile ids
count from 0; pile ids are given in the order the piles were opened.

=====================================  =====================================
text                                   meaning
=====================================  =====================================
``play R5 row2 p3``                    row position 2's card R5 onto pile 3
``play G7 stack p0``                   the stack top G7 onto pile 0
``play Y4 discard p12``                the discard top Y4 onto pile 12
``play B1 stack new``                  a 1 opens a new pile (R3)
``turn``                               turn up to three hand cards (R3)
``recycle``                            the discard pile becomes the hand (R3)
``refill row2``                        fill gap 2 from the stack (manual R3)
``store R5 stack row2``                stack top onto row position 2 (R6)
``store G3 discard row0``              discard top onto row position 0 (R6)
``stuck``                              the table agreed it is stuck (R4);
                                       no seat's move: logged with seat
                                       ``None``, see ``Round.settle_stuck``
=====================================  =====================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from ligretto.rules.cards import Card, read_decimal
from ligretto.rules.errors import MalformedActionError
from ligretto.rules.values import FrozenValue

#: Longest row (R2: five cards with two players).
MAX_ROW: Final = 5


class Source(Enum):
    """Where a card comes from: one of the three open places of R3."""

    ROW = "row"
    STACK = "stack"
    DISCARD = "discard"


def _source_text(source: Source, slot: int | None) -> str:
    return f"row{slot}" if source is Source.ROW else source.value


def _parse_source(text: str) -> tuple[Source, int | None]:
    if text == "stack":
        return Source.STACK, None
    if text == "discard":
        return Source.DISCARD, None
    return Source.ROW, _parse_slot(text)


def _parse_slot(text: str) -> int:
    slot = read_decimal(text[3:]) if text.startswith("row") else None
    if slot is not None and slot < MAX_ROW:
        return slot
    raise MalformedActionError(f"not a row position: {text!r} (expected row0 … row4)")


def _parse_pile(text: str) -> int:
    pile = read_decimal(text[1:]) if text.startswith("p") else None
    if pile is None:
        raise MalformedActionError(f"not a pile: {text!r} (expected p0, p1 … or new)")
    return pile


def _check_slot(slot: int | None) -> None:
    if type(slot) is not int or not 0 <= slot < MAX_ROW:
        raise MalformedActionError(f"row position must be 0–{MAX_ROW - 1}, not {slot!r}")


@dataclass(frozen=True, slots=True)
class Action(FrozenValue):
    """Base class of all actions."""

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the text form of any action (see the module docstring)."""
        words = text.split()
        if not words:
            raise MalformedActionError("empty action")
        verb, args = words[0].lower(), [w.lower() for w in words[1:]]
        if verb == "turn" and not args:
            return TURN
        if verb == "recycle" and not args:
            return RECYCLE
        if verb == "stuck" and not args:
            return STUCK
        if verb == "refill" and len(args) == 1:
            return Refill(_parse_slot(args[0]))
        if verb == "play" and len(args) == 3:
            source, slot = _parse_source(args[1])
            target = args[2]
            pile = None if target == "new" else _parse_pile(target)
            return Play(Card.parse(args[0]), source, slot, pile)
        if verb == "store" and len(args) == 3:
            source, slot = _parse_source(args[1])
            if source is Source.ROW:
                raise MalformedActionError("row storage takes the stack or discard top (R6)")
            return Store(Card.parse(args[0]), source, _parse_slot(args[2]))
        raise MalformedActionError(f"not an action: {text!r}")


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` from ``source`` (row position ``slot``) to middle pile ``pile``.

    ``pile`` is ``None`` exactly when the card is a 1, which opens a new
    pile (R3). Naming the card guards against stale moves: if the card is no
    longer where the action says, the action is refused.
    """

    card: Card
    source: Source
    slot: int | None
    pile: int | None

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card) or not isinstance(self.source, Source):
            raise MalformedActionError("play needs a Card and a Source")
        if self.source is Source.ROW:
            _check_slot(self.slot)
        elif self.slot is not None:
            raise MalformedActionError("only row cards have a row position")
        if self.card.value == 1:
            if self.pile is not None:
                raise MalformedActionError("a 1 always opens a new pile (R3): use 'new'")
        elif type(self.pile) is not int or self.pile < 0:
            raise MalformedActionError(f"{self.card} needs a pile id, not {self.pile!r}")

    def __str__(self) -> str:
        target = "new" if self.pile is None else f"p{self.pile}"
        return f"play {self.card} {_source_text(self.source, self.slot)} {target}"


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """Turn three hand cards (fewer if fewer remain) onto the discard pile (R3)."""

    def __str__(self) -> str:
        return "turn"


@dataclass(frozen=True, slots=True)
class Recycle(Action):
    """The hand is used up: the discard pile becomes the hand (R3)."""

    def __str__(self) -> str:
        return "recycle"


@dataclass(frozen=True, slots=True)
class Refill(Action):
    """Fill the empty row position ``slot`` with the stack top (manual refill, R3)."""

    slot: int

    def __post_init__(self) -> None:
        _check_slot(self.slot)

    def __str__(self) -> str:
        return f"refill row{self.slot}"


@dataclass(frozen=True, slots=True)
class Store(Action):
    """R6: put the stack or discard top ``card`` onto row position ``slot``."""

    card: Card
    source: Source
    slot: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card) or self.source not in (Source.STACK, Source.DISCARD):
            raise MalformedActionError("store needs a Card from the stack or the discard pile (R6)")
        _check_slot(self.slot)

    def __str__(self) -> str:
        return f"store {self.card} {self.source.value} row{self.slot}"


@dataclass(frozen=True, slots=True)
class Stuck(Action):
    """R4: the table agreed that it is stuck (no card has gone to the middle
    for a long time); it is settled like a deadlock.

    Not a seat's move: ``Round.apply`` refuses it, ``Round.settle_stuck``
    carries it out and logs it as ``(None, STUCK)``, so that
    ``Round.replay`` repeats it.
    """

    def __str__(self) -> str:
        return "stuck"


TURN: Final = Turn()
RECYCLE: Final = Recycle()
STUCK: Final = Stuck()
