"""Request bodies and documented answers of ``/api/groups``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ligretto.tafel.limits import MAX_MEMBERS, MAX_NAME_LENGTH
from ligretto.web.api.schemas import CreatedOut, ErrorOut, GameIn

_NAME_SCHEMA: dict[str, Any] = {"items": {"type": "string", "maxLength": MAX_NAME_LENGTH}}


class SeasonIn(BaseModel):
    """A season a group sets: both days included."""

    model_config = ConfigDict(extra="forbid")

    start: str = Field(description="first day, YYYY-MM-DD", max_length=10)
    end: str = Field(description="last day, YYYY-MM-DD", max_length=10)


class GroupIn(BaseModel):
    """A new group: its name and, if known, its first members."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Thursday table", "members": ["Anna", "Ben"]}]},
    )

    name: str = Field(
        description=f"at most {MAX_NAME_LENGTH} characters", max_length=4 * MAX_NAME_LENGTH
    )
    members: list[str] = Field(
        default_factory=list,
        description=f"at most {MAX_MEMBERS} names, unique ignoring case",
        max_length=MAX_MEMBERS + 1,
        json_schema_extra=_NAME_SCHEMA,
    )


class GroupPatchIn(BaseModel):
    """Rename the group, or set its season (``null``: seasons are calendar years)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"name": "Friday table"},
                {"season": {"start": "2026-09-01", "end": "2027-06-30"}},
                {"season": None},
            ]
        },
    )

    name: str | None = Field(None, max_length=4 * MAX_NAME_LENGTH)
    season: SeasonIn | None = None


class MembersIn(BaseModel):
    """New members."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"names": ["Cleo"]}]})

    names: list[str] = Field(max_length=MAX_MEMBERS + 1, json_schema_extra=_NAME_SCHEMA)


class GroupGameIn(GameIn):
    """A new game of the group (T1); ``new_members`` confirms players who join the group."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"players": ["Anna", "Ben", "Cleo"], "target": 99, "new_members": ["Cleo"]}
            ]
        },
    )

    new_members: list[str] = Field(
        default_factory=list,
        description="players of this game who are not members yet and join the group",
        max_length=MAX_MEMBERS + 1,
        json_schema_extra=_NAME_SCHEMA,
    )


class AddGameIn(BaseModel):
    """Add an existing game: its edit token proves the right to file it in the group."""

    model_config = ConfigDict(extra="forbid")

    edit_token: str = Field(description="the game's edit token", max_length=200)
    new_members: list[str] = Field(
        default_factory=list, max_length=MAX_MEMBERS + 1, json_schema_extra=_NAME_SCHEMA
    )


class SeasonOut(BaseModel):
    start: str
    end: str


class GroupOut(BaseModel):
    id: str
    version: int
    name: str
    members: list[str]
    season: SeasonOut | None = Field(description="null: the league goes by calendar years")
    games: int
    created_at: str
    updated_at: str
    watch_url: str = Field(description="the group's pages, read-only (the id is the key)")


class GroupCreatedOut(GroupOut):
    token: str = Field(description="secret; send as `Authorization: Bearer <token>`")
    edit_url: str = Field(
        description="the group's pages with its forms; the token is in the fragment"
    )


class GroupImportedOut(GroupCreatedOut):
    game_tokens: dict[str, str] = Field(description="the new edit token of each imported game")


class GroupGameCreatedOut(BaseModel):
    game: CreatedOut
    group: GroupOut


class HistoryItemOut(BaseModel):
    id: str
    played_at: str
    players: list[str]
    winners: list[str]
    mode: Literal["target", "rounds"]
    target: int | None = Field(description="the target (T4) or the agreed rounds (T5)")
    rounds: int = Field(description="complete rounds")
    status: Literal["playing", "tiebreak", "finished"]
    totals: dict[str, int]
    watch_url: str


class RoundRefOut(BaseModel):
    points: int
    game_id: str
    round: int
    played_at: str


class MemberStatsOut(BaseModel):
    name: str
    games: int = Field(description="finished games")
    wins: int = Field(description="finished games won, shared victories included")
    shared_wins: int
    win_rate: float | None
    rounds: int = Field(description="complete rounds, of finished games and others")
    points: int
    points_per_round: float | None
    points_per_round_low: float | None = Field(description="95 % confidence interval (Student t)")
    points_per_round_high: float | None
    stops: int = Field(description="rounds in which the member called Ligretto Stop")
    stop_rate: float | None
    stack_cards_per_round: float | None
    best_round: RoundRefOut | None
    worst_round: RoundRefOut | None
    longest_streak: int = Field(description="most finished games won in a row")


class HeadToHeadOut(BaseModel):
    member: str
    opponent: str
    games: int
    ahead: int
    behind: int
    level: int


class StatsOut(BaseModel):
    members: list[MemberStatsOut]
    head_to_head: list[HeadToHeadOut]


class RatingOut(BaseModel):
    mu: float = Field(description="the skill belief (OpenSkill Plackett-Luce, starts at 25)")
    sigma: float = Field(description="its uncertainty (starts at 25/3)")
    rating: float = Field(description="mu − 3·sigma: what the league ranks by")


class LeagueRowOut(BaseModel):
    rank: int
    name: str
    rating: RatingOut
    games: int
    wins: int
    shared_wins: int
    points: int
    rounds: int
    points_per_round: float | None


class RatingStepOut(BaseModel):
    game_id: str
    ratings: dict[str, RatingOut]


class LeagueOut(BaseModel):
    season: SeasonOut | None = Field(description="null: every game of the group")
    games: int = Field(description="finished games of the season")
    rows: list[LeagueRowOut]
    steps: list[RatingStepOut] = Field(description="the ratings after each game, oldest first")


class MemberOut(BaseModel):
    stats: MemberStatsOut
    head_to_head: list[HeadToHeadOut]
    rating: RatingOut | None = Field(description="over every game of the group")
    ratings: list[RatingStepOut] = Field(description="the member's rating after each game")
    round_points: list[int] = Field(description="every complete round's points, oldest first")


GROUP_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorOut, "description": "no valid group token (or game edit token)"},
    404: {"model": ErrorOut, "description": "no such group, game or member"},
    409: {
        "model": ErrorOut,
        "description": "the group changed since the If-Match version, or the game is in a group",
    },
    422: {"model": ErrorOut, "description": "refused input, with the rule"},
    503: {
        "model": ErrorOut,
        "description": "the database stayed locked by other writers; nothing was changed,"
        " send again after Retry-After seconds",
    },
}
