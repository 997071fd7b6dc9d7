"""The ``tuned`` strategy: a weighted choice whose weights the simulator tuned.

Where ``watchful`` (``bots/strategies.py``) follows fixed rules, ``tuned``
scores each play by a weighted sum of what a person at the seat sees (R3):
the source (R7: stack, row, discard), whether another seat shows the same
card (a race, R3), the card's value, whether the seat's own next card
could follow it, and whether another seat's next card could. When nothing
is worth playing it does the chores of every strategy (a manual refill,
a helpful row store under R6, else turn or recycle), but it may watch the
middle instead of turning, as ``watchful`` does, when a weighted count of
its cards that are about to fit says so.

The weights (:data:`TUNED`) were found by CMA-ES in the simulator at one
fixed reaction level (``ligretto tune``, ``simulate/tune.py``;
docs/strategy.md tells the run), so only the decisions improved, never the
speed. Pure: no I/O; randomness only from the injected ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from typing import ClassVar

from ligretto.bots.strategies import Strategy, _chores, _refill, register
from ligretto.bots.view import BotView
from ligretto.rules.actions import Action, Play, Recycle, Source, Turn

__all__ = ["TUNED", "WATCHFUL_LIKE", "Tuned", "Weights"]


@dataclass(frozen=True, slots=True)
class Weights:
    """What ``tuned`` weighs; a play's score is the sum of the weighted features.

    A row card is the reference source (weight 0), so ``stack`` and
    ``discard`` say how much more (or less) a card from there is worth.
    """

    stack: float
    """A play from the Ligretto stack (R7: a stack card left costs 2 points)."""
    discard: float
    """A play of the discard top."""
    contested: float
    """Another seat shows the same card: whoever is faster gets the pile (R3)."""
    value: float
    """Times the card's value / 10: high cards first, or low ones."""
    chain: float
    """The seat itself shows the next card of the colour: it can follow."""
    feeds: float
    """Another seat shows the next card of the colour: the play lets it follow."""
    late_pile: float
    """Times the pile's place among the piles (0 first opened … 1 last):
    spread over equal piles, since most players reach for the first."""
    hold: float
    """A best play scoring below this is held back while turning is possible."""
    watch_bias: float
    """Watch instead of turning when ``watch_bias + watch_card·n (+ watch_stack)
    > 0``, ``n`` the seat's open cards that fit as soon as another seat plays."""
    watch_card: float
    """Per open card about to fit (see ``watch_bias``)."""
    watch_stack: float
    """When the stack top is one of them (see ``watch_bias``)."""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_vector(cls, vector: Sequence[float]) -> Weights:
        """Weights from a vector in the order of :meth:`names` (the tuner's)."""
        names = cls.names()
        if len(vector) != len(names):
            raise ValueError(f"need {len(names)} weights ({', '.join(names)}), got {len(vector)}")
        return cls(*(float(v) for v in vector))

    def vector(self) -> tuple[float, ...]:
        return tuple(float(v) for v in astuple(self))


#: ``watchful`` written as weights: R7's order (stack, row, discard), a
#: contested card first, the pile opened last among equals, never held
#: back, and watching when one open card is about to fit. The tuner starts
#: here, so it searches around the best hand-written strategy.
WATCHFUL_LIKE = Weights(
    stack=1.0,
    discard=-1.0,
    contested=1.5,
    value=0.0,
    chain=0.0,
    feeds=0.0,
    late_pile=0.05,
    hold=-5.0,
    watch_bias=-0.5,
    watch_card=1.0,
    watch_stack=0.0,
)

#: The tuned weights (docs/strategy.md, "A tuned bot"): regenerate with
#: ``ligretto tune --level medium --generations 5 --rounds 1000 --seed 7 --workers 2``
#: (generation 5's best candidate, rounded to three places).
TUNED = Weights(
    stack=1.250,
    discard=-1.155,
    contested=2.366,
    value=0.997,
    chain=-0.812,
    feeds=-0.348,
    late_pile=0.447,
    hold=-4.599,
    watch_bias=-1.333,
    watch_card=2.457,
    watch_stack=0.338,
)


def _next_code(code: int) -> int:
    """The code of the next card of the same colour, or -1 after a 10."""
    return code + 1 if code % 10 != 9 else -1


class Tuned(Strategy):
    """Plays the best-scoring card by :class:`Weights`; watches or does the chores."""

    name = "tuned"
    summary = "weighs source, races and following cards by tuned weights; watches like watchful"

    #: Chance to keep watching at each look (as ``Watchful.patience``): a
    #: person may leave the card it waits for lying, and a bot must not
    #: watch for ever.
    patience: ClassVar[float] = 0.97

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights if weights is not None else TUNED

    def choose(self, view: BotView, rng: random.Random) -> Action | None:
        refill = _refill(view)  # a manual gap first, like every strategy (R3)
        if refill is not None:
            return refill
        w = self.weights
        plays = view.plays
        if plays:
            best, score = self._best_play(view, plays, w)
            if score >= w.hold:
                return best
            chore = view.turn_or_recycle()
            if chore is None:
                return best  # held back only while turning is possible
        else:
            chore = _chores(view)  # a helpful row store (R6), else turn or recycle
        kind = type(chore)
        if (
            (kind is Turn or kind is Recycle)
            and self._watch(view, w)
            and rng.random() < self.patience
        ):
            return None  # watch the middle instead of turning
        return chore

    def _best_play(self, view: BotView, plays: Sequence[Play], w: Weights) -> tuple[Play, float]:
        me = view.viewer
        rivals = view.rival_codes()
        own = set() if me is None else {c for c in view.open_codes(me) if c >= 0}
        piles = max(1, len(view.middle))
        best = plays[0]
        best_score = float("-inf")
        for play in plays:
            code = play.card.code
            source = play.source
            score = w.stack if source is Source.STACK else 0.0
            if source is Source.DISCARD:
                score += w.discard
            if code in rivals:
                score += w.contested
            score += w.value * play.card.value / 10
            after = _next_code(code)
            if after >= 0:
                if after in own:
                    score += w.chain
                if after in rivals:
                    score += w.feeds
            if play.pile is not None:
                score += w.late_pile * (play.pile + 1) / piles
            if score > best_score:
                best, best_score = play, score
        return best, best_score

    def _watch(self, view: BotView, w: Weights) -> bool:
        """Whether to watch: a weighted count of own cards that fit once another seat plays."""
        me = view.viewer
        if me is None:
            return False
        # Own open cards first (a handful), the other seats' only when one
        # of them could be waited for: most looks end here.
        befores = [
            (index, code - 1)
            for index, code in enumerate(view.open_codes(me))  # 0: the stack top
            if code >= 0 and code % 10 != 0  # a 1 would fit already
        ]
        if not befores:
            return False
        shown = view.rival_codes()
        tops: set[int] | None = None
        count = 0
        stack_soon = False
        for index, before in befores:
            if before not in shown:
                continue
            if before % 10 != 0:  # not a 1: its pile must want it now
                if tops is None:
                    tops = view.open_pile_tops()
                if before - 1 not in tops:
                    continue
            count += 1
            stack_soon = stack_soon or index == 0
        if count == 0:
            return False
        return w.watch_bias + w.watch_card * count + (w.watch_stack if stack_soon else 0.0) > 0


register(Tuned)
