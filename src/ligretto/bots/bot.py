"""A bot: a strategy plus a reaction-time model (a level).

``Bot.decide(view, rng)`` returns the action the strategy picks and how long
a person of the bot's level takes to carry it out. The simulator and the
online tables both drive bots through this one call.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ligretto.bots.strategies import Strategy, get_strategy
from ligretto.bots.timing import Level, ReactionModel, reaction_model, standard_normal
from ligretto.bots.view import BotView
from ligretto.rules.actions import Action, Play, Recycle, Refill, Store, Turn
from ligretto.rules.values import FrozenValue

__all__ = ["Bot", "BotSpec", "Decision", "Inattentive", "make_bot"]


@dataclass(frozen=True, slots=True)
class Decision(FrozenValue):
    """An action and the seconds until it lands (``action`` None: wait)."""

    action: Action | None
    delay: float


@dataclass(frozen=True, slots=True)
class BotSpec(FrozenValue):
    """A bot's name: strategy and level, written ``"stack-first:hard"``."""

    strategy: str
    level: Level

    @classmethod
    def parse(cls, text: str, default_level: Level = Level.MEDIUM) -> BotSpec:
        """Parse ``"strategy[:level]"``; unknown names raise ``ValueError``."""
        name, _, level = text.strip().partition(":")
        get_strategy(name)  # validate early, with the list of names in the message
        return cls(name, reaction_model(level or default_level).level)

    def __str__(self) -> str:
        return f"{self.strategy}:{self.level.value}"


class Bot:
    """A strategy with human-like timing."""

    __slots__ = ("spec", "strategy", "timing")

    def __init__(self, strategy: Strategy, timing: ReactionModel, spec: BotSpec) -> None:
        self.strategy = strategy
        self.timing = timing
        self.spec = spec

    def decide(self, view: BotView, rng: random.Random) -> Decision:
        """Choose from ``view`` and draw the time the chosen action takes.

        A play or a row-storage move needs noticing the card and moving it;
        a manual refill only the move (the gap is right there); turning or
        recycling its own time. Waiting returns the time until the bot
        looks again by itself (a notice time).
        """
        action, delay = self.timed(view, rng)
        return Decision(action, delay)

    def timed(self, view: BotView, rng: random.Random) -> tuple[Action | None, float]:
        """:meth:`decide` as a plain pair (the simulator's inner loop)."""
        action = self.strategy.choose(view, rng)
        timing = self.timing
        kind = type(action)
        if kind is Play or kind is Store:
            median = timing.notice_median + timing.move_median
        elif kind is Turn or kind is Recycle:
            median = timing.turn_median
        elif kind is Refill:
            median = timing.move_median
        else:  # waiting: look again after a notice time
            median = timing.notice_median
        return action, median * math.exp(timing.sigma * standard_normal(rng))

    def __repr__(self) -> str:
        return f"<bot {self.spec}>"


class Inattentive(Bot):
    """A bot that now and then overlooks a card that fits.

    At each look where its strategy would play a card to the middle, it
    does not see that card with probability ``overlook`` and does what a
    player does who sees nothing to play (R3: turn three cards, or pick the
    discard pile up when the hand is used up; with neither, look again
    later). Only such bots draw the extra random number, so a table
    without them plays exactly as before.
    """

    __slots__ = ("overlook",)

    def __init__(
        self, strategy: Strategy, timing: ReactionModel, spec: BotSpec, overlook: float
    ) -> None:
        super().__init__(strategy, timing, spec)
        if not 0 <= overlook <= 1:  # NaN fails too
            raise ValueError(f"a probability of overlooking is 0 to 1, not {overlook!r}")
        self.overlook = float(overlook)

    def timed(self, view: BotView, rng: random.Random) -> tuple[Action | None, float]:
        action, delay = Bot.timed(self, view, rng)
        if type(action) is not Play or rng.random() >= self.overlook:
            return action, delay
        # The card that fits goes unseen this look: the seat turns (R3), which
        # takes a turn's time; with nothing to turn it looks again later.
        instead = view.turn_or_recycle()
        if instead is None:
            return None, self.timing.notice(rng)
        return instead, self.timing.turn(rng)


def make_bot(
    spec: str | BotSpec,
    level: str | Level | None = None,
    *,
    speed: float = 1.0,
    overlook: float = 0.0,
) -> Bot:
    """A bot from ``"strategy:level"`` (or a strategy name and a level).

    ``speed`` makes it that many times as fast as its level
    (:meth:`ReactionModel.scaled`); ``overlook`` is the chance that it does
    not see a card that fits at a look (:class:`Inattentive`).

    >>> make_bot("stack-first:hard")
    <bot stack-first:hard>
    >>> make_bot("mine", "expert")
    <bot mine:expert>
    """
    if isinstance(spec, str):
        spec = BotSpec.parse(spec)
        if level is not None:
            spec = BotSpec(spec.strategy, reaction_model(level).level)
    elif level is not None:
        spec = BotSpec(spec.strategy, reaction_model(level).level)
    timing = reaction_model(spec.level)
    if speed != 1:
        timing = timing.scaled(speed)
    strategy = get_strategy(spec.strategy)
    if overlook != 0:
        return Inattentive(strategy, timing, spec, overlook)
    return Bot(strategy, timing, spec)
