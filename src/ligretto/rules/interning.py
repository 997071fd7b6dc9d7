"""Interned actions and events: one shared object per distinct value.

Actions and events are immutable values, so one object per distinct value
is shared by every round: building a frozen dataclass costs far more than a
dict lookup, and ``Round.legal_actions``/``Round.apply`` are the simulator's
inner loop. The keys are single integers packed from the round's internal
numbers — card codes (see :mod:`ligretto.rules.cards`), source numbers (row
positions 0–4, :data:`~ligretto.rules.layout.SRC_STACK`,
:data:`~ligretto.rules.layout.SRC_DISCARD`), seats and pile ids — since an
integer hashes and compares far faster than a tuple, compiled or not.

>>> play("ligretto", 0, SRC_STACK, -1) is play("ligretto", 0, SRC_STACK, -1)
True
>>> str(play("ligretto", 0, SRC_STACK, -1))
'play R1 stack new'
"""

from __future__ import annotations

from typing import Final

from ligretto.rules.actions import Play, Refill, Source, Store
from ligretto.rules.cards import CARDS, DeckKind
from ligretto.rules.events import CardPlayed, CardsTurned, Event, PileOpened, Recycled, RowRefilled
from ligretto.rules.layout import SRC_STACK

# Field widths of the packed keys (the pile id, unbounded, comes last):
# sources and row slots 0–6, codes 0–39, seats below 64 (R1: at most 16);
# the lowest bit tells the two decks apart.
_SRC: Final = 8
_CODE: Final = 64
_SEAT: Final = 64

__all__ = ["REFILLS", "play", "played", "recycled", "refilled", "store", "turned"]

_PLAYS: Final[dict[int, Play]] = {}
_STORES: Final[dict[int, Store]] = {}
#: ``Refill(slot)`` for every row position.
REFILLS: Final = tuple(Refill(slot) for slot in range(5))


def play(deck: DeckKind, code: int, src: int, pile: int) -> Play:
    """The interned ``Play``; ``pile == -1`` opens a new pile."""
    key = (((pile + 1) * _SRC + src) * _CODE + code) * 2 + (deck == "cards")
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
    key = ((slot * _SRC + src) * _CODE + code) * 2 + (deck == "cards")
    action = _STORES.get(key)
    if action is None:
        source = Source.STACK if src == SRC_STACK else Source.DISCARD
        action = _STORES[key] = Store(CARDS[deck][code], source, slot)
    return action


# Events are immutable too; the frequent ones are interned the same way,
# one table per kind.
_PLAYED: Final[dict[int, Event]] = {}
_TURNED: Final[dict[int, Event]] = {}
_REFILLED: Final[dict[int, Event]] = {}
_RECYCLED: Final[dict[int, Event]] = {}


def played(deck: DeckKind, seat: int, code: int, src: int, pile: int, opened: bool) -> Event:
    """The interned ``PileOpened`` (``opened``) or ``CardPlayed``."""
    key = (
        ((((pile * _SEAT + seat) * _SRC + src) * _CODE + code) * 2 + (deck == "cards")) * 2
    ) + opened
    event = _PLAYED.get(key)
    if event is None:
        card = CARDS[deck][code]
        if src < SRC_STACK:
            source, slot = Source.ROW, src
        else:
            source, slot = (Source.STACK if src == SRC_STACK else Source.DISCARD), None
        cls = PileOpened if opened else CardPlayed
        event = _PLAYED[key] = cls(seat, card, source, slot, pile)
    return event


def turned(deck: DeckKind, seat: int, count: int, code: int) -> Event:
    """The interned ``CardsTurned``: ``count`` cards, ``code`` now on top."""
    key = ((seat * 4 + count) * _CODE + code) * 2 + (deck == "cards")
    event = _TURNED.get(key)
    if event is None:
        event = _TURNED[key] = CardsTurned(seat, count, CARDS[deck][code])
    return event


def refilled(deck: DeckKind, seat: int, slot: int, code: int) -> Event:
    """The interned ``RowRefilled``."""
    key = ((seat * _SRC + slot) * _CODE + code) * 2 + (deck == "cards")
    event = _REFILLED.get(key)
    if event is None:
        event = _REFILLED[key] = RowRefilled(seat, slot, CARDS[deck][code])
    return event


def recycled(seat: int, count: int, shuffled: bool) -> Event:
    """The interned ``Recycled``: ``count`` discard cards became the hand (R3)."""
    key = (seat * _CODE + count) * 2 + shuffled
    event = _RECYCLED.get(key)
    if event is None:
        event = _RECYCLED[key] = Recycled(seat, count, shuffled)
    return event
