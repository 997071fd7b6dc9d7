"""Request bodies and (documented) answers of the JSON API.

Counts are ``{"Anna": 0, "Ben": 3}`` (by name, any case) or a list in seating
order. They are checked by the Tafel domain, which names the player and the
rule in its answer (T2/T3), so the bodies accept any JSON values there.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from ligretto.tafel.limits import (
    DEFAULT_TARGET,
    MAX_AGREED_ROUNDS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    MIN_PLAYERS,
    TARGET_CHOICES,
    max_players,
)
from ligretto.web.errors import ErrorOut as ErrorOut  # the schema of every API error

# Names are checked by the domain's one name rule (ligretto.tafel.names:
# trimmed, NFC, visible, at most MAX_NAME_LENGTH characters); the schema
# only documents the limits, so a name is never refused here by other rules.
_NAMES = (
    f"{MIN_PLAYERS}–{max_players('ligretto')} names ({max_players('cards')} with deck"
    f" 'cards'), seating order; each at most {MAX_NAME_LENGTH} characters, names must"
    " differ ignoring case"
)
_NAME_SCHEMA: dict[str, Any] = {"items": {"type": "string", "maxLength": MAX_NAME_LENGTH}}
_TARGETS = ", ".join(str(t) for t in TARGET_CHOICES if t != DEFAULT_TARGET)

Counts = dict[str, Any] | list[Any]

_COUNTS_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"type": "array", "items": {"type": "integer"}},
    ]
}


class GameIn(BaseModel):
    """A new game (T1)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"players": ["Anna", "Ben", "Cleo"], "mode": "target", "target": 99},
                {"players": ["Anna", "Ben"], "mode": "rounds", "rounds": 8, "deck": "cards"},
            ]
        },
    )

    players: list[str] = Field(description=_NAMES, json_schema_extra=_NAME_SCHEMA)
    mode: Literal["target", "rounds"] = "target"
    # Strict: pydantic would read JSON true as the number 1 and "yes" as true.
    target: StrictInt | None = Field(
        None,
        description=f"target games: {DEFAULT_TARGET} (default), {_TARGETS} … {MAX_TARGET}",
    )
    rounds: StrictInt | None = Field(
        None, description=f"rounds games: the agreed number, 1–{MAX_AGREED_ROUNDS}"
    )
    deck: Literal["ligretto", "cards"] = "ligretto"
    row_storage: StrictBool = Field(False, description="R6: skips the T3 plausibility check")


class RoundOpenIn(BaseModel):
    """A new round's stack counts (T2): 0–10, at most one 0 (the caller)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"stacks": {"Anna": 0, "Ben": 3, "Cleo": 5}}]},
    )

    stacks: Counts = Field(json_schema_extra=_COUNTS_SCHEMA)


class RoundPutIn(BaseModel):
    """Complete a pending round with ``middle``, or correct a round (T3, T6)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"middle": {"Anna": 12, "Ben": 14, "Cleo": 5}},
                {"stacks": {"Anna": 0, "Ben": 3}, "middle": {"Anna": 12, "Ben": 14}},
                {"middle": {"Anna": 12, "Ben": 2}, "confirm": True},
            ]
        },
    )

    stacks: Counts | None = Field(None, json_schema_extra=_COUNTS_SCHEMA)
    middle: Counts | None = Field(None, json_schema_extra=_COUNTS_SCHEMA)
    confirm: StrictBool = Field(False, description="save a round that T3 finds implausible")


class RoundOut(BaseModel):
    n: int
    stacks: dict[str, int]
    middle: dict[str, int] | None
    points: dict[str, int] | None
    caller: str | None
    complete: bool
    confirmed: bool
    totals: dict[str, int] | None = Field(description="running totals after this round")


class StandingOut(BaseModel):
    player: str
    total: int
    rank: int = Field(description="ties share a rank: 1, 1, 3")


class GameSummaryOut(BaseModel):
    """A game without its list of rounds (the answer to writes: small and fast)."""

    id: str
    version: int
    players: list[str]
    mode: Literal["target", "rounds"]
    target: int | None
    agreed_rounds: int | None
    deck: Literal["ligretto", "cards"]
    row_storage: bool
    rounds_count: int
    pending_round: int | None = Field(description="number of the round waiting for its middle")
    totals: dict[str, int]
    ranking: list[StandingOut]
    status: Literal["playing", "tiebreak", "finished"]
    finished: bool
    closed: bool = Field(description="Beenden was used (T5)")
    scored: bool = Field(description="Werten was used (T5)")
    winners: list[str] = Field(description="empty until decided; several on a shared victory")
    decided_after: int | None = Field(description="the round that decided a target game (T4)")
    created_at: str
    updated_at: str
    watch_url: str


class GameOut(GameSummaryOut):
    rounds: list[RoundOut]


class CreatedOut(GameOut):
    edit_token: str = Field(description="secret; send as `Authorization: Bearer <edit_token>`")
    edit_url: str


class WriteOut(GameSummaryOut):
    round: RoundOut | None = Field(description="the round that was saved, corrected or removed")


class HistoryOut(BaseModel):
    version: int
    at: str
    action: str
    round: int | None
    detail: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorOut, "description": "no valid edit token"},
    404: {"model": ErrorOut, "description": "no such game or round"},
    409: {"model": ErrorOut, "description": "the game changed since the If-Match version"},
    422: {"model": ErrorOut, "description": "refused input, with the player and the rule"},
    503: {
        "model": ErrorOut,
        "description": "the database stayed locked by other writers; nothing was changed,"
        " send again after Retry-After seconds",
    },
}
