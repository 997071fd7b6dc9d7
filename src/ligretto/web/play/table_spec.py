"""A new table as JSON: the spec the API and the table form both build,
its group checked, and the table created from it (host and bots seated)."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic.dataclasses import dataclass as pydantic_dataclass
from starlette.concurrency import run_in_threadpool

from ligretto.bots import Level
from ligretto.live.lobby import make_public
from ligretto.live.protocol import Strategy
from ligretto.live.registry import TableCapError, TableRegistry
from ligretto.live.scoring.keeper import EndCondition, GroupLink
from ligretto.live.seating import BotSpec
from ligretto.live.table import Table
from ligretto.rules.options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions, player_limits
from ligretto.store.errors import GroupNotFoundError
from ligretto.store.groups import GroupService
from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.tafel.names import clean_name
from ligretto.web.errors import ApiError

# The rule options and the end condition as JSON: the dataclasses themselves
# (their fields, types, defaults and checks), validated by pydantic and
# closed to unknown fields.  A new rule option appears here by itself.


@pydantic_dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class OptionsIn(RuleOptions):
    """Every rule option of ``RuleOptions`` (docs/rules.md), with its default."""


@pydantic_dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class EndIn(EndCondition):
    """How the game ends (T1): a target (50/99/150 or another) or rounds."""


def _fields(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


# T1: the one name rule of the Tafel; a refused name is refused input (422).
HostName = Annotated[
    str, Field(min_length=1, max_length=MAX_NAME_LENGTH), AfterValidator(clean_name)
]


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)] | None = None
    strategy: Strategy = "stack-first"
    level: Level = Level.MEDIUM


class GroupIn(BaseModel):
    """The group the table's games are recorded into, with its token."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[str, Field(min_length=1, max_length=64, description="the group's id")]
    token: Annotated[
        str,
        Field(min_length=1, max_length=200, description="the group's token (its secret link)"),
    ]


class CreateTable(BaseModel):
    """A new table.  With ``name`` the creator sits in seat 0; with ``group``
    each game of the table joins that group (its token checked first)."""

    model_config = ConfigDict(extra="forbid")

    seats: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 4
    name: HostName | None = None
    options: OptionsIn = OptionsIn()
    end: EndIn = EndIn()
    bots: Annotated[list[BotIn], Field(max_length=MAX_PLAYERS)] = []
    group: GroupIn | None = None
    # Strict: "yes" or 1 is refused, not taken for true (nothing opens).
    public: bool = Field(
        False, strict=True, description="listed in the lobby (GET /api/lobby) for anyone to join"
    )
    language: Literal["de", "en", "nb"] | None = Field(
        None, description="the language the lobby shows for a public table (else the request's)"
    )

    @model_validator(mode="after")
    def _fits(self) -> CreateTable:
        _, limit = player_limits(self.options.deck)
        if self.seats > limit:
            raise ValueError(f"the {self.options.deck} deck seats at most {limit} players (R1)")
        taken = 1 if self.name else 0
        if taken + len(self.bots) > self.seats:
            raise ValueError("more bots than free seats")
        return self


async def checked_group(app: object, group: GroupIn | None) -> GroupLink | None:
    """The group a new table records into, once its id and token are right.

    Refused like the group API refuses: no such group (404
    ``group_not_found``), a wrong token (403 ``forbidden``); a server
    without groups refuses any group (422 ``no_groups``).
    """
    if group is None:
        return None
    groups: GroupService | None = getattr(getattr(app, "state", None), "groups", None)
    if groups is None:
        raise ApiError(422, "no_groups", "this server keeps no groups")
    try:
        right = await run_in_threadpool(groups.check_token, group.id, group.token)
    except GroupNotFoundError:
        raise ApiError(404, "group_not_found", "there is no group with this id") from None
    if not right:
        raise ApiError(
            403,
            "forbidden",
            "recording into a group needs the group's link (a valid group token)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return GroupLink(group.id, group.token)


def create_table(
    registry: TableRegistry,
    spec: CreateTable,
    group: GroupLink | None = None,
    language: str = "en",
) -> Table:
    """Create a table from a validated spec and seat its host and bots;
    ``group`` is the spec's group after :func:`checked_group`.  A public
    table speaks the spec's ``language``, else ``language``."""
    table = registry.create(
        seats=spec.seats,
        options=RuleOptions(**_fields(spec.options)),
        end=EndCondition(**_fields(spec.end)),
        host_name=spec.name or None,
        bots=[BotSpec(bot.seat, bot.strategy, bot.level) for bot in spec.bots],
        group=group,
    )
    if spec.public:
        make_public(table, True, spec.language or language)
    return table


def server_full(exc: TableCapError) -> ApiError:
    """The API's answer when this process runs as many tables as it takes:
    503 with the time to try again (the host form draws a page instead)."""
    return ApiError(
        503,
        exc.code,
        f"{exc}; try again in {exc.retry_after} s. Nothing was changed.",
        headers={"Retry-After": str(exc.retry_after)},
    )
