"""Bots at a player's level: a player rated by games against the calibrated
bots, and the bots that give that player an even game.

The bots' skills are those ``ligretto calibrate`` measured
(``level_ratings.json``, docs/bots.md); a person's rating moves by the
groups' own rule (:func:`ligretto.tafel.ratings.rate_against`, OpenSkill),
from whole finished games, the kind of result the bots were calibrated on
(T4/T5). Only calibrated bots count: another strategy's skill is unknown,
so such a seat is left out of the ranking, as a group leaves out a guest.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from ligretto.bots import Level
from ligretto.simulate.calibrate import STRATEGIES, load_table
from ligretto.tafel.outcome import ranks
from ligretto.tafel.ratings import INITIAL, Rating, chance_to_beat, rate_against

__all__ = [
    "BotResult",
    "MatchedBots",
    "bot_rating",
    "matched_bots",
    "rate_game",
    "rating_from",
]

#: The matched quick game's bots, in their seats' order: the calibrated
#: strategies, the sharpest first (docs/bots.md).
MATCHED_STRATEGIES = ("watchful", "stack-first", "tuned")
assert set(MATCHED_STRATEGIES) == set(STRATEGIES)
#: An even game: the chance to finish ahead of each bot the level is chosen for.
EVEN = 0.5
#: The ratings taken from a browser: far beyond any skill the bots or a
#: person reach (the bots span about -15 to 80, a newcomer starts at
#: 25 ± 8.33), near enough to keep the model's arithmetic finite.
MU_LIMIT = 500.0
SIGMA_MIN, SIGMA_MAX = 0.01, 50.0


def rating_from(mu: float, sigma: float) -> Rating | None:
    """A rating sent by a browser, or ``None`` when the numbers are none."""
    if abs(mu) <= MU_LIMIT and SIGMA_MIN < sigma <= SIGMA_MAX:  # NaN fails both
        return Rating(mu, sigma)
    return None


@functools.cache
def _calibrated() -> dict[str, Rating]:
    ratings = load_table()["ratings"]
    return {name: Rating(float(r["mu"]), float(r["sigma"])) for name, r in ratings.items()}


def bot_rating(strategy: str, level: str) -> Rating | None:
    """The calibrated skill of a bot, or ``None`` for a strategy never calibrated."""
    return _calibrated().get(f"{strategy}:{level}")


@dataclass(frozen=True, slots=True)
class BotResult:
    """A bot's seat at a finished game: who it was and its total (T4)."""

    strategy: str
    level: str
    points: int


def rate_game(
    player: Rating | None, points: int, bots: Sequence[BotResult]
) -> tuple[Rating | None, int]:
    """The player's rating after a finished game with *points* against *bots*.

    ``player`` ``None`` is a newcomer (OpenSkill's start, 25 ± 8.33).
    Places come from the totals (T6: ties share a place) of the player and
    the calibrated bots; returns the new rating and how many bots counted.
    With none counted nothing is learned: the rating comes back unchanged.
    """
    counted = [(bot, r) for bot in bots if (r := bot_rating(bot.strategy, bot.level)) is not None]
    if not counted:
        return player, 0
    start = player if player is not None else INITIAL
    places = ranks([points, *(bot.points for bot, _ in counted)])
    return rate_against(start, places, [r for _, r in counted]), len(counted)


@dataclass(frozen=True, slots=True)
class MatchedBots:
    """Bots for an even game: each one's strategy and level, and the player's
    chance to finish ahead of each (their mean)."""

    bots: tuple[tuple[str, str], ...]
    chance: float


def matched_bots(player: Rating) -> MatchedBots:
    """For each calibrated strategy, the level the player beats most nearly
    half the time (the stronger level when two are as near)."""
    chosen: list[tuple[str, str]] = []
    chances: list[float] = []
    for strategy in MATCHED_STRATEGIES:
        best: tuple[float, str, float] | None = None
        for level in Level:
            skill = bot_rating(strategy, level.value)
            if skill is None:  # pragma: no cover - every matched strategy is calibrated
                continue
            chance = chance_to_beat(player, skill)
            distance = abs(chance - EVEN)
            if best is None or distance <= best[0]:
                best = (distance, level.value, chance)
        assert best is not None
        chosen.append((strategy, best[1]))
        chances.append(best[2])
    return MatchedBots(tuple(chosen), sum(chances) / len(chances))
