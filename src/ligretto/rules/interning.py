"""Interned actions and events: one shared object per distinct value.

Actions and events are immutable values, so one object per distinct value
is shared by every round: building a frozen dataclass costs far more than a
dict lookup, and ``Round.legal_actions``/``Round.apply`` are the simulator's
inner loop. The keys are single integers packed from the round's internal
numbers — card codes (see :mod:`ligretto.rules.cards`), source numbers (row
positions 0–4, :data:`~ligretto.rules.layout.SRC_STACK`,
:data:`~ligretto.rules.layout.SRC_DISCARD`), seats and pile ids — since an
integer hashes and compares far faster than a tuple, compiled or not.

The most frequent ones — plays, played cards, turned packets and refills,
one or two per action — are also kept in tables by plain list index
(:func:`tables`), which ``Round`` reads without hashing or a call; a
missing entry is made by the function of its kind, which fills the table.

>>> play("ligretto", 0, SRC_STACK, -1) is play("ligretto", 0, SRC_STACK, -1)
True
>>> str(play("ligretto", 0, SRC_STACK, -1))
'play R1 stack new'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ligretto.rules.actions import Play, Refill, Source, Store
from ligretto.rules.cards import CARDS, DECK_SIZE, DeckKind
from ligretto.rules.events import (
    CardPlayed,
    CardsTurned,
    Event,
    LigrettoStop,
    PileClosed,
    PileOpened,
    Recycled,
    RoundEnded,
    RowRefilled,
)
from ligretto.rules.layout import SRC_STACK
from ligretto.rules.options import MAX_PLAYERS

# Field widths of the packed keys (the pile id, unbounded, comes last):
# sources and row slots 0–6, codes 0–39; the lowest bit tells the two
# decks apart.
_SRC: Final = 8
_CODE: Final = 64
#: Source numbers per seat in the tables' indexes (row 0–4, stack, discard).
SOURCES: Final = _SRC

__all__ = [
    "REFILLS",
    "SOURCES",
    "Tables",
    "closed",
    "play",
    "played",
    "recycled",
    "refilled",
    "stopped",
    "store",
    "tables",
    "turned",
]

_STORES: Final[dict[int, Store]] = {}
#: ``Refill(slot)`` for every row position.
REFILLS: Final = tuple(Refill(slot) for slot in range(5))


# The tables' strides: codes 0–39 and seats below 16 (R1), sources as above.
_T_CODE: Final = DECK_SIZE
_T_SEAT: Final = MAX_PLAYERS
#: Entries per pile row: every source and code.
_PER_PILE: Final = _SRC * _T_CODE


class Tables:
    """One deck's tables of interned values, by list index (``None``: not made yet).

    - ``plays[pile + 1][src * 40 + code]``: the ``Play`` (pile ``-1``: a new one);
    - ``played[pile][(seat * 8 + src) * 40 + code]``: its ``CardPlayed`` or
      ``PileOpened``;
    - ``turned[(seat * 4 + count) * 40 + code]``: the ``CardsTurned``;
    - ``refilled[(seat * 8 + slot) * 40 + code]``: the ``RowRefilled``.

    The pile rows grow with the highest pile id any round has opened
    (:meth:`add_piles`): a round asks for them when it opens a pile.
    """

    __slots__ = ("deck", "played", "plays", "refilled", "turned")

    def __init__(self, deck: DeckKind) -> None:
        self.deck: DeckKind = deck
        self.plays: list[list[Play | None]] = [[None] * _PER_PILE]
        self.played: list[list[Event | None]] = []
        self.turned: list[Event | None] = [None] * (_T_SEAT * 4 * _T_CODE)
        self.refilled: list[Event | None] = [None] * (_T_SEAT * _SRC * _T_CODE)

    def __reduce__(self) -> tuple[Callable[[DeckKind], Tables], tuple[DeckKind]]:
        # A pickled or deep-copied round refers to its deck's shared tables.
        return tables, (self.deck,)

    def add_piles(self, piles: int) -> None:
        """Rows for pile ids below ``piles`` (a no-op when they are there)."""
        while len(self.played) < piles:
            self.plays.append([None] * _PER_PILE)
            self.played.append([None] * (_T_SEAT * _PER_PILE))


_TABLES: Final[dict[str, Tables]] = {deck: Tables(deck) for deck in CARDS}


def tables(deck: DeckKind) -> Tables:
    """The tables of ``deck``, shared by every round with that deck."""
    return _TABLES[deck]


def play(deck: DeckKind, code: int, src: int, pile: int) -> Play:
    """The interned ``Play``; ``pile == -1`` opens a new pile."""
    table = _TABLES[deck]
    table.add_piles(pile + 1)
    row = table.plays[pile + 1]
    action = row[src * _T_CODE + code]
    if action is None:
        card = CARDS[deck][code]
        if src < SRC_STACK:
            action = Play(card, Source.ROW, src, None if pile < 0 else pile)
        else:
            source = Source.STACK if src == SRC_STACK else Source.DISCARD
            action = Play(card, source, None, None if pile < 0 else pile)
        row[src * _T_CODE + code] = action
    return action


def store(deck: DeckKind, code: int, src: int, slot: int) -> Store:
    """The interned ``Store`` (R6) of the stack or discard top onto row ``slot``."""
    key = ((slot * _SRC + src) * _CODE + code) * 2 + (deck == "cards")
    action = _STORES.get(key)
    if action is None:
        source = Source.STACK if src == SRC_STACK else Source.DISCARD
        action = _STORES[key] = Store(CARDS[deck][code], source, slot)
    return action


# Events are immutable too; the rare kinds are interned by packed key.
_RECYCLED: Final[dict[int, Event]] = {}


def played(deck: DeckKind, seat: int, code: int, src: int, pile: int, opened: bool) -> Event:
    """The interned ``PileOpened`` (``opened``: a 1, R3) or ``CardPlayed``."""
    table = _TABLES[deck]
    table.add_piles(pile + 1)
    row = table.played[pile]
    index = (seat * _SRC + src) * _T_CODE + code
    event = row[index]
    if event is None:
        card = CARDS[deck][code]
        if src < SRC_STACK:
            source, slot = Source.ROW, src
        else:
            source, slot = (Source.STACK if src == SRC_STACK else Source.DISCARD), None
        cls = PileOpened if opened else CardPlayed
        event = row[index] = cls(seat, card, source, slot, pile)
    return event


def turned(deck: DeckKind, seat: int, count: int, code: int) -> Event:
    """The interned ``CardsTurned``: ``count`` cards, ``code`` now on top."""
    row = _TABLES[deck].turned
    index = (seat * 4 + count) * _T_CODE + code
    event = row[index]
    if event is None:
        event = row[index] = CardsTurned(seat, count, CARDS[deck][code])
    return event


def refilled(deck: DeckKind, seat: int, slot: int, code: int) -> Event:
    """The interned ``RowRefilled``."""
    row = _TABLES[deck].refilled
    index = (seat * _SRC + slot) * _T_CODE + code
    event = row[index]
    if event is None:
        event = row[index] = RowRefilled(seat, slot, CARDS[deck][code])
    return event


def recycled(seat: int, count: int, shuffled: bool) -> Event:
    """The interned ``Recycled``: ``count`` discard cards became the hand (R3)."""
    key = (seat * _CODE + count) * 2 + shuffled
    event = _RECYCLED.get(key)
    if event is None:
        event = _RECYCLED[key] = Recycled(seat, count, shuffled)
    return event


_CLOSED: Final[dict[int, Event]] = {}


def closed(seat: int, pile: int) -> Event:
    """The interned ``PileClosed``: ``seat``'s 10 closed ``pile`` (R3)."""
    key = pile * MAX_PLAYERS + seat
    event = _CLOSED.get(key)
    if event is None:
        event = _CLOSED[key] = PileClosed(seat, pile)
    return event


#: Per seat, ``LigrettoStop`` and ``RoundEnded`` of a round that seat ended (R4).
_STOPPED: Final = tuple(
    (LigrettoStop(seat), RoundEnded(seat, False)) for seat in range(MAX_PLAYERS)
)


def stopped(seat: int) -> tuple[Event, Event]:
    """The two events of ``seat`` calling Ligretto Stop (R4), interned."""
    return _STOPPED[seat]
