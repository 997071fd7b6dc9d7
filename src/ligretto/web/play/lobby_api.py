"""``/api/lobby``: the open public tables of every process; a host makes a table private again.

What the lobby shows of a table is its :class:`~ligretto.store.lobby.Listing`:
code, seats, names and rules, never a token; a private table is never in it
(docs/protocol.md, "The lobby").
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from ligretto.live.lobby import LANGUAGE_TAG, make_public
from ligretto.store.lobby import Listed
from ligretto.web.errors import ApiError, ErrorOut
from ligretto.web.play.app_tables import find_table, lobby_of
from ligretto.web.rendering import request_language

router = APIRouter(tags=["online play"])


class LobbyRules(BaseModel):
    deck: str
    row_storage: bool
    end: Literal["target", "rounds"]
    target: int | None
    rounds: int | None


class LobbyTable(BaseModel):
    """A public table waiting for players (no token, ever)."""

    code: str
    seats: int
    free_seats: int
    players: list[str]
    bots: int
    language: str
    rules: LobbyRules
    waiting_seconds: int


class LobbyOut(BaseModel):
    tables: list[LobbyTable]


def _table(entry: Listed, waited: float) -> LobbyTable:
    item = entry.listing
    return LobbyTable(
        code=item.code,
        seats=item.seats,
        free_seats=item.free_seats,
        players=list(item.players),
        bots=item.bots,
        language=item.language,
        rules=LobbyRules(
            deck=item.deck,
            row_storage=item.row_storage,
            end="rounds" if item.end_mode == "rounds" else "target",
            target=item.target if item.end_mode != "rounds" else None,
            rounds=item.rounds if item.end_mode == "rounds" else None,
        ),
        waiting_seconds=max(0, int(waited)),
    )


async def lobby_tables(app: object) -> list[LobbyTable]:
    """The lobby's tables, the longest waiting first (the /play page's list too)."""
    listed, now = await lobby_of(app).listed()
    return [_table(entry, (now - entry.opened_at).total_seconds()) for entry in listed]


@router.get("/api/lobby")
async def get_lobby(request: Request) -> LobbyOut:
    """The open public tables of every server process: those whose host made
    them public, in their lobby with a free seat, the longest waiting first."""
    return LobbyOut(tables=await lobby_tables(request.app))


class PublicIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    public: bool = Field(strict=True)


class PublicOut(BaseModel):
    code: str
    public: bool


@router.put(
    "/api/tables/{code}/public",
    responses={
        401: {"model": ErrorOut, "description": "no host token"},
        403: {"model": ErrorOut, "description": "not the table's host token"},
        404: {"model": ErrorOut, "description": "no table with this code"},
        422: {"model": ErrorOut, "description": "refused input"},
    },
)
async def put_public(
    code: str,
    body: PublicIn,
    request: Request,
    authorization: Annotated[
        str | None, Header(description="`Bearer <host_token>` from the table's opening")
    ] = None,
) -> PublicOut:
    """The host lists the table in the lobby or takes it off (private again)."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            401,
            "unauthorized",
            "this needs the table's host link (send Authorization: Bearer <host_token>)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    table = await find_table(request.app, code)
    if not table.state.seating.is_host_token(token.strip()):
        raise ApiError(403, "forbidden", "only the table's host may change this")
    language = None if body.public and _has_language(table.tags) else request_language(request)
    make_public(table, body.public, language if body.public else None)
    await lobby_of(request.app).sync()  # the lobby hears of it before the answer
    return PublicOut(code=table.code, public=body.public)


def _has_language(tags: set[str]) -> bool:
    return any(tag.startswith(LANGUAGE_TAG) for tag in tags)
