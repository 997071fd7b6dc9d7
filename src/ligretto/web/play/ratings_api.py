"""``/api/ratings``: a player's rating against the bots, kept by the browser.

Stateless: the browser sends the rating it keeps (``localStorage``) and a
finished game's totals against bots, and gets the new rating back; or asks
which bots give its rating an even game. The rule itself, one copy, is
:mod:`ligretto.simulate.level_match` (docs/online-play.md, "Bots at your level").
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from ligretto.bots import Level
from ligretto.live.protocol import Strategy
from ligretto.rules.options import MAX_PLAYERS
from ligretto.simulate.level_match import (
    MU_LIMIT,
    SIGMA_MAX,
    SIGMA_MIN,
    BotResult,
    matched_bots,
    rate_game,
)
from ligretto.tafel.ratings import Rating
from ligretto.web.errors import ErrorOut

router = APIRouter(tags=["online play"])

# The bounds of level_match.rating_from, as the schema shows them.
Mu = Annotated[float, Field(ge=-MU_LIMIT, le=MU_LIMIT, allow_inf_nan=False)]
Sigma = Annotated[float, Field(gt=SIGMA_MIN, le=SIGMA_MAX, allow_inf_nan=False)]
# A game's total (T4): far beyond what a game to the largest target reaches.
Total = Annotated[int, Field(ge=-100_000, le=100_000, strict=True)]


class RatingIO(BaseModel):
    """A skill as OpenSkill keeps it: the belief ``mu`` and its uncertainty ``sigma``."""

    model_config = ConfigDict(extra="forbid")

    mu: Mu
    sigma: Sigma


class BotResultIn(BaseModel):
    """A bot at the finished game: its strategy, its level and its total."""

    model_config = ConfigDict(extra="forbid")

    strategy: Strategy
    level: Level
    points: Total


class RatingUpdateIn(BaseModel):
    """A finished game (T4/T5) against bots: the player's total and each bot's."""

    model_config = ConfigDict(extra="forbid")

    rating: RatingIO | None = Field(None, description="the rating so far; null: a newcomer")
    points: Total
    bots: Annotated[list[BotResultIn], Field(min_length=1, max_length=MAX_PLAYERS - 1)]


class RatingUpdateOut(BaseModel):
    """The new rating; unchanged (``bots_counted`` 0) when no bot was a calibrated one."""

    rating: RatingIO | None
    bots_counted: int


class MatchedBot(BaseModel):
    strategy: str
    level: str


class BotMatchOut(BaseModel):
    """The bots for an even game, and the player's chance to finish ahead of each."""

    bots: list[MatchedBot]
    chance: float


def _out(rating: Rating | None) -> RatingIO | None:
    if rating is None:
        return None
    return RatingIO(mu=round(rating.mu, 4), sigma=round(rating.sigma, 4))


@router.post(
    "/api/ratings/update",
    responses={422: {"model": ErrorOut, "description": "refused input"}},
)
def post_rating_update(body: RatingUpdateIn) -> RatingUpdateOut:
    """A player's rating after a finished game against bots: the groups'
    OpenSkill rule with the bots' calibrated skills. Bots of a strategy
    never calibrated are left out; with none left, nothing changes."""
    before = None if body.rating is None else Rating(body.rating.mu, body.rating.sigma)
    bots = [BotResult(b.strategy, b.level.value, b.points) for b in body.bots]
    after, counted = rate_game(before, body.points, bots)
    return RatingUpdateOut(rating=_out(after), bots_counted=counted)


@router.get(
    "/api/ratings/match",
    responses={422: {"model": ErrorOut, "description": "refused input"}},
)
def get_bot_match(mu: Annotated[Mu, Query()], sigma: Annotated[Sigma, Query()]) -> BotMatchOut:
    """The quick game's bots for this rating: each at the level the player
    beats most nearly half the time."""
    match = matched_bots(Rating(mu, sigma))
    return BotMatchOut(
        bots=[MatchedBot(strategy=s, level=lv) for s, lv in match.bots],
        chance=round(match.chance, 4),
    )
