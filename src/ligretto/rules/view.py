"""What one person sees at the table (R3: other players' cards are private).

A view shows every seat's open cards — the stack top, the row (the top of
each position and, with R6 row storage, how deep it is), the discard top —
and counts, plus the middle piles. It never shows hand order, the cards
under a stack top or under a discard top. ``viewer=None`` is a watcher.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ligretto.rules.actions import Action, Play, Recycle, Source, Turn
from ligretto.rules.cards import Card, Colour
from ligretto.rules.options import RuleOptions
from ligretto.rules.values import FrozenValue


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


@dataclass(frozen=True, slots=True)
class PileView(FrozenValue):
    """A middle pile: its id, colour, top card and size; closed after its 10."""

    id: int
    colour: Colour
    top: Card
    count: int
    closed: bool

    @property
    def needs(self) -> Card | None:
        """The card this pile takes next (R3), ``None`` once a 10 closed it."""
        return None if self.closed else Card(self.top.colour, self.top.value + 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "colour": self.colour.value,
            "top": str(self.top),
            "count": self.count,
            "closed": self.closed,
        }


@dataclass(frozen=True, slots=True)
class RowPositionView(FrozenValue):
    """One row position: its top card (``None`` for a gap) and how many cards lie there."""

    top: Card | None
    depth: int

    def to_dict(self) -> dict[str, Any]:
        return {"top": _card(self.top), "depth": self.depth}


@dataclass(frozen=True, slots=True)
class SeatView(FrozenValue):
    """One seat's open cards and counts, as anybody at the table sees them."""

    seat: int
    stack_top: Card | None
    stack_count: int
    row: tuple[RowPositionView, ...]
    discard_top: Card | None
    discard_count: int
    hand_count: int
    middle_count: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "stack_top": _card(self.stack_top),
            "stack_count": self.stack_count,
            "row": [p.to_dict() for p in self.row],
            "discard_top": _card(self.discard_top),
            "discard_count": self.discard_count,
            "hand_count": self.hand_count,
            "middle_count": self.middle_count,
        }


@dataclass(frozen=True, slots=True)
class TableView(FrozenValue):
    """The table as seen from ``viewer`` (a seat, or ``None`` for a watcher).

    ``actions`` are the viewer's legal actions (empty for a watcher or when
    the round is over); ``plays`` is the subset that plays to the middle —
    a bot can decide from this view alone.
    """

    viewer: int | None
    players: int
    options: RuleOptions
    middle: tuple[PileView, ...]
    seats: tuple[SeatView, ...]
    is_over: bool
    caller: int | None
    deadlock: bool
    actions: tuple[Action, ...]

    @property
    def plays(self) -> tuple[Play, ...]:
        """The viewer's legal plays to the middle."""
        return tuple(a for a in self.actions if isinstance(a, Play))

    def first_play(self, order: tuple[Source, ...]) -> Play | None:
        """The viewer's first legal play from the first source in ``order``
        that has one (within a source, in the order of ``actions``)."""
        for source in order:
            for action in self.actions:
                if type(action) is Play and action.source is source:
                    return action
        return None

    def turn_or_recycle(self) -> Action | None:
        """The viewer's ``turn`` or ``recycle`` among ``actions``, if any (R3)."""
        for action in self.actions:
            if type(action) is Turn or type(action) is Recycle:
                return action
        return None

    def open_codes(self, seat: int) -> list[int]:
        """Codes of ``seat``'s open cards: stack top, discard top, then each
        row position's top; ``-1`` where there is none."""
        view = self.seats[seat]
        cards = (view.stack_top, view.discard_top, *[p.top for p in view.row])
        return [-1 if card is None else card.code for card in cards]

    def rival_codes(self) -> set[int]:
        """Codes of the open cards of every seat but the viewer's."""
        codes: set[int] = set()
        for seat in self.seats:
            if seat.seat != self.viewer:
                codes.update(c for c in self.open_codes(seat.seat) if c >= 0)
        return codes

    def open_pile_tops(self) -> set[int]:
        """Codes of the tops of the middle piles no 10 has closed (R3)."""
        return {pile.top.code for pile in self.middle if not pile.closed}

    @property
    def me(self) -> SeatView | None:
        """The viewer's own seat (``None`` for a watcher)."""
        return None if self.viewer is None else self.seats[self.viewer]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (cards as text such as ``"R5"``, actions as their text)."""
        return {
            "viewer": self.viewer,
            "players": self.players,
            "options": self.options.to_dict(),
            "middle": [p.to_dict() for p in self.middle],
            "seats": [s.to_dict() for s in self.seats],
            "is_over": self.is_over,
            "caller": self.caller,
            "deadlock": self.deadlock,
            "actions": [str(a) for a in self.actions],
        }
