"""Interned actions and events: one shared object per distinct value.

Actions and events are immutable values, so one object per distinct value
is shared by every round: building a frozen dataclass costs far more than a
dict lookup, and ``Round.legal_actions``/``Round.apply`` are the simulator's
inner loop. The keys use the round's internal numbers: card codes (see
:mod:`ligretto.rules.cards`) and source numbers (row positions 0–4,
:data:`~ligretto.rules.layout.SRC_STACK`,
:data:`~ligretto.rules.layout.SRC_DISCARD`).

>>> play("ligretto", 0, SRC_STACK, -1) is play("ligretto", 0, SRC_STACK, -1)
True
>>> str(play("ligretto", 0, SRC_STACK, -1))
'play R1 stack new'
"""

from __future__ import annotations

from ligretto.rules.actions import Play, Refill, Source, Store
from ligretto.rules.cards import CARDS, DeckKind
from ligretto.rules.events import CardPlayed, CardsTurned, Event, PileOpened, RowRefilled
from ligretto.rules.layout import SRC_STACK

__all__ = ["REFILLS", "play", "played", "refilled", "store", "turned"]

_PLAYS: dict[tuple[DeckKind, int, int, int], Play] = {}
_STORES: dict[tuple[DeckKind, int, int, int], Store] = {}
#: ``Refill(slot)`` for every row position.
REFILLS = tuple(Refill(slot) for slot in range(5))


def play(deck: DeckKind, code: int, src: int, pile: int) -> Play:
    """The interned ``Play``; ``pile == -1`` opens a new pile."""
    key = (deck, code, src, pile)
    action = _PLAYS.get(key)
    if action is None:
        card = CARDS[deck][code]
        if src < SRC_STACK:
            action = Play(card, Source.ROW, src, None if pile < 0 else pile)
        else:
            source = Source.STACK if src == SRC_STACK else Source.DISCARD
            action = Play(card, source, None, None if pile < 0 else pile)
        _PLAYS[key] = action
    return action


def store(deck: DeckKind, code: int, src: int, slot: int) -> Store:
    """The interned ``Store`` (R6) of the stack or discard top onto row ``slot``."""
    key = (deck, code, src, slot)
    action = _STORES.get(key)
    if action is None:
        source = Source.STACK if src == SRC_STACK else Source.DISCARD
        action = _STORES[key] = Store(CARDS[deck][code], source, slot)
    return action


# Events are immutable too; the frequent ones are interned the same way.
_EVENTS: dict[tuple[object, ...], Event] = {}


def played(deck: DeckKind, seat: int, code: int, src: int, pile: int, opened: bool) -> Event:
    """The interned ``PileOpened`` (``opened``) or ``CardPlayed``."""
    key = (deck, seat, code, src, pile, opened)
    event = _EVENTS.get(key)
    if event is None:
        card = CARDS[deck][code]
        if src < SRC_STACK:
            source, slot = Source.ROW, src
        else:
            source, slot = (Source.STACK if src == SRC_STACK else Source.DISCARD), None
        cls = PileOpened if opened else CardPlayed
        event = _EVENTS[key] = cls(seat, card, source, slot, pile)
    return event


def turned(deck: DeckKind, seat: int, count: int, code: int) -> Event:
    """The interned ``CardsTurned``: ``count`` cards, ``code`` now on top."""
    key = (deck, seat, count, code)
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = CardsTurned(seat, count, CARDS[deck][code])
    return event


def refilled(deck: DeckKind, seat: int, slot: int, code: int) -> Event:
    """The interned ``RowRefilled``."""
    key = (deck, seat, slot, code, "refill")
    event = _EVENTS.get(key)
    if event is None:
        event = _EVENTS[key] = RowRefilled(seat, slot, CARDS[deck][code])
    return event
