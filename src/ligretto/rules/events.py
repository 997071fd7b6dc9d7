"""Events: what an applied action made happen, as frozen values with text.

``Round.apply`` returns a tuple of events in the order they happened; the
text form parses back (``Event.parse(str(e)) == e``). A seat's events start
with the seat number.

=====================================  =====================================
text                                   meaning
=====================================  =====================================
``0 played R5 row2 p3``                seat 0 played R5 from row 2 on pile 3
``0 opened B1 stack p4``               seat 0's 1 opened pile 4 (R3)
``0 closed p3``                        the 10 closed pile 3 (R3)
``0 refilled row2 G7``                 the stack top G7 filled gap 2 (R3)
``0 stored R5 stack row2``             R6 row storage
``0 turned 3 Y7``                      three hand cards turned, Y7 on top
``0 recycled 27 shuffled``             discard became the hand (or ``kept``)
``0 ligretto-stop``                    seat 0's stack is empty (R4)
``deadlock``                           nobody can play any more (R4)
``reshuffle 1``                        every hand reshuffled (R4 option)
``round-over caller 0``                the round ended by Ligretto Stop
``round-over deadlock``                the round ended without a call
=====================================  =====================================
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ligretto.rules.actions import Source, _parse_slot, _parse_source, _source_text
from ligretto.rules.cards import Card
from ligretto.rules.errors import MalformedActionError
from ligretto.rules.values import FrozenValue


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class Event(FrozenValue):
    """Base class of all events."""

    @staticmethod
    def parse(text: str) -> Event:
        """Parse the text form of any event (see the module docstring)."""
        words = text.split()
        try:
            return _parse_words(words)
        except (IndexError, ValueError) as exc:
            raise MalformedActionError(f"not an event: {text!r}") from exc


def _pile(text: str) -> int:
    if not text.startswith("p"):
        raise ValueError(text)
    return int(text[1:])


def _parse_words(w: list[str]) -> Event:
    if w == ["deadlock"]:
        return Deadlock()
    if w[0] == "reshuffle" and len(w) == 2:
        return Reshuffled(int(w[1]))
    if w[0] == "round-over":
        if w[1:] == ["deadlock"]:
            return RoundEnded(None, True)
        if w[1] == "caller" and len(w) == 3:
            return RoundEnded(int(w[2]), False)
        raise ValueError(w)
    seat, verb, args = int(w[0]), w[1], w[2:]
    if verb in ("played", "opened") and len(args) == 3:
        source, slot = _parse_source(args[1])
        cls = CardPlayed if verb == "played" else PileOpened
        return cls(seat, Card.parse(args[0]), source, slot, _pile(args[2]))
    if verb == "closed" and len(args) == 1:
        return PileClosed(seat, _pile(args[0]))
    if verb == "refilled" and len(args) == 2:
        return RowRefilled(seat, _parse_slot(args[0]), Card.parse(args[1]))
    if verb == "stored" and len(args) == 3:
        source, _ = _parse_source(args[1])
        return CardStored(seat, Card.parse(args[0]), source, _parse_slot(args[2]))
    if verb == "turned" and len(args) == 2:
        return CardsTurned(seat, int(args[0]), Card.parse(args[1]))
    if verb == "recycled" and len(args) == 2 and args[1] in ("shuffled", "kept"):
        return Recycled(seat, int(args[0]), args[1] == "shuffled")
    if verb == "ligretto-stop" and not args:
        return LigrettoStop(seat)
    raise ValueError(w)


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` from ``source``/``slot`` onto existing pile ``pile``."""

    seat: int
    card: Card
    source: Source
    slot: int | None
    pile: int

    def __str__(self) -> str:
        src = _source_text(self.source, self.slot)
        return f"{self.seat} played {self.card} {src} p{self.pile}"


@dataclass(frozen=True, slots=True)
class PileOpened(Event):
    """``seat``'s 1 opened the new middle pile ``pile`` (R3)."""

    seat: int
    card: Card
    source: Source
    slot: int | None
    pile: int

    def __str__(self) -> str:
        src = _source_text(self.source, self.slot)
        return f"{self.seat} opened {self.card} {src} p{self.pile}"


@dataclass(frozen=True, slots=True)
class PileClosed(Event):
    """``seat``'s 10 closed pile ``pile``: nothing more goes on it (R3)."""

    seat: int
    pile: int

    def __str__(self) -> str:
        return f"{self.seat} closed p{self.pile}"


@dataclass(frozen=True, slots=True)
class RowRefilled(Event):
    """The stack top ``card`` filled the gap at row position ``slot`` (R3)."""

    seat: int
    slot: int
    card: Card

    def __str__(self) -> str:
        return f"{self.seat} refilled row{self.slot} {self.card}"


@dataclass(frozen=True, slots=True)
class CardStored(Event):
    """R6: ``card`` went from ``source`` onto row position ``slot``."""

    seat: int
    card: Card
    source: Source
    slot: int

    def __str__(self) -> str:
        return f"{self.seat} stored {self.card} {self.source.value} row{self.slot}"


@dataclass(frozen=True, slots=True)
class CardsTurned(Event):
    """``count`` hand cards were turned; ``top`` is now the discard top (R3)."""

    seat: int
    count: int
    top: Card

    def __str__(self) -> str:
        return f"{self.seat} turned {self.count} {self.top}"


@dataclass(frozen=True, slots=True)
class Recycled(Event):
    """The ``count`` discard cards became the hand, shuffled or not (R3)."""

    seat: int
    count: int
    shuffled: bool

    def __str__(self) -> str:
        return f"{self.seat} recycled {self.count} {'shuffled' if self.shuffled else 'kept'}"


@dataclass(frozen=True, slots=True)
class LigrettoStop(Event):
    """``seat`` placed the last card of the Ligretto stack (R4)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} ligretto-stop"


@dataclass(frozen=True, slots=True)
class Deadlock(Event):
    """Nobody can play any more (R4): the engine found it, or the table
    agreed that it is stuck (``Round.settle_stuck``)."""

    def __str__(self) -> str:
        return "deadlock"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """R4 ``deadlock="reshuffle"``: every hand and discard pile reshuffled; ``number`` counts."""

    number: int

    def __str__(self) -> str:
        return f"reshuffle {self.number}"


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The round is over: by ``caller``'s Ligretto Stop, or a deadlock (R4)."""

    caller: int | None
    deadlock: bool

    def __str__(self) -> str:
        return "round-over deadlock" if self.caller is None else f"round-over caller {self.caller}"
