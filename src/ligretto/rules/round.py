"""One round of Ligretto (R2–R6): mutable state behind one atomic entry point.

``Round.apply(seat, action)`` first verifies everything and raises a
:class:`~ligretto.rules.errors.RuleError` without touching the state, then
changes the state and returns the events that happened. Randomness comes
only from the round's own ``random.Random(seed)``.

Inside, cards are small integers (see :mod:`ligretto.rules.cards`) and every
pile is a list with its top at the end, but for a seat's hand and discard
pile, which share one list (``_cycle``: turning moves no card). Indexes,
kept up to date by every action, make the inner loop cheap:

- ``_need[c]``: the ids (ascending) of open middle piles whose next card is
  code ``c``; ``_fitting[c]``: whether ``c`` fits the middle now (a 1
  always does). Whether a card fits is one lookup, never a scan of piles.
- ``_avail[c]`` / ``_fit``: how many cards with code ``c`` lie open (row
  tops, stack tops) or in a hand or discard pile, over all seats, and how
  many of those fit the middle now; ``_open[c]`` / ``_open_fit`` the same
  for open cards only. ``_fit == 0`` rules out every middle play at once,
  and with shuffled recycling ``_fit > 0`` rules out a deadlock: the R4
  test is O(1) in the usual case.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from math import floor
from typing import Any, Final

from mypy_extensions import mypyc_attr

from ligretto.rules.actions import (
    RECYCLE,
    STUCK,
    TURN,
    Action,
    Play,
    Recycle,
    Refill,
    Source,
    Store,
    Stuck,
    Turn,
)
from ligretto.rules.cards import CARDS, DECK_SIZE, Card, DeckKind
from ligretto.rules.deadlock import can_store, reachable, split_cycle_tops
from ligretto.rules.errors import (
    IllegalActionError,
    MalformedActionError,
    PileTakenError,
    RoundOverError,
    RuleError,
)
from ligretto.rules.events import (
    CardStored,
    Deadlock,
    Event,
    Reshuffled,
    RoundEnded,
)
from ligretto.rules.interning import REFILLS as _REFILLS
from ligretto.rules.interning import SOURCES, Tables, tables
from ligretto.rules.interning import closed as _closed
from ligretto.rules.interning import play as _play
from ligretto.rules.interning import played as _played
from ligretto.rules.interning import recycled as _recycled
from ligretto.rules.interning import refilled as _refilled
from ligretto.rules.interning import stopped as _stopped
from ligretto.rules.interning import store as _store
from ligretto.rules.interning import turned as _turned
from ligretto.rules.layout import PACKET, STACK_SIZE, check_deal, row_size
from ligretto.rules.layout import SRC_DISCARD as _DISCARD
from ligretto.rules.layout import SRC_STACK as _STACK
from ligretto.rules.layout import storable as _storable
from ligretto.rules.options import RuleOptions
from ligretto.rules.result import RoundResult, SeatResult, Termination, points
from ligretto.rules.snapshot import RoundState, from_snapshot, to_snapshot
from ligretto.rules.view import PileView, RowPositionView, SeatView, TableView

#: R4 ``reshuffle``: how often one deadlock may reshuffle before the table
#: gives up. With ``recycle_shuffle=False`` a fitting card can stay hidden by
#: the turning cycle after a reshuffle; each attempt shows it with a chance of
#: at least 1/3, so 64 attempts fail with probability below 1e-11.
RESHUFFLE_ATTEMPTS: Final = 64

#: The key of Round's private constructor (``Round(_CONSTRUCT)``).
_CONSTRUCT: Final = object()

#: A seat's 40 codes in order, shuffled into its deck (R2).
_DECK: Final = tuple(range(DECK_SIZE))
#: Which codes fit the middle before any pile is open: the 1s (R3).
_FITTING_AT_DEAL: Final = tuple(c % 10 == 0 for c in range(DECK_SIZE))

_NOT_A_SEATS_MOVE = (
    "'stuck' is the whole table's decision, not a seat's move (R4): Round.settle_stuck()"
)


def _shuffle(rand: Callable[[], float], cards: list[Any]) -> None:
    """Fisher–Yates shuffle driven by ``rand`` (a ``random.Random``'s ``random``).

    ``random.shuffle`` draws each index through ``_randbelow``, which costs
    2.5× more; shuffling (deal, recycling) is a sixth of a simulated round.
    The 53-bit floats make the bias far smaller than anything a table could
    notice. ``floor`` gives the index ``int`` would (the product is never
    negative) for a quarter fewer instructions in the pure build. The cards
    are typed ``Any`` so that the compiled build swaps them as objects
    instead of unboxing and boxing each integer.
    """
    for i in range(len(cards) - 1, 0, -1):
        j = floor(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


@mypyc_attr(allow_interpreted_subclasses=True)
class Round:
    """The state of one round. Build it with :meth:`deal`, :meth:`replay` or
    :meth:`from_snapshot`; change it only with :meth:`apply`.

    >>> r = Round.deal(players=4, seed=7)
    >>> r.row_size
    3
    >>> any(str(a) == "turn" for a in r.legal_actions(0))
    True
    """

    __slots__ = (
        "_auto_refill",
        "_avail",
        "_caller",
        "_cards",
        "_cycle",
        "_deadlock",
        "_deck",
        "_fit",
        "_fitting",
        "_log",
        "_middle",
        "_middle_view",
        "_moves",
        "_need",
        "_open",
        "_open_fit",
        "_options",
        "_over",
        "_pile_top",
        "_pile_views",
        "_piles",
        "_players",
        "_rand",
        "_reshuffle_mark",
        "_reshuffles",
        "_rng",
        "_row",
        "_row_size",
        "_seat_views",
        "_seats_view",
        "_seed",
        "_shuffle_recycled",
        "_split",
        "_stack",
        "_stale_piles",
        "_storage",
        "_tables",
        "_unfit_at",
    )

    _players: int
    _options: RuleOptions
    _deck: DeckKind
    _cards: tuple[Card, ...]
    _seed: int
    _rng: random.Random
    # Its bound ``random`` method, looked up once: every shuffle draws with it.
    _rand: Callable[[], float]
    _row_size: int
    _stack: list[list[int]]
    _row: list[list[list[int]]]
    # A seat's hand and discard pile in one list, split at _split[seat]:
    # cycle[:split] is the hand (bottom to top, so the next card to turn is
    # last) and cycle[split:] the discard pile read from its top down. R3
    # turning flips the hand's last three cards onto the discard pile, which
    # in this order leaves every card where it is: only the split moves.
    # Recycling (R3) picks the discard pile up in that same order, so the
    # split goes back to the end; with shuffled recycling it is shuffled.
    _cycle: list[list[int]]
    _split: list[int]
    _piles: list[list[int]]
    _pile_top: list[int]
    _need: list[list[int]]
    _avail: list[int]
    _fit: int
    _fitting: list[bool]
    _open: list[int]
    _open_fit: int
    _middle: list[int]
    _moves: int
    # Per seat, the _moves count at which none of its row and stack tops
    # fitted the middle: while no card moves (turning and recycling move
    # none to the middle or a row), none fits, and the queries skip them.
    _unfit_at: list[int]
    _log: list[tuple[int | None, Action]]
    _over: bool
    _caller: int | None
    _deadlock: bool
    _reshuffles: int
    _reshuffle_mark: int
    _auto_refill: bool
    _shuffle_recycled: bool
    _storage: bool
    # The interned plays and events by index (interning.Tables), shared
    # by every round with this deck.
    _tables: Tables
    # Cached parts of view(): rebuilt only for what changed since.
    _seat_views: list[SeatView | None]
    _seats_view: tuple[SeatView, ...] | None
    _pile_views: list[PileView]
    _stale_piles: list[int]
    _middle_view: tuple[PileView, ...] | None

    def __init__(self, key: object = None) -> None:
        # A private key instead of ``object.__new__``, which a compiled
        # (mypyc) class refuses.
        if key is not _CONSTRUCT:
            raise TypeError("use Round.deal(), Round.replay() or Round.from_snapshot()")

    # ------------------------------------------------------------------ setup

    @classmethod
    def _empty(cls, players: int, seed: int, options: RuleOptions) -> Round:
        check_deal(players, seed, options)
        self = cls(_CONSTRUCT)
        self._players = players
        self._options = options
        self._deck = options.deck
        self._cards = CARDS[options.deck]
        self._tables = tables(options.deck)
        self._seed = seed
        self._rng = random.Random(seed)
        self._rand = self._rng.random
        self._row_size = row_size(players)
        self._stack = [[] for _ in range(players)]
        self._row = [[[] for _ in range(self._row_size)] for _ in range(players)]
        self._cycle = [[] for _ in range(players)]
        self._split = [0] * players
        self._piles = []
        self._pile_top = []
        self._need = [[] for _ in range(DECK_SIZE)]
        self._avail = [0] * DECK_SIZE
        self._fit = 0
        self._fitting = list(_FITTING_AT_DEAL)
        self._open = [0] * DECK_SIZE
        self._open_fit = 0
        self._middle = [0] * players
        self._moves = 0
        self._unfit_at = [-1] * players
        self._log = []
        self._over = False
        self._caller = None
        self._deadlock = False
        self._reshuffles = 0
        self._reshuffle_mark = -1
        self._auto_refill = options.row_refill == "auto"
        self._shuffle_recycled = options.recycle_shuffle
        self._storage = options.row_storage
        self._seat_views = [None] * players
        self._seats_view = None
        self._pile_views = []
        self._stale_piles = []
        self._middle_view = None
        return self

    @classmethod
    def deal(
        cls,
        players: int,
        seed: int,
        options: RuleOptions | None = None,
        decks: Sequence[Sequence[int]] | None = None,
    ) -> Round:
        """R2 setup: every seat shuffles its own 40 cards (with the round's
        ``random.Random(seed)``), lays 10 face up as the Ligretto stack, the
        row (5/4/3 cards for 2/3/4+ players) and keeps the rest as the hand.

        ``decks`` (one list of card codes per seat) lays each seat's cards
        out as they come instead, in the order this deal lays its shuffled
        deck: the stack bottom to top, then the row left to right, then the
        hand bottom to top (its last card is turned first). The simulator
        deals so from decks carried over from the round before, and from
        two sets of cards per seat (a house rule; every card code may then
        appear twice). The seed still drives the round's later shuffles.
        """
        self = cls._empty(players, seed, options if options is not None else RuleOptions())
        if decks is not None:
            self._lay_out(decks)
            return self
        rand = self._rand
        size = self._row_size
        for seat in range(players):
            deck = list(_DECK)
            _shuffle(rand, deck)
            self._stack[seat] = deck[:STACK_SIZE]
            self._row[seat] = [[c] for c in deck[STACK_SIZE : STACK_SIZE + size]]
            self._cycle[seat] = deck[STACK_SIZE + size :]  # the hand; no discard yet
            self._split[seat] = DECK_SIZE - STACK_SIZE - size
        self._index_deal()
        self._settle_deadlock([])
        return self

    def _lay_out(self, decks: Sequence[Sequence[int]]) -> None:
        """:meth:`deal` from given decks: checked, laid out, indexed."""
        players = self._players
        size = self._row_size
        if len(decks) != players:
            raise MalformedActionError(f"{len(decks)} decks for {players} seats")
        for seat in range(players):
            deck = list(decks[seat])
            if len(deck) < STACK_SIZE + size or any(
                type(c) is not int or not 0 <= c < DECK_SIZE for c in deck
            ):
                raise MalformedActionError(
                    f"seat {seat}'s deck must hold at least {STACK_SIZE + size} card codes "
                    f"0–{DECK_SIZE - 1} (R2)"
                )
            self._stack[seat] = deck[:STACK_SIZE]
            self._row[seat] = [[c] for c in deck[STACK_SIZE : STACK_SIZE + size]]
            self._cycle[seat] = deck[STACK_SIZE + size :]
            self._split[seat] = len(deck) - STACK_SIZE - size
        self._reindex()
        self._settle_deadlock([])

    def _index_deal(self) -> None:
        """:meth:`_reindex` for a fresh deal, where it is simpler: no pile
        is open, so only the 1s fit, and every seat holds each code once:
        all count as available but the stack cards under the top."""
        players = self._players
        opened = [0] * DECK_SIZE
        avail = [players] * DECK_SIZE
        for seat in range(players):
            for cell in self._row[seat]:
                opened[cell[-1]] += 1
            stack = self._stack[seat]
            opened[stack[-1]] += 1
            for c in stack[:-1]:
                avail[c] -= 1
        self._open = opened
        self._avail = avail
        self._open_fit = sum(opened[::10])  # codes 0, 10, 20, 30: the 1s
        self._fit = sum(avail[::10])

    @classmethod
    def replay(
        cls,
        players: int,
        seed: int,
        options: RuleOptions | None,
        log: Iterable[tuple[int | None, Action | str]],
    ) -> Round:
        """Deal and apply every ``(seat, action)`` of ``log`` (actions or their
        text); the result equals the round that produced the log.

        ``(None, "stuck")`` — the entry :meth:`settle_stuck` logs — settles
        an agreed stall again; every other entry goes through :meth:`apply`.
        """
        self = cls.deal(players, seed, options)
        for seat, action in log:
            if isinstance(action, str):
                action = Action.parse(action)
            if seat is not None:
                self.apply(seat, action)
            elif type(action) is Stuck:
                self.settle_stuck()
            else:
                raise IllegalActionError(f"{action} needs a seat: only 'stuck' has none")
        return self

    def _reindex(self) -> None:
        """Rebuild ``_need``, ``_avail`` and ``_fit`` from the piles and seats."""
        self._tables.add_piles(len(self._pile_top))
        self._unfit_at = [-1] * self._players
        need: list[list[int]] = [[] for _ in range(DECK_SIZE)]
        for pile, top in enumerate(self._pile_top):
            if top % 10 != 9:
                need[top + 1].append(pile)
        opened = [0] * DECK_SIZE
        for seat in range(self._players):
            for cell in self._row[seat]:
                if cell:
                    opened[cell[-1]] += 1
            if self._stack[seat]:
                opened[self._stack[seat][-1]] += 1
        avail = opened[:]
        for seat in range(self._players):
            for c in self._cycle[seat]:
                avail[c] += 1
        self._need = need
        self._avail = avail
        self._fitting = [c % 10 == 0 or bool(need[c]) for c in range(DECK_SIZE)]
        self._open = opened
        self._open_fit = sum(n for c, n in enumerate(opened) if self._fitting[c])
        self._pile_views = []
        self._stale_piles = list(range(len(self._piles)))
        self._middle_view = None
        self._seat_views = [None] * self._players
        self._seats_view = None
        self._fit = sum(n for c, n in enumerate(avail) if c % 10 == 0 or need[c])

    # ------------------------------------------------------------ properties

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def seed(self) -> int:
        """The seed the round was dealt with."""
        return self._seed

    @property
    def options(self) -> RuleOptions:
        """The rule options of this round."""
        return self._options

    @property
    def row_size(self) -> int:
        """Row positions per seat (R2)."""
        return self._row_size

    @property
    def is_over(self) -> bool:
        """True after Ligretto Stop or a deadlock that ended the round (R4)."""
        return self._over

    @property
    def log(self) -> tuple[tuple[int | None, Action], ...]:
        """Every applied ``(seat, action)`` in order, for :meth:`replay`; an
        agreed stall (:meth:`settle_stuck`) is ``(None, STUCK)``."""
        return tuple(self._log)

    @property
    def reshuffles(self) -> int:
        """How many R4 reshuffles happened in this round."""
        return self._reshuffles

    # ---------------------------------------------------------------- reading

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self._players:
            raise IllegalActionError(f"no seat {seat!r}: seats are 0–{self._players - 1}")

    def _discard_top(self, seat: int) -> int:
        """The code of ``seat``'s discard top, ``-1`` for an empty pile."""
        cycle = self._cycle[seat]
        split = self._split[seat]
        return cycle[split] if split < len(cycle) else -1

    def _hand_cards(self, seat: int) -> list[int]:
        """``seat``'s hand, bottom to top (the next card to turn last); a new list."""
        return self._cycle[seat][: self._split[seat]]

    def _discard_cards(self, seat: int) -> list[int]:
        """``seat``'s discard pile, bottom to top; a new list."""
        return self._cycle[seat][self._split[seat] :][::-1]

    def fits(self, card: Card) -> bool:
        """Whether ``card`` fits somewhere in the middle now (a 1 always does)."""
        return card.deck == self._deck and (card.value == 1 or bool(self._need[card.code]))

    def piles_for(self, card: Card) -> list[int]:
        """Ids of the open middle piles that take ``card`` next (R3)."""
        return list(self._need[card.code]) if card.deck == self._deck else []

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now: plays to the middle first, then
        refills (manual, R3), row storage (R6), then turning or recycling."""
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if self._over:
            return []
        out: list[Action] = list(self._plays_now(seat))
        deck = self._deck
        row = self._row[seat]
        stack = self._stack[seat]
        cycle = self._cycle[seat]
        split = self._split[seat]
        if stack and not self._auto_refill:  # row_refill="manual"
            for slot, cell in enumerate(row):
                if not cell:
                    out.append(_REFILLS[slot])
        if self._storage:  # row_storage (R6)
            tops = ((_STACK, stack[-1] if stack else -1), (_DISCARD, self._discard_top(seat)))
            for src, c in tops:
                if c >= 0:
                    for slot, cell in enumerate(row):
                        if cell and _storable(c, cell[-1]):
                            out.append(_store(deck, c, src, slot))
        if split:
            out.append(TURN)
        elif cycle:
            out.append(RECYCLE)
        return out

    def plays(self, seat: int) -> list[Play]:
        """The plays to the middle among :meth:`legal_actions` (its first
        entries, in its order), without listing the rest (R3)."""
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if self._over:
            return []
        return self._plays_now(seat)

    def _plays_now(self, seat: int) -> list[Play]:
        """The seat's plays: row positions, stack top, discard top, each onto
        every pile that takes it (ascending ids), a 1 onto a new pile."""
        out: list[Play] = []
        if not self._fit:
            return out  # no card fits anywhere
        deck = self._deck
        need = self._need
        plays = self._tables.plays  # the interned plays by index, else made by _play
        for slot, cell in enumerate(self._row[seat]):
            if cell:
                c = cell[-1]
                if c % 10 == 0:
                    out.append(plays[0][slot * DECK_SIZE + c] or _play(deck, c, slot, -1))
                else:
                    for pile in need[c]:
                        out.append(
                            plays[pile + 1][slot * DECK_SIZE + c] or _play(deck, c, slot, pile)
                        )
        stack = self._stack[seat]
        if stack:
            c = stack[-1]
            if c % 10 == 0:
                out.append(plays[0][_STACK * DECK_SIZE + c] or _play(deck, c, _STACK, -1))
            else:
                for pile in need[c]:
                    out.append(
                        plays[pile + 1][_STACK * DECK_SIZE + c] or _play(deck, c, _STACK, pile)
                    )
        c = self._discard_top(seat)
        if c >= 0:
            if c % 10 == 0:
                out.append(plays[0][_DISCARD * DECK_SIZE + c] or _play(deck, c, _DISCARD, -1))
            else:
                for pile in need[c]:
                    out.append(
                        plays[pile + 1][_DISCARD * DECK_SIZE + c] or _play(deck, c, _DISCARD, pile)
                    )
        return out

    # Queries for a policy that takes the first fitting action: each returns
    # exactly the action it would have picked from legal_actions(seat), in
    # the same order, without listing the rest.

    def first_play(self, seat: int, order: tuple[Source, ...] | None = None) -> Play | None:
        """The first play to the middle from the first source in ``order``
        that has one, or ``None`` when none fits (R3).

        Within a source the play is the first that :meth:`legal_actions`
        lists; without ``order`` the list's own (row, stack, discard), so the
        result is the list's first play.
        """
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if self._over or not self._fit:
            return None  # _fit == 0: no card fits anywhere
        if order is None:
            action = self.first_action(seat)  # a play, if there is one, comes first
            return action if type(action) is Play else None
        fitting = self._fitting
        # No row or stack top of the seat fits: no open card fits at all,
        # or none of the seat's did and no card has moved since (_moves).
        closed = not self._open_fit or self._unfit_at[seat] == self._moves
        looked = 0  # bits: 1 the row, 2 the stack, looked at and nothing fits
        for source in order:
            if source is Source.ROW:
                if not closed:
                    for slot, cell in enumerate(self._row[seat]):
                        if cell and fitting[cell[-1]]:
                            return self._first_pile(cell[-1], slot)
                    looked |= 1
            elif source is Source.STACK:
                if not closed:
                    stack = self._stack[seat]
                    if stack and fitting[stack[-1]]:
                        return self._first_pile(stack[-1], _STACK)
                    looked |= 2
            else:
                c = self._discard_top(seat)
                if c >= 0 and fitting[c]:
                    return self._first_pile(c, _DISCARD)
        if looked == 3:
            self._unfit_at[seat] = self._moves
        return None

    def _first_pile(self, code: int, src: int) -> Play:
        """The play of a fitting ``code`` onto the lowest pile that takes it."""
        pile = -1 if code % 10 == 0 else self._need[code][0]  # a 1 opens a new pile
        return self._tables.plays[pile + 1][src * DECK_SIZE + code] or _play(
            self._deck, code, src, pile
        )

    def first_refill(self, seat: int) -> Refill | None:
        """The first manual refill of :meth:`legal_actions` (R3), or ``None``."""
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if self._over or self._auto_refill or not self._stack[seat]:
            return None
        for slot, cell in enumerate(self._row[seat]):
            if not cell:
                return _REFILLS[slot]
        return None

    def turn_or_recycle(self, seat: int) -> Action | None:
        """``turn`` while the hand holds cards, else ``recycle`` while the
        discard pile does (R3), else ``None``: the last entry of
        :meth:`legal_actions` when it is either."""
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if self._over:
            return None
        if self._split[seat]:
            return TURN
        if self._cycle[seat]:
            return RECYCLE
        return None

    # Queries for a strategy that weighs races: what every seat shows
    # openly (R3: only tops are playable), without building the views.

    def open_codes(self, seat: int) -> list[int]:
        """Codes of ``seat``'s open cards: its stack top, its discard top,
        then each row position's top; ``-1`` where there is none."""
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        stack = self._stack[seat]
        codes = [stack[-1] if stack else -1, self._discard_top(seat)]
        for cell in self._row[seat]:
            codes.append(cell[-1] if cell else -1)
        return codes

    def rival_codes(self, seat: int | None) -> set[int]:
        """Codes of the open cards of every seat but ``seat`` (all seats
        for ``None``): the cards the others could play now."""
        codes: set[int] = set()
        for other in range(self._players):
            if other == seat:
                continue
            stack = self._stack[other]
            if stack:
                codes.add(stack[-1])
            cycle = self._cycle[other]
            split = self._split[other]
            if split < len(cycle):
                codes.add(cycle[split])  # the discard top
            for cell in self._row[other]:
                if cell:
                    codes.add(cell[-1])
        return codes

    def open_pile_tops(self) -> set[int]:
        """Codes of the tops of the middle piles no 10 has closed (R3)."""
        return {top for top in self._pile_top if top % 10 != 9}

    def first_action(self, seat: int) -> Action | None:
        """The first entry of :meth:`legal_actions` that is no row-storage
        move (R6): the first play, else the first manual refill, else
        ``turn`` or ``recycle``; ``None`` when none is left.

        One query for a policy that takes the first fitting action (the
        benchmark's greedy one): ``first_play(seat) or first_refill(seat)
        or turn_or_recycle(seat)`` in one call.
        """
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if self._over:
            return None
        if self._fit:  # _fit == 0: no card fits anywhere
            fitting = self._fitting
            # _open_fit counts every seat's open cards that fit: at 0 no row
            # top or stack top fits, which spares the look; so does a look at
            # the same seat that found none since when no card has moved.
            if self._open_fit and self._unfit_at[seat] != self._moves:
                for slot, cell in enumerate(self._row[seat]):
                    if cell and fitting[cell[-1]]:
                        return self._first_pile(cell[-1], slot)
                stack = self._stack[seat]
                if stack and fitting[stack[-1]]:
                    return self._first_pile(stack[-1], _STACK)
                self._unfit_at[seat] = self._moves
            cycle = self._cycle[seat]
            split = self._split[seat]
            if split < len(cycle) and fitting[cycle[split]]:  # the discard top
                return self._first_pile(cycle[split], _DISCARD)
        if not self._auto_refill and self._stack[seat]:  # row_refill="manual"
            for slot, cell in enumerate(self._row[seat]):
                if not cell:
                    return _REFILLS[slot]
        if self._split[seat]:
            return TURN
        if self._cycle[seat]:
            return RECYCLE
        return None

    def race_lost(self, seat: int, action: Play) -> bool:
        """Whether :meth:`apply` would refuse ``action`` as a lost race (R3).

        True exactly when ``apply(seat, action)`` raises
        :class:`PileTakenError`: the card still lies where the play takes it
        from, but the named pile has moved on past it (someone was faster).
        Found without raising, for the simulator, which asks before it
        applies a play: a raised and caught error costs more than the play.
        """
        pile = action.pile
        if (
            pile is None
            or self._over
            or type(seat) is not int
            or not 0 <= seat < self._players
            or pile >= len(self._piles)
        ):
            return False
        card = action.card
        code = card.code
        top = self._pile_top[pile]
        if card.deck != self._deck or top + 1 == code or top // 10 != code // 10 or top < code:
            return False
        if action.source is Source.ROW:
            slot = action.slot
            if slot is None or slot >= self._row_size:
                return False
            cell = self._row[seat][slot]
        elif action.source is Source.STACK:
            cell = self._stack[seat]
        else:
            return self._discard_top(seat) == code
        return bool(cell) and cell[-1] == code

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` from ``seat`` now."""
        try:
            self._verify(seat, action)
        except RuleError:
            return False
        return True

    # ---------------------------------------------------------------- acting

    def apply(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply ``seat``'s ``action`` and return what happened.

        Raises :class:`RoundOverError` after the round ended (R4),
        :class:`PileTakenError` when the named pile has moved past the card (R3
        race), :class:`IllegalActionError` for anything else not allowed and
        :class:`MalformedActionError` for a value that is no action; in every
        case nothing changes: each branch verifies completely before it
        changes anything.
        """
        if self._over:
            raise RoundOverError("the round is over: nothing more is played (R4)")
        if type(seat) is not int or not 0 <= seat < self._players:
            self._check_seat(seat)
        if type(action) is Turn:
            # The most frequent action: in the usual case (a stack left, and
            # with shuffled recycling a card that fits somewhere, so no
            # deadlock, R4) nothing else happens, and it returns at once.
            split = self._split[seat]
            if not split:
                self._verify_turn(seat)  # raises
            # R3: up to three cards, flipped as one packet, so the third
            # ends on top; in _cycle's order no card moves (see there).
            k = PACKET if split >= PACKET else split
            split -= k
            self._split[seat] = split
            top = self._cycle[seat][split]
            event = self._tables.turned[(seat * 4 + k) * DECK_SIZE + top] or _turned(
                self._deck, seat, k, top
            )
            self._seat_views[seat] = None
            self._seats_view = None
            self._log.append((seat, action))
            if self._fit and self._shuffle_recycled and self._stack[seat]:
                return (event,)
            events: list[Event] = [event]
        elif type(action) is Play:
            # The other frequent one: usually the card goes to the middle and
            # nothing else happens (no 10 closes the pile, no gap to refill,
            # no Ligretto Stop or deadlock), and it returns at once as well.
            src = self._verify_play(seat, action)
            event = self._do_play(seat, action, src)
            self._seat_views[seat] = None
            self._seats_view = None
            self._log.append((seat, action))
            closes = action.card.code % 10 == 9
            refills = src < _STACK and self._auto_refill
            if (
                not closes
                and not refills
                and self._fit
                and self._shuffle_recycled
                and self._stack[seat]
            ):
                return (event,)
            events = [event]
            if closes and action.pile is not None:  # (a 10 is never a new pile)
                events.append(_closed(seat, action.pile))  # R3: a 10 closes it
            if refills and not self._row[seat][src]:
                self._refill(seat, src, events)  # R3: the gap takes the stack top
        else:
            events = []
            if type(action) is Recycle:
                self._verify_recycle(seat)
                self._do_recycle(seat, events)
            elif type(action) is Refill:
                self._verify_refill(seat, action.slot)
                self._refill(seat, action.slot, events)
                self._moves += 1
            elif type(action) is Store:
                self._verify_store(seat, action)
                self._do_store(seat, action, events)
            elif type(action) is Stuck:
                raise IllegalActionError(_NOT_A_SEATS_MOVE)
            else:
                raise MalformedActionError(f"not an action: {action!r}")
            self._seat_views[seat] = None
            self._seats_view = None
            self._log.append((seat, action))
        if not self._stack[seat]:
            # R4: the last stack card went to the middle or into the row.
            self._over = True
            self._caller = seat
            events += _stopped(seat)
        elif not self._fit or not self._shuffle_recycled:
            # With shuffled recycling a fitting card anywhere means no
            # deadlock (the usual case, decided above in O(1)).
            self._settle_deadlock(events)
        return tuple(events)

    def _verify(self, seat: int, action: Action) -> None:
        """Raise the right RuleError unless ``seat`` may take ``action`` now."""
        if self._over:
            raise RoundOverError("the round is over: nothing more is played (R4)")
        self._check_seat(seat)
        if type(action) is Play:
            self._verify_play(seat, action)
        elif type(action) is Turn:
            self._verify_turn(seat)
        elif type(action) is Recycle:
            self._verify_recycle(seat)
        elif type(action) is Refill:
            self._verify_refill(seat, action.slot)
        elif type(action) is Store:
            self._verify_store(seat, action)
        elif type(action) is Stuck:
            raise IllegalActionError(_NOT_A_SEATS_MOVE)
        else:
            raise MalformedActionError(f"not an action: {action!r}")

    def _source_code(self, seat: int, card: Card, source: Source, slot: int | None) -> int:
        """Check that ``card`` lies open at ``source``; return the internal source."""
        if card.deck != self._deck:
            raise IllegalActionError(f"{card} is not a card of the {self._deck} deck (R1)")
        code = card.code
        if source is Source.ROW:
            assert slot is not None
            if slot >= self._row_size:
                raise IllegalActionError(f"the row has positions 0–{self._row_size - 1} (R2)")
            cell = self._row[seat][slot]
            if not cell or cell[-1] != code:
                raise IllegalActionError(f"{card} is not on top of row position {slot}")
            return slot
        if source is Source.STACK:
            src, place = _STACK, self._stack[seat]
            top = place[-1] if place else -1
        else:
            src, top = _DISCARD, self._discard_top(seat)
        if top != code:
            raise IllegalActionError(f"{card} is not the top of your {source.value}")
        return src

    def _verify_play(self, seat: int, action: Play) -> int:
        card = action.card
        src = self._source_code(seat, card, action.source, action.slot)
        pile = action.pile
        if pile is None:
            return src  # a 1 opens a new pile at any time (R3); Play checks it is a 1
        if pile >= len(self._piles):
            raise IllegalActionError(f"there is no middle pile p{pile}")
        top = self._pile_top[pile]
        code = card.code
        if top + 1 == code:
            return src
        if top // 10 == code // 10 and top >= code:
            # R3 race: the pile was where the card fits, someone was faster.
            raise PileTakenError(f"p{pile} has moved on to {self._cards[top]}: someone was faster")
        raise IllegalActionError(f"{card} does not fit on p{pile} (top {self._cards[top]})")

    def _verify_turn(self, seat: int) -> None:
        if not self._split[seat]:
            raise IllegalActionError("the hand is empty: recycle the discard pile first (R3)")

    def _verify_recycle(self, seat: int) -> None:
        if self._split[seat]:
            raise IllegalActionError("recycling only when the hand is used up (R3)")
        if not self._cycle[seat]:
            raise IllegalActionError("no cards to recycle: hand and discard pile are empty")

    def _verify_refill(self, seat: int, slot: int) -> None:
        if self._auto_refill:
            raise IllegalActionError("row gaps are refilled automatically (row_refill='auto')")
        if slot >= self._row_size:
            raise IllegalActionError(f"the row has positions 0–{self._row_size - 1} (R2)")
        if self._row[seat][slot]:
            raise IllegalActionError(f"row position {slot} is not a gap")
        if not self._stack[seat]:
            raise IllegalActionError("the Ligretto stack is empty")

    def _verify_store(self, seat: int, action: Store) -> None:
        if not self._storage:
            raise IllegalActionError("row storage is off (R6 variant, option row_storage)")
        self._source_code(seat, action.card, action.source, None)
        slot = action.slot
        if slot >= self._row_size:
            raise IllegalActionError(f"the row has positions 0–{self._row_size - 1} (R2)")
        cell = self._row[seat][slot]
        if not cell:
            # Gaps belong to the Ligretto stack: they are filled by refilling.
            raise IllegalActionError(f"row position {slot} is a gap: only the stack refills it")
        if not _storable(action.card.code, cell[-1]):
            raise IllegalActionError(
                f"{action.card} cannot lie on {self._cards[cell[-1]]}: "
                "descending and never the same colour (R6)"
            )

    # The _do_* methods run after verification and cannot fail.

    def _hide(self, code: int) -> None:
        """An open card (row top, stack top) is covered."""
        self._avail[code] -= 1
        self._open[code] -= 1
        if self._fitting[code]:
            self._fit -= 1
            self._open_fit -= 1

    def _show(self, code: int) -> None:
        """A card becomes open (row top, stack top)."""
        self._avail[code] += 1
        self._open[code] += 1
        if self._fitting[code]:
            self._fit += 1
            self._open_fit += 1

    def _do_play(self, seat: int, action: Play, src: int) -> Event:
        """Move the card to the middle; return the event (closing the pile
        and refilling the gap are :meth:`apply`'s)."""
        code = action.card.code
        need = self._need
        avail = self._avail
        # Take the card from its place (it fitted, so it counted in _fit).
        avail[code] -= 1
        self._fit -= 1
        if src != _DISCARD:
            self._open[code] -= 1
            self._open_fit -= 1
        if src < _STACK:
            cell = self._row[seat][src]
            cell.pop()
            if cell:
                self._show(cell[-1])  # R6: the card beneath becomes playable
        elif src == _STACK:
            stack = self._stack[seat]
            stack.pop()
            if stack:
                self._show(stack[-1])
        else:
            del self._cycle[seat][self._split[seat]]  # the discard top
        # Put it on the middle pile; the needs index follows the pile's top.
        pile = action.pile
        if pile is None:
            pile = len(self._piles)
            if pile >= len(self._tables.played):
                self._tables.add_piles(pile + 1)
            self._piles.append([code | seat << 6])
            self._pile_top.append(code)
        else:
            self._piles[pile].append(code | seat << 6)
            self._pile_top[pile] = code
            waiting = need[code]
            waiting.remove(pile)
            if not waiting:
                self._fit -= avail[code]
                self._open_fit -= self._open[code]
                self._fitting[code] = False
        self._stale_piles.append(pile)
        if code % 10 != 9:  # a 10 closes the pile (R3): nothing comes next
            waiting = need[code + 1]
            if not waiting:
                self._fit += avail[code + 1]
                self._open_fit += self._open[code + 1]
                self._fitting[code + 1] = True
            # Keep pile ids ascending, so legal_actions lists them in the
            # same order however the piles got there.
            if not waiting or waiting[-1] < pile:
                waiting.append(pile)
            else:
                insort(waiting, pile)
        self._middle[seat] += 1
        self._moves += 1
        return self._tables.played[pile][(seat * SOURCES + src) * DECK_SIZE + code] or _played(
            self._deck, seat, code, src, pile, action.pile is None
        )

    def _refill(self, seat: int, slot: int, events: list[Event]) -> None:
        """R3: the gap takes the stack top (it stays open, so avail is unchanged)."""
        stack = self._stack[seat]
        if not stack:
            return
        code = stack.pop()
        self._row[seat][slot].append(code)
        if stack:
            self._show(stack[-1])
        index = (seat * SOURCES + slot) * DECK_SIZE + code
        events.append(self._tables.refilled[index] or _refilled(self._deck, seat, slot, code))

    def _do_recycle(self, seat: int, events: list[Event]) -> None:
        # Picked up face down: the first discarded card is turned first
        # again, which is the order the discard pile already has in _cycle.
        cycle = self._cycle[seat]
        if self._shuffle_recycled:
            _shuffle(self._rand, cycle)
        self._split[seat] = len(cycle)
        events.append(_recycled(seat, len(cycle), self._shuffle_recycled))

    def _do_store(self, seat: int, action: Store, events: list[Event]) -> None:
        code = action.card.code
        cell = self._row[seat][action.slot]
        self._hide(cell[-1])  # covered: no longer open
        cell.append(code)
        if action.source is Source.STACK:
            stack = self._stack[seat]
            stack.pop()
            if stack:
                self._show(stack[-1])
        else:
            del self._cycle[seat][self._split[seat]]  # the discard top
            self._open[code] += 1  # from the discard pile into the open row
            if self._fitting[code]:
                self._open_fit += 1
        self._moves += 1
        events.append(CardStored(seat, action.card, action.source, action.slot))

    # -------------------------------------------------------------- deadlock

    def is_deadlocked(self) -> bool:
        """R4: no seat has a playable card among row tops, stack top, discard
        top and every card further turning (and recycling) can bring up.

        Refilling a gap by hand (manual refill) and, with R6, putting a card
        into the row also count as playing: they move a card on, and the
        stack cards they uncover may fit.
        """
        if self._over:
            return False
        players = self._players
        if self._fit:
            if self._shuffle_recycled:
                return False
            # Without shuffling only the turning cycle's tops count; the
            # slicing and map() keep this loop in C for the most part.
            if self._open_fit:
                return False  # a row top or stack top fits
            fitting = self._fitting.__getitem__
            for seat in range(players):
                if any(map(fitting, split_cycle_tops(self._cycle[seat], self._split[seat]))):
                    return False
        if not self._auto_refill:
            for seat in range(players):
                if self._stack[seat] and not all(self._row[seat]):
                    return False
        if self._storage:
            shuffled = self._shuffle_recycled
            for seat in range(players):
                stack = self._stack[seat]
                row = self._row[seat]
                candidates = reachable(self._cycle[seat], self._split[seat], shuffled)
                if stack:
                    candidates.append(stack[-1])
                if any(can_store(row, c) for c in candidates):
                    return False
        return True

    def _reshuffle_can_help(self) -> bool:
        """R4: some hand or discard card fits the middle (or, R6, the own row)."""
        fitting = self._fitting
        storage = self._storage
        for seat in range(self._players):
            row = self._row[seat]
            for c in self._cycle[seat]:
                if fitting[c] or (storage and can_store(row, c)):
                    return True
        return False

    def _settle_deadlock(self, events: list[Event]) -> None:
        """After every action: detect a deadlock and resolve it per the option (R4).

        ``reshuffle`` cannot loop forever: a table reshuffles again only after
        a card has moved (to the middle or into a row) since its last
        reshuffle, and every card moves at most twice, so a round has at most
        ``2 × 40 × players + 1`` reshuffles.
        """
        if (self._fit and self._shuffle_recycled) or not self.is_deadlocked():
            return
        events.append(Deadlock())
        self._resolve_deadlock(events)

    def _resolve_deadlock(self, events: list[Event]) -> None:
        """R4's ``deadlock`` option: reshuffle every hand when that can help
        and a card has moved since the last reshuffle, else end the round."""
        if (
            self._options.deadlock == "reshuffle"
            and self._moves != self._reshuffle_mark
            and self._reshuffle_can_help()
        ):
            self._reshuffles += 1
            self._reshuffle_mark = self._moves
            events.append(Reshuffled(self._reshuffles))
            for _ in range(RESHUFFLE_ATTEMPTS):
                for seat in range(self._players):
                    # The hand upside down, then the discard pile (its
                    # bottom first): each part of _cycle reversed.
                    cycle = self._cycle[seat]
                    split = self._split[seat]
                    cards = cycle[:split][::-1] + cycle[split:][::-1]
                    _shuffle(self._rand, cards)
                    self._cycle[seat] = cards
                    self._split[seat] = len(cards)
                self._seat_views = [None] * self._players
                self._seats_view = None
                if not self.is_deadlocked():
                    return
        self._over = True
        self._deadlock = True
        events.append(RoundEnded(None, True))

    def settle_stuck(self) -> tuple[Event, ...]:
        """R4: the table agreed that it is stuck; settle it like a deadlock.

        For a stall the deadlock test does not see: no card goes to the
        middle, yet some move remains (with R6, a card that could go into a
        row) that nobody makes. The table — every person present, or a
        table without people by itself — decides that the round is stuck;
        this applies R4's ``deadlock`` option exactly as for a detected
        deadlock: ``end`` ends the round without a caller, scored as it
        lies (``Termination.DEADLOCK``); ``reshuffle`` reshuffles every
        hand and discard pile and play goes on — unless reshuffling cannot
        help or no card has moved since the last reshuffle, and then the
        round ends as with ``end``.

        Returns the events of a detected deadlock: ``Deadlock`` and then
        ``Reshuffled`` or ``RoundEnded`` (what the table sees is the same;
        the log tells the two apart).
        Raises :class:`RoundOverError` (changing nothing) when the round is
        over. Logged as ``(None, STUCK)``, so :meth:`replay` repeats it.

        >>> r = Round.deal(players=2, seed=5)
        >>> [str(e) for e in r.settle_stuck()], r.result().termination
        (['deadlock', 'round-over deadlock'], <Termination.DEADLOCK: 'deadlock'>)
        """
        if self._over:
            raise RoundOverError("the round is over: nothing more is played (R4)")
        events: list[Event] = [Deadlock()]
        self._log.append((None, STUCK))
        self._resolve_deadlock(events)
        return tuple(events)

    # --------------------------------------------------------------- results

    def result(self) -> RoundResult:
        """How the round ended (R4; ``None`` while it runs) and the R5 counts
        and points per seat; ``over`` says whether they are final."""
        termination = None
        if self._over:
            termination = Termination.DEADLOCK if self._deadlock else Termination.STOP
        return RoundResult(
            termination=termination,
            caller=self._caller,
            seats=tuple(
                SeatResult(
                    seat,
                    self._middle[seat],
                    len(self._stack[seat]),
                    points(self._middle[seat], len(self._stack[seat])),
                )
                for seat in range(self._players)
            ),
        )

    def view(self, seat: int | None = None) -> TableView:
        """What the person at ``seat`` (or a watcher, ``None``) sees (R3).

        Cheap to call often: the seat and pile parts are immutable and cached
        until an action changes them, so a view costs little more than
        ``legal_actions(seat)``.
        """
        if seat is not None:
            self._check_seat(seat)
        return TableView(
            viewer=seat,
            players=self._players,
            options=self._options,
            middle=self._middle_tuple(),
            seats=self._seats_tuple(),
            is_over=self._over,
            caller=self._caller,
            deadlock=self._deadlock,
            actions=tuple(self.legal_actions(seat)) if seat is not None else (),
        )

    def _middle_tuple(self) -> tuple[PileView, ...]:
        if self._stale_piles or self._middle_view is None:
            cards = self._cards
            views = self._pile_views
            for pile in self._stale_piles:
                top = self._pile_top[pile]
                pv = PileView(
                    pile,
                    cards[top].colour,
                    cards[top],
                    len(self._piles[pile]),
                    top % 10 == 9,
                )
                if pile < len(views):
                    views[pile] = pv
                else:
                    views.append(pv)
            self._stale_piles = []
            self._middle_view = tuple(views)
        return self._middle_view

    def _seats_tuple(self) -> tuple[SeatView, ...]:
        if self._seats_view is None:
            views = self._seat_views
            for s in range(self._players):
                if views[s] is None:
                    views[s] = self._seat_view(s)
            self._seats_view = tuple(v for v in views if v is not None)
        return self._seats_view

    def _seat_view(self, s: int) -> SeatView:
        cards = self._cards
        stack = self._stack[s]
        top = self._discard_top(s)
        hand = self._split[s]
        return SeatView(
            seat=s,
            stack_top=cards[stack[-1]] if stack else None,
            stack_count=len(stack),
            row=tuple(
                RowPositionView(cards[cell[-1]] if cell else None, len(cell))
                for cell in self._row[s]
            ),
            discard_top=cards[top] if top >= 0 else None,
            discard_count=len(self._cycle[s]) - hand,
            hand_count=hand,
            middle_count=self._middle[s],
        )

    # ------------------------------------------------------ copy and snapshot

    def copy(self, seed: int | None = None) -> Round:
        """An independent copy. With ``seed`` the copy's future shuffles come
        from a fresh ``random.Random(seed)`` (a bot simulating ahead should
        not learn the real round's shuffles); otherwise they repeat the
        original's."""
        other = Round(_CONSTRUCT)
        other._players = self._players
        other._options = self._options
        other._deck = self._deck
        other._cards = self._cards
        other._tables = self._tables
        other._seed = self._seed
        other._rng = random.Random()
        if seed is None:
            other._rng.setstate(self._rng.getstate())
        else:
            other._rng.seed(seed)
        other._rand = other._rng.random
        other._row_size = self._row_size
        other._stack = [s[:] for s in self._stack]
        other._row = [[cell[:] for cell in row] for row in self._row]
        other._cycle = [c[:] for c in self._cycle]
        other._split = self._split[:]
        other._piles = [p[:] for p in self._piles]
        other._pile_top = self._pile_top[:]
        other._need = [n[:] for n in self._need]
        other._avail = self._avail[:]
        other._fit = self._fit
        other._fitting = self._fitting[:]
        other._open = self._open[:]
        other._open_fit = self._open_fit
        other._middle = self._middle[:]
        other._moves = self._moves
        other._unfit_at = self._unfit_at[:]
        other._log = self._log[:]
        other._over = self._over
        other._caller = self._caller
        other._deadlock = self._deadlock
        other._reshuffles = self._reshuffles
        other._reshuffle_mark = self._reshuffle_mark
        other._auto_refill = self._auto_refill
        other._shuffle_recycled = self._shuffle_recycled
        other._storage = self._storage
        other._seat_views = self._seat_views[:]
        other._seats_view = self._seats_view
        other._pile_views = self._pile_views[:]
        other._stale_piles = self._stale_piles[:]
        other._middle_view = self._middle_view
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Round:
        # copy() is the deep copy; the default one would keep _rand, a
        # builtin method that deepcopy does not copy, bound to this round's
        # generator. Pickling rebinds it to the restored generator.
        return self.copy()

    def snapshot(self) -> dict[str, Any]:
        """The full state as plain JSON-ready data (see docs/rules-engine.md
        and :mod:`ligretto.rules.snapshot`).

        Every pile lists its cards bottom to top, so the last card is the
        top (for the hand: the next card to be turned).
        """
        return to_snapshot(self._state())

    def _state(self) -> RoundState:
        """The state as a record; it shares some of this round's lists (read it at once)."""
        seats = range(self._players)
        return RoundState(
            players=self._players,
            seed=self._seed,
            options=self._options,
            stack=self._stack,
            row=self._row,
            hand=[self._hand_cards(s) for s in seats],
            discard=[self._discard_cards(s) for s in seats],
            piles=self._piles,
            over=self._over,
            caller=self._caller,
            deadlock=self._deadlock,
            reshuffles=self._reshuffles,
            moves=self._moves,
            reshuffle_mark=self._reshuffle_mark,
            actions=len(self._log),
        )

    @classmethod
    def from_snapshot(
        cls,
        data: Mapping[str, Any],
        *,
        seed: int | None = None,
        fill_hand: bool = False,
    ) -> Round:
        """Build a round from :meth:`snapshot` data — or from a hand-made layout.

        Future shuffles come from ``random.Random(seed)`` (default: the
        snapshot's seed). With ``fill_hand=True`` a seat may leave out
        cards: the missing ones go under its hand in card order, which makes
        constructed positions short to write. The layout is checked (see
        :func:`ligretto.rules.snapshot.from_snapshot`): each seat holds each
        of its 40 cards exactly once (in its places or in the middle), the
        row has the R2 size, and every middle pile is one colour ascending
        from 1. The log starts empty. If the position is a deadlock, it is
        resolved at once (R4).
        """
        state = from_snapshot(data, seed=seed, fill_hand=fill_hand)
        self = cls._empty(state.players, state.seed, state.options)
        self._stack = state.stack
        self._row = state.row
        self._cycle = [
            hand + discard[::-1] for hand, discard in zip(state.hand, state.discard, strict=True)
        ]
        self._split = [len(hand) for hand in state.hand]
        middle = self._middle
        for entries in state.piles:
            for entry in entries:
                middle[entry >> 6] += 1
            self._piles.append(entries)
            self._pile_top.append(entries[-1] & 63)
        self._over = state.over
        self._caller = state.caller
        self._deadlock = state.deadlock
        self._reshuffles = state.reshuffles
        self._moves = state.moves
        self._reshuffle_mark = state.reshuffle_mark
        self._reindex()
        if not self._over:
            self._settle_deadlock([])
        return self

    def __repr__(self) -> str:
        state = "over" if self._over else "running"
        return f"<Round players={self._players} seed={self._seed} {state} actions={len(self._log)}>"
