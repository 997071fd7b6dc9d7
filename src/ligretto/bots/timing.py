"""Human-like reaction times for bots, by level.

A person at a Ligretto table does three kinds of things, each taking a
variable time (R3: everyone plays at once, so *when* an action lands decides
the races):

* **notice** a card that fits — scan the middle and the own open cards;
* **move** it — reach, pick it up, put it on the pile;
* **turn** three hand cards onto the discard pile (R3 "hand and discard"),
  which includes the glance that found nothing better to do.

Human reaction and movement times are right-skewed: most are near a typical
value, a few are much slower (a distraction, a second look). A lognormal
distribution has exactly that shape and is the usual model for them, so each
time is ``median * exp(sigma * z)`` with ``z`` drawn from N(0, 1).

The medians are calibrated so that a simulated four-player round with the
same level at every seat lasts what a round at a real table lasts: roughly
one to three minutes (``docs/bots.md`` has the calibration and the command
that reproduces it). ``easy`` is a first-time player, ``expert`` a practised
one who still has human hands.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ligretto.rules.values import FrozenValue

__all__ = [
    "LEVELS",
    "MAX_SPEED",
    "Level",
    "ReactionModel",
    "reaction_model",
    "standard_normal",
]

MAX_SPEED: Final = 10.0
"""The largest speed factor a seat may have (ten times a level's pace: an
``expert`` would notice a card in 0.08 s, far beyond any person)."""

_Z_BITS: Final = 12
_Z: Final = tuple(
    statistics.NormalDist().inv_cdf((i + 0.5) / (1 << _Z_BITS)) for i in range(1 << _Z_BITS)
)
"""The 4096 quantile midpoints of N(0, 1), for inverse-transform sampling."""


_RANDOM: Final = random.Random
_GETRANDBITS: Final = random.Random.getrandbits


def standard_normal(rng: random.Random) -> float:
    """A draw from N(0, 1) by table look-up: one ``getrandbits`` call.

    A bot delay is drawn for every simulated decision, and this is several
    times cheaper than ``rng.gauss()``. The table holds 4096 equally likely
    quantiles, so the draw is exact to well below a millisecond of delay;
    only beyond 3.7 standard deviations (one draw in 4,000) is the tail cut.
    """
    if type(rng) is _RANDOM:  # the method itself: no look-up on the instance
        return _Z[_GETRANDBITS(rng, _Z_BITS)]
    return _Z[rng.getrandbits(_Z_BITS)]


class Level(StrEnum):
    """Named skill levels of a bot's timing."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


@dataclass(frozen=True, slots=True)
class ReactionModel(FrozenValue):
    """Lognormal reaction times (seconds) for one level.

    Each ``*_median`` is the median of its distribution; ``sigma`` is the
    standard deviation of the underlying normal (the spread; 0.35 means
    roughly one time in six is more than 40 % slower than the median).
    """

    level: Level
    notice_median: float
    move_median: float
    turn_median: float
    sigma: float = 0.35

    def __post_init__(self) -> None:
        for name in ("notice_median", "move_median", "turn_median"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.sigma < 0:
            raise ValueError("sigma must not be negative")

    # ``median * exp(sigma * z)`` is ``lognormvariate(log(median), sigma)``.
    def notice(self, rng: random.Random) -> float:
        """Time to notice a card that fits."""
        return self.notice_median * math.exp(self.sigma * standard_normal(rng))

    def move(self, rng: random.Random) -> float:
        """Time to move a card once it has been noticed."""
        return self.move_median * math.exp(self.sigma * standard_normal(rng))

    def play(self, rng: random.Random) -> float:
        """Notice a fitting card, then move it: the delay of a play."""
        return (self.notice_median + self.move_median) * math.exp(self.sigma * standard_normal(rng))

    def turn(self, rng: random.Random) -> float:
        """Time to turn three hand cards (or pick up the discard pile)."""
        return self.turn_median * math.exp(self.sigma * standard_normal(rng))

    def scaled(self, speed: float) -> ReactionModel:
        """The same person ``speed`` times as fast: every median divided by it.

        A seat's own speed in a study ("Anna, 1.5× as fast"): the spread
        stays, so her times are as variable, only shorter. Made once per
        bot, so a scaled bot costs nothing per decision.

        >>> LEVELS[Level.MEDIUM].scaled(2.0).turn_median
        1.0
        """
        if not 0 < speed <= MAX_SPEED:  # NaN fails too
            raise ValueError(f"a speed factor is above 0 and at most {MAX_SPEED:g}, not {speed!r}")
        return ReactionModel(
            self.level,
            self.notice_median / speed,
            self.move_median / speed,
            self.turn_median / speed,
            self.sigma,
        )

    @property
    def mean_play(self) -> float:
        """Mean delay of a play (lognormal mean: median * exp(sigma²/2))."""
        return (self.notice_median + self.move_median) * math.exp(self.sigma**2 / 2)

    @property
    def mean_turn(self) -> float:
        """Mean delay of a turn."""
        return self.turn_median * math.exp(self.sigma**2 / 2)


# Calibration: see docs/bots.md ("Timing calibration").
LEVELS: dict[Level, ReactionModel] = {
    Level.EASY: ReactionModel(Level.EASY, notice_median=2.2, move_median=1.2, turn_median=2.8),
    Level.MEDIUM: ReactionModel(Level.MEDIUM, notice_median=1.6, move_median=0.9, turn_median=2.0),
    Level.HARD: ReactionModel(Level.HARD, notice_median=1.2, move_median=0.7, turn_median=1.5),
    Level.EXPERT: ReactionModel(
        Level.EXPERT, notice_median=0.8, move_median=0.5, turn_median=1.0, sigma=0.3
    ),
}


def reaction_model(level: str | Level) -> ReactionModel:
    """The reaction model of a named level (``easy``, ``medium``, ``hard``, ``expert``)."""
    try:
        return LEVELS[Level(level)]
    except ValueError:
        names = ", ".join(lv.value for lv in Level)
        raise ValueError(f"unknown bot level {level!r}; choose one of {names}") from None
