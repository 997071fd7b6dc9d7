"""Bot strategies: small named classes that pick the next action from a view.

A strategy sees exactly what a person at the seat sees — the
:class:`~ligretto.rules.view.TableView` of ``round.view(seat)``, which holds
the seat's legal actions — and nothing else: it never gets the round, so it
cannot read hand order or the cards under a stack or discard top (R3).
Strategies are stateless; all randomness comes from the injected
``random.Random``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from mypy_extensions import mypyc_attr

from ligretto.bots.view import BotView
from ligretto.rules.actions import Action, Play, Recycle, Refill, Source, Store, Turn

__all__ = [
    "STRATEGIES",
    "DiscardFirst",
    "Greedy",
    "RaceAware",
    "RandomStrategy",
    "RowLast",
    "StackFirst",
    "Strategy",
    "Watchful",
    "get_strategy",
    "register",
    "strategy_names",
]


# Compiled, the strategies here are native classes (which no class decorator
# may touch: they are registered at the end of this module); strategies
# defined elsewhere subclass it and may use @register.
@mypyc_attr(allow_interpreted_subclasses=True)
class Strategy(ABC):
    """Decides a seat's next action from that seat's view alone."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str]

    @abstractmethod
    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        """The next action, one of ``view.actions``; ``None`` to wait.

        Waiting is the only choice when ``view.actions`` is empty (nothing
        fits and there is nothing to turn); a strategy may also wait
        deliberately.
        """

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"


STRATEGIES: dict[str, type[Strategy]] = {}
"""Every registered strategy class by name and alias."""

_S = TypeVar("_S", bound=type[Strategy])


def register(cls: _S) -> _S:
    """Class decorator: make a strategy available by its name and aliases."""
    for key in (cls.name, *cls.aliases):
        if key in STRATEGIES:
            raise ValueError(f"strategy name {key!r} is taken")
        STRATEGIES[key] = cls
    return cls


def strategy_names() -> list[str]:
    """The canonical strategy names (without aliases), in registration order."""
    return list(dict.fromkeys([cls.name for cls in STRATEGIES.values()]))


def get_strategy(name: str) -> Strategy:
    """A strategy by name or alias (``random``, ``greedy``, ``stack-first``, ``mine`` …)."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f"unknown strategy {name!r}; choose one of {known}") from None


def _chores(view: BotView) -> Action | None:
    """What to do when nothing is played: refill a gap (R3), else store a
    card in the row where that helps (R6, :func:`_helpful_store`), else
    turn or recycle (R3)."""
    options = view.options
    if options.row_refill == "auto" and not options.row_storage:
        # No refills or stores are listed: turn or recycle, asked for
        # without listing every legal action (what the loop below picks).
        return view.turn_or_recycle()
    fallback: Action | None = None
    stores: list[Store] | None = None
    for action in view.actions:
        kind = type(action)
        if kind is Refill:
            return action
        if kind is Turn or kind is Recycle:
            if fallback is None:
                fallback = action
        elif isinstance(action, Store):  # listed only under row_storage (R6)
            if stores is None:
                stores = []
            stores.append(action)
    return _store_else(view, stores, fallback)


def _store_else(
    view: BotView, stores: list[Store] | None, fallback: Action | None
) -> Action | None:
    """The row-storage move worth making among ``stores`` (R6,
    :func:`_helpful_store`), else ``fallback`` (turn or recycle, R3)."""
    if stores is not None:
        store = _helpful_store(view, stores)
        if store is not None:
            return store
    return fallback


def _helpful_store(view: BotView, stores: Sequence[Store]) -> Store | None:
    """R6: the row-storage move worth making when no card of mine fits.

    (a) The stack top: off the stack it no longer costs 2 points (R5, R7),
        and the card beneath comes up — it may fit the middle. (Which card
        that is nobody at the table sees, R3; a stack card that fits nowhere
        is worth moving whatever comes next.)
    (b) Else the discard top, when it makes a place for the stack top:
        the stack top fits onto it (lower, other colour) but onto no row
        position now. Next look, (a) moves the stack top.

    Either goes onto the position whose top is the lowest that takes it:
    the higher row tops stay free for the cards to come (a row position
    only ever takes lower cards). Without such a move ``None``: storing a
    discard card for nothing would only bury a row card.
    """
    stack = [s for s in stores if s.source is Source.STACK]
    if stack:
        return _tightest(view, stack)
    me = view.viewer
    if me is None:
        return None
    top = view.seats[me].stack_top
    if top is None:
        return None
    making_room = [
        s for s in stores if top.value < s.card.value and top.colour is not s.card.colour
    ]
    return _tightest(view, making_room) if making_room else None


def _tightest(view: BotView, stores: Sequence[Store]) -> Store:
    """The store onto the row position with the lowest top card."""
    if len(stores) == 1 or view.viewer is None:
        return stores[0]
    row = view.seats[view.viewer].row
    best = stores[0]
    best_value = 11
    for store in stores:
        position = row[store.slot].top
        value = position.value if position is not None else 11
        if value < best_value:
            best, best_value = store, value
    return best


def _refill(view: BotView) -> Action | None:
    """A manual refill (R3), if one is possible: only with ``row_refill="manual"``."""
    if view.options.row_refill == "manual":
        for action in view.actions:
            if type(action) is Refill:
                return action
    return None


class RandomStrategy(Strategy):
    """Any legal action, uniformly at random: the baseline."""

    name = "random"
    summary = "any legal action, uniformly at random"

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        actions = view.actions
        return actions[rng.randrange(len(actions))] if actions else None


class Greedy(Strategy):
    """Any card that fits, chosen at random; else refill, turn or recycle."""

    name = "greedy"
    summary = "any card that fits, at random; else turn"

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        plays = view.plays
        if plays:
            return plays[rng.randrange(len(plays))]
        return _chores(view)


class StackFirst(Strategy):
    """R7: the stack top first, then row cards, then the discard top.

    A stack card left at the end costs 2 points, a middle card earns 1, and
    a row card played earns 1 *and* opens a gap for the stack (R7: "row
    cards are worth double"). A manual gap is refilled at once.
    """

    name = "stack-first"
    summary = "R7: refill at once; stack top, then row, then discard; else turn"
    order: ClassVar[tuple[Source, Source, Source]] = (Source.STACK, Source.ROW, Source.DISCARD)

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        # One pass over the legal actions, since this runs at every decision
        # of every simulated seat: a refill at once (listed only with
        # row_refill="manual", R3), else the first play from the first
        # source in ``order``, else the chores of :func:`_chores`. Sources
        # are compared by identity (hashing an Enum member runs Python code).
        first, second, third = self.order
        options = view.options
        if options.row_refill == "auto" and not options.row_storage:
            # No refills or stores are listed: the first play by source
            # order, else turn or recycle, each asked for without listing
            # every legal action (what the loop below would pick).
            play = view.first_play(self.order)
            return play if play is not None else view.turn_or_recycle()
        from_first: Play | None = None
        from_second: Play | None = None
        from_third: Play | None = None
        fallback: Action | None = None
        stores: list[Store] | None = None
        actions = view.actions
        # Compiled, a list is walked by index; any other sequence by the
        # iterator protocol, several times slower.
        listed = actions if isinstance(actions, list) else list(actions)
        for action in listed:
            if type(action) is Play:
                source = action.source
                if source is first:
                    if from_first is None:
                        from_first = action
                elif source is second:
                    if from_second is None:
                        from_second = action
                elif source is third and from_third is None:
                    from_third = action
            elif type(action) is Refill:
                return action  # before any play: listed after them
            elif type(action) is Turn or type(action) is Recycle:
                if fallback is None:
                    fallback = action
            elif isinstance(action, Store):  # listed only under row_storage (R6)
                if stores is None:
                    stores = []
                stores.append(action)
        if from_first is not None:
            return from_first
        if from_second is not None:
            return from_second
        if from_third is not None:
            return from_third
        return _store_else(view, stores, fallback)


class DiscardFirst(StackFirst):
    """R7 reversed, for the study: discard top first, then row, then stack."""

    name = "discard-first"
    summary = "R7 reversed (for the study): discard, then row, then stack"
    order = (Source.DISCARD, Source.ROW, Source.STACK)


class RowLast(StackFirst):
    """R7 without "row cards are worth double": stack, discard, then row."""

    name = "row-last"
    summary = "R7 half-followed (for the study): stack, discard, then row"
    order = (Source.STACK, Source.DISCARD, Source.ROW)


class RaceAware(Strategy):
    """Stack first as R7 says, but win the races for the piles (R3).

    Two refinements of ``stack-first``, each about the simultaneous play
    of R3 (see docs/bots.md for the measurements):

    * **Contested cards first.** A card of mine is *contested* when another
      seat shows the same card (same colour and value; every deck has one
      of each) in its row, on its stack or on its discard pile: both of us
      want the same pile, and the slower one loses the race. An
      uncontested card can wait; the pile will still want it after the
      contested one is played. Within that, R7's order holds (stack, row,
      discard).
    * **Spread over equal piles.** When several piles want the card, take a
      pile that other seats' contested cards are less likely to be aimed
      at: the one opened last (most players and bots reach for the first).

    Under R6 it stores like every strategy (:func:`_helpful_store`).
    """

    name = "race-aware"
    summary = "R7 order, contested cards first, spread over equal piles"

    #: base priority by source (R7), and the bonus for a contested card
    base: ClassVar[dict[Source, int]] = {Source.STACK: 30, Source.ROW: 20, Source.DISCARD: 10}
    contested_bonus: ClassVar[int] = 15

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        refill = _refill(view)
        if refill is not None:
            return refill
        plays = view.plays
        if len(plays) == 1:
            return plays[0]
        if plays:
            return self._best_play(view, plays)
        return _chores(view)

    def _best_play(self, view: BotView, plays: Sequence[Play]) -> Play:
        rivals = view.rival_codes()
        base = self.base
        bonus = self.contested_bonus
        best: Play = plays[0]
        best_key: tuple[int, int] = (-1, -1)
        for play in plays:
            score = base[play.source]
            if play.card.code in rivals:
                score += bonus
            # a later pile id (opened later) breaks ties: spread over equal piles
            key = (score, -1 if play.pile is None else play.pile)
            if key > best_key:
                best, best_key = play, key
        return best


class Watchful(RaceAware):
    """``race-aware``, and it watches instead of turning when a card is about to fit.

    When nothing of mine fits, ``stack-first`` turns three cards. Turning
    takes a person a second or two, and meanwhile they do not watch the
    middle. But often one of my open cards — the stack top, a row card, the
    discard top — is about to fit: its pile wants ``c − 1`` and another seat
    shows ``c − 1`` openly, so that seat will play it within moments. Then
    whoever reacts first gets the pile (R3), and a person busy turning
    reacts late. ``watchful`` does not turn then; it watches the middle and
    plays the moment the pile moves, ahead of the seats that are turning.
    It also keeps a discard top from being buried under the next packet
    (only the top is playable, R3).
    """

    name = "watchful"
    aliases = ("mine",)
    summary = "race-aware, and watches instead of turning when a card is about to fit"

    #: Chance to keep watching at each look. The card it waits for fits
    #: already, so its owner normally plays it within moments; but a person
    #: may leave it lying, and a bot must not watch for ever. At 0.97 it
    #: gives up after about 30 looks; in simulation this costs nothing
    #: measurable against watching for ever (docs/bots.md).
    patience: ClassVar[float] = 0.97

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        action = super().choose(view, rng)
        kind = type(action)
        if (
            (kind is Turn or kind is Recycle)
            and _worth_watching(view)
            and rng.random() < self.patience
        ):
            return None  # watch the middle instead of turning
        return action


def _worth_watching(view: BotView) -> bool:
    """Whether one of the viewer's open cards fits as soon as another seat plays.

    True when, for an open card ``c`` of mine (stack top, row card, discard
    top), another seat shows ``c − 1`` openly and ``c − 1`` fits the middle
    now (a 1 always does; otherwise a pile's top is the card below it).
    """
    me = view.viewer
    if me is None:
        return False
    befores = [
        code - 1
        for code in view.open_codes(me)
        if code >= 0 and code % 10 != 0  # a 1 would fit already
    ]
    if not befores:
        return False
    shown = view.rival_codes()
    wanted = [b for b in befores if b in shown]
    if not wanted:
        return False
    if any(b % 10 == 0 for b in wanted):
        return True  # another seat shows the 1 before my 2
    tops = view.open_pile_tops()
    return any(b - 1 in tops for b in wanted)


# The strategies of this module, in the order they are offered.
for _cls in (RandomStrategy, Greedy, StackFirst, DiscardFirst, RowLast, RaceAware, Watchful):
    register(_cls)
