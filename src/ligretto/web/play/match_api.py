"""``POST /api/lobby/match``: a quick match, people who ask within a short wait at one table.

The matching itself is :mod:`ligretto.live.matching`; the tables waiting
for a match are found in the lobby (every process's), so people who ask
through different processes meet at one table (docs/protocol.md).
"""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ligretto.live.matching import match_for, open_match
from ligretto.live.registry import TableCapError
from ligretto.live.state import fills_at
from ligretto.rules.options import MIN_PLAYERS
from ligretto.web.errors import ErrorOut
from ligretto.web.play.app_tables import lobby_of, registry_of
from ligretto.web.play.table_spec import HostName, server_full
from ligretto.web.public_url import public_base
from ligretto.web.rendering import request_language
from ligretto.web.routing_headers import TABLE_HEADER

router = APIRouter(tags=["online play"])

#: The most chairs a quick match's table has: strangers at a phone's table.
MAX_MATCH_PLAYERS = 6


class MatchIn(BaseModel):
    """Who asks for a match, and for what table."""

    model_config = ConfigDict(extra="forbid")

    name: HostName
    language: Literal["de", "en", "nb"] | None = Field(
        None, description="the table's language (else the request's)"
    )
    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_MATCH_PLAYERS, strict=True)] = 4


class MatchOut(BaseModel):
    """The table to sit down at: join it under ``name`` (its page does so
    by itself from ``page_url``) before ``fills_at``."""

    code: str
    page_url: str
    ws_url: str
    #: When bots fill the empty chairs and the game starts (seconds since
    #: the epoch, the server's clock).
    fills_at: float
    #: ``True``: others asked already and wait at this table.
    waiting: bool


@router.post(
    "/api/lobby/match",
    responses={
        422: {"model": ErrorOut, "description": "refused input"},
        503: {"model": ErrorOut, "description": "the server holds as many tables as it can"},
    },
)
async def post_match(body: MatchIn, request: Request, response: Response) -> MatchOut:
    """A table for a quick match: one that others asked for within its wait
    (same language and size), else a new one; after the wait bots fill the
    empty chairs and the game starts."""
    registry = registry_of(request.app)
    lobby = lobby_of(request.app)
    language = body.language or request_language(request)
    wait = registry.settings.match_wait
    listed, now = await lobby.listed()
    found = match_for(listed, now, language, body.players, wait)
    if found is not None:
        code = found.listing.code
        fills = found.opened_at.timestamp() + wait
    else:
        try:
            table = open_match(registry, language, body.players)
        except TableCapError as exc:
            raise server_full(exc) from None
        await lobby.sync()  # the next to ask, on any process, finds it
        code = table.code
        fills = fills_at(table.tags) or now.timestamp() + wait
        # Only a table opened here: the proxy learns where it is served.
        response.headers[TABLE_HEADER] = code
    base = public_base(request)
    ws_base = "ws" + base[4:] if base.startswith("http") else base
    return MatchOut(
        code=code,
        page_url=f"{base}/play/{code}#n={quote(body.name)}",
        ws_url=f"{ws_base}/play/{code}/ws",
        fills_at=fills,
        waiting=found is not None,
    )
