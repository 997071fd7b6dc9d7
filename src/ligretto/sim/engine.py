"""Discrete-event simulation of a round in virtual time (R3's races included).

Every seat is driven by a :class:`~ligretto.bots.Bot`. When a seat is free
it looks at its view (``round.view(seat)``), its bot picks an action and
draws how long a person of its level needs for it; the action is scheduled
at ``now + delay``. Each seat has exactly one thing scheduled at a time, so
the table's event queue is a slot per seat (the next due is the earliest,
ties in the order they were scheduled).
Actions are applied in time order against the round *as it is then*: if a
faster seat has meanwhile put a card on the named pile, the engine refuses
the move with ``PileTakenError`` and the card stays where it was — the race of R3,
lost exactly as at a real table. The loser looks again.

A bot may also wait (no legal action, or ``watchful`` watching for a pile
to move): the seat looks again after a notice time, or at once when a card
lands in the middle. An R4 reshuffle voids every decision taken before it.

A table of bots has a stall guard: when no card has gone to the middle for
``RoundLimits.stuck_after`` virtual seconds, the table agrees that it is
stuck and settles the round with ``Round.settle_stuck`` (R4's ``deadlock``
option: the round ends, or every hand is reshuffled and play goes on). With
row storage (R6) a table can otherwise play on for ever: a card could still
go into a row, so R4 sees no deadlock, but nobody puts it there.
Everything random — the deal, the bots' choices and their times — follows
from one seed, so a round is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from ligretto.bots import Bot, Decision
from ligretto.bots.view import BotView
from ligretto.rules import (
    Action,
    PileTakenError,
    Play,
    Reshuffled,
    Round,
    RoundOverError,
    RuleError,
    RuleOptions,
    Source,
)
from ligretto.rules.result import STACK_PENALTY
from ligretto.rules.view import PileView, SeatView, TableView
from ligretto.sim.house import HouseRules
from ligretto.sim.limits import DEFAULT_MAX_ACTIONS, DEFAULT_STUCK_AFTER, RoundLimits
from ligretto.sim.report import RoundRecord
from ligretto.sim.seeds import derive_seed

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "DEFAULT_STUCK_AFTER",
    "Observer",
    "RoundLimits",
    "SeatSight",
    "play_dealt",
    "simulate_round",
]

Observer = Callable[[float, int, Round, BotView, Decision], None]
"""Called at every decision: ``(time, seat, round, view, decision)`` (tests).

The view is the seat's, looked through again at its next decision: read
it during the call, do not keep it."""


class SeatSight:
    """The seat's view for a bot, built lazily: equal to ``round.view(seat)``.

    Most decisions need only the seat's legal actions, so this object asks
    the round for them at once and for the rest — every seat's open cards
    and the middle, which are the same for every viewer — only on the first
    read of ``seats`` or ``middle``, from the watcher's view
    (``round.view(None)``, which does not compute anyone's legal actions).
    It must be read before the round moves on (the simulator asks the bot
    at once); the simulator keeps one per seat and points it at the round
    as it is now before each decision (:meth:`look`).
    """

    __slots__ = ("_actions", "_plays", "_public", "_round", "_seat", "options", "viewer")

    def __init__(self, rnd: Round, seat: int) -> None:
        self._round = rnd
        self._seat = seat
        self.viewer: int | None = seat
        self.options = rnd.options
        self._actions: list[Action] | None = None
        self._plays: list[Play] | None = None
        self._public: TableView | None = None

    def look(self) -> None:
        """The seat looks again: what it sees now (a decision's view, reused)."""
        self._actions = None
        self._plays = None
        self._public = None

    @property
    def actions(self) -> Sequence[Action]:
        # Listed on the first read only: a strategy that asks first_play()
        # and turn_or_recycle() never needs the whole list.
        if self._actions is None:
            self._actions = self._round.legal_actions(self._seat)
        return self._actions

    def first_play(self, order: tuple[Source, ...]) -> Play | None:
        return self._round.first_play(self._seat, order)

    def turn_or_recycle(self) -> Action | None:
        return self._round.turn_or_recycle(self._seat)

    @property
    def plays(self) -> Sequence[Play]:
        if self._plays is None:
            # Asked for without listing the rest: a strategy that picks among
            # the plays and else turns never needs the whole list.
            self._plays = self._round.plays(self._seat)
        return self._plays

    # What every seat shows, asked of the round without building the views.

    def open_codes(self, seat: int) -> list[int]:
        return self._round.open_codes(seat)

    def rival_codes(self) -> set[int]:
        return self._round.rival_codes(self._seat)

    def open_pile_tops(self) -> set[int]:
        return self._round.open_pile_tops()

    def _table(self) -> TableView:
        if self._public is None:
            self._public = self._round.view(None)
        return self._public

    @property
    def middle(self) -> Sequence[PileView]:
        return self._table().middle

    @property
    def seats(self) -> Sequence[SeatView]:
        return self._table().seats


#: The limits of a round simulated without its own (made once: compiled,
#: an instance of the interpreted class costs a Python call).
_NO_LIMITS: Final = RoundLimits()


class _Table:
    """A simulated round's seats between their decisions (one per round).

    A class rather than a closure in :func:`simulate_round`: compiled, its
    method is a direct call, a closure a Python-level one.
    """

    __slots__ = (
        "aimed_at",
        "bots",
        "due",
        "now",
        "observer",
        "order",
        "pending",
        "pile_seats",
        "rnd",
        "rng",
        "seq",
        "sights",
        "waiting",
    )

    def __init__(
        self, rnd: Round, rng: random.Random, bots: Sequence[Bot], observer: Observer | None
    ) -> None:
        n = len(bots)
        self.rnd = rnd
        self.rng = rng
        self.bots: list[Bot] = list(bots)
        self.observer = observer
        # The seat's scheduled time and when it was scheduled (for ties): a
        # new decision replaces the one before (a reshuffle voids it, R4).
        self.due: list[float] = [0.0] * n
        self.order: list[int] = [0] * n
        self.pending: list[Action | None] = [None] * n
        self.waiting = [False] * n
        self.pile_seats: list[list[int]] = []
        self.aimed_at = [0] * n
        self.seq = 0
        self.now = 0.0
        # One view per seat, looked through again at each of its decisions.
        self.sights = [SeatSight(rnd, seat) for seat in range(n)]

    def decide(self, seat: int) -> None:
        """The seat looks at the table now and schedules what it does."""
        view = self.sights[seat]
        view.look()
        action, delay = self.bots[seat].timed(view, self.rng)
        if self.observer is not None:
            self.observer(self.now, seat, self.rnd, view, Decision(action, delay))
        if action is None:
            # wait: look again after a while, or at once when the middle changes
            self.waiting[seat] = True
        else:
            self.waiting[seat] = False
            if type(action) is Play and action.pile is not None:
                self.aimed_at[seat] = len(self.pile_seats[action.pile])
        self.pending[seat] = action
        self.seq += 1
        self.due[seat] = self.now + delay
        self.order[seat] = self.seq

    def next_seat(self) -> int:
        """The seat whose scheduled action comes first (earliest, then first scheduled)."""
        due = self.due
        order = self.order
        best = 0
        best_t = due[0]
        best_order = order[0]
        for seat in range(1, len(due)):
            t = due[seat]
            if t < best_t or (t == best_t and order[seat] < best_order):
                best, best_t, best_order = seat, t, order[seat]
        return best


def simulate_round(
    bots: Sequence[Bot],
    seed: int,
    options: RuleOptions | None = None,
    *,
    index: int = 0,
    limits: RoundLimits | None = None,
    observer: Observer | None = None,
    start: Round | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    house: HouseRules | None = None,
) -> RoundRecord:
    """Play one round with ``bots`` (one per seat) and return its record.

    The deal uses ``seed`` (or lays out ``decks``, ``Round.deal``); the
    bots' choices and reaction times use a generator derived from it, so
    the same seed gives the same round. With ``start`` the bots play on
    from that round as it lies (a replay's position, ``ligretto replay
    --from``): it is played on in place, its options count, and the record
    counts from there. ``house`` scores the round by the simulator's house
    rules (another stack penalty) instead of R5.
    """
    if start is None:
        rnd = Round.deal(len(bots), seed, options or RuleOptions(), decks)
        return play_dealt(
            rnd, bots, seed, index=index, limits=limits, observer=observer, house=house
        )
    if start.players != len(bots):
        raise ValueError(f"{len(bots)} bots for a round of {start.players} players")
    takers = [[card["owner"] for card in pile["cards"]] for pile in start.snapshot()["middle"]]
    return play_dealt(
        start, bots, seed, index=index, limits=limits, observer=observer, house=house, takers=takers
    )


def play_dealt(
    rnd: Round,
    bots: Sequence[Bot],
    seed: int,
    *,
    index: int = 0,
    limits: RoundLimits | None = None,
    observer: Observer | None = None,
    house: HouseRules | None = None,
    takers: list[list[int]] | None = None,
) -> RoundRecord:
    """Play ``rnd`` on in place with ``bots`` to its end; its record.

    The bots' generator is derived from ``seed`` (:func:`simulate_round`);
    ``takers`` are the seats that put each middle card there (a round
    played on from a position), for the races they win.
    """
    limits = limits or _NO_LIMITS
    n = len(bots)
    options = rnd.options
    rng = random.Random(derive_seed(seed, 0x5EA7))
    max_actions = limits.max_actions
    max_seconds = limits.max_seconds
    reshuffles = options.deadlock == "reshuffle"
    stuck_after = limits.stuck_after

    # This loop runs once per action of every simulated round: it is kept
    # flat (local names, no per-decision objects beyond the view) on purpose.
    table = _Table(rnd, rng, bots, observer)
    due = table.due
    pending = table.pending
    waiting = table.waiting
    pile_seats = table.pile_seats  # who put each card on each pile (race winners)
    if takers is not None:
        pile_seats.extend(takers)
    aimed_at = table.aimed_at  # size of the aimed-at pile when the seat chose its play
    # The deal's row (R2) by value, per seat: what a study relates to the outcome.
    # open_codes is stack top, discard top, then the row tops (-1: none).
    row_sums: list[int] = []
    for seat in range(n):
        codes = rnd.open_codes(seat)
        total = 0
        for k in range(2, len(codes)):
            if codes[k] >= 0:
                total += codes[k] % 10 + 1
        row_sums.append(total)

    actions = [0] * n
    races_won = [0] * n
    races_lost = [0] * n
    refused = [0] * n
    now = 0.0
    stalled = False
    stuck = 0  # stall guard settlements (R4 "we're stuck")
    stuck_ended = False
    stuck_at = stuck_after  # when the guard fires: a card to the middle moves it on

    over = rnd.is_over  # (a deal can already be a deadlock, R4)
    if not over:
        for seat in range(n):  # "Ligretto!": everyone starts looking at once (R3)
            table.decide(seat)

    total = 0
    looks = 0
    while not over:
        seat = table.next_seat()
        t = due[seat]
        if t > stuck_at:
            # Stall guard: no card to the middle for stuck_after seconds; a
            # table of bots agrees at once that it is stuck (R4).
            now = table.now = stuck_at
            stuck += 1
            rnd.settle_stuck()
            if rnd.is_over:
                stuck_ended = True
                break
            # reshuffled: every decision is void, everyone looks again
            stuck_at = now + stuck_after
            for other in range(n):
                table.decide(other)
            continue
        if total >= max_actions or t > max_seconds:
            stalled = True
            break
        now = table.now = t
        action = pending[seat]
        if action is None:
            looks += 1
            if looks > max_actions:
                stalled = True
                break
            table.decide(seat)  # a waiting seat looks again
            continue
        total += 1
        # A lost race is found before the play is applied (the refusal
        # itself, PileTakenError, costs more than the play).
        lost = type(action) is Play and rnd.race_lost(seat, action)
        if not lost:
            try:
                events = rnd.apply(seat, action)
            except PileTakenError:
                lost = True
            except RoundOverError:
                break
            except RuleError:
                refused[seat] += 1  # a bot error: counted, never expected
                table.decide(seat)
                continue
        if lost:
            # R3: a faster seat took the pile; the card stays where it was
            races_lost[seat] += 1
            assert type(action) is Play and action.pile is not None
            winners = pile_seats[action.pile]
            if aimed_at[seat] < len(winners):
                races_won[winners[aimed_at[seat]]] += 1
            table.decide(seat)
            continue
        actions[seat] += 1
        if rnd.is_over:
            break
        if type(action) is Play:
            stuck_at = now + stuck_after
            if action.pile is None:
                pile_seats.append([seat])  # a 1 opened the next pile id (R3)
            else:
                pile_seats[action.pile].append(seat)
            for other in range(n):
                if waiting[other]:
                    table.decide(other)  # instead of its look later
        if reshuffles and type(events[-1]) is Reshuffled:
            # R4 reshuffle: every hand changed; decisions taken before are void
            stuck_at = now + stuck_after
            for other in range(n):
                if other != seat:
                    table.decide(other)
        table.decide(seat)

    result = rnd.result()
    if house is None or house.stack_penalty == STACK_PENALTY:
        scored = tuple(s.points for s in result.seats)
    else:
        scored = tuple(house.points(s.middle, s.stack) for s in result.seats)
    return RoundRecord(
        index=index,
        seed=seed,
        points=scored,
        middle=tuple(s.middle for s in result.seats),
        stack=tuple(s.stack for s in result.seats),
        caller=result.caller,
        termination=result.termination,
        stalled=stalled,
        actions=tuple(actions),
        seconds=now,
        races_won=tuple(races_won),
        races_lost=tuple(races_lost),
        refused=tuple(refused),
        stuck=stuck,
        stuck_ended=stuck_ended,
        reshuffles=rnd.reshuffles,
        row_sums=tuple(row_sums),
    )
