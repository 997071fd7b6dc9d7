"""``/api/lobby``: every process's open public tables, read or streamed; a host makes one private.

What the lobby shows of a table is its :class:`~ligretto.store.lobby.Listing`:
code, seats, names and rules, never a token; a private table is never in it
(docs/protocol.md, "The lobby").  ``/api/lobby/events`` sends the same list
whenever it changes (:mod:`ligretto.web.play.lobby_feed`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from ligretto.live.lobby import LANGUAGE_TAG, make_public
from ligretto.store.hub import ChangeHub
from ligretto.store.lobby import Listed
from ligretto.web.errors import ApiError, ErrorOut
from ligretto.web.game_events import event_stream
from ligretto.web.play.app_tables import find_table, lobby_of
from ligretto.web.play.lobby_feed import LobbyFeed, TooManyStreamsError
from ligretto.web.ratelimit import request_client
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


def _tables(listed: list[Listed], now: datetime) -> list[LobbyTable]:
    return [_table(entry, (now - entry.opened_at).total_seconds()) for entry in listed]


async def lobby_tables(app: object) -> list[LobbyTable]:
    """The lobby's tables, the longest waiting first (the /play page's list too)."""
    return _tables(*await lobby_of(app).listed())


def _lobby_json(listed: list[Listed], now: datetime) -> str:
    return LobbyOut(tables=_tables(listed, now)).model_dump_json()


@router.get("/api/lobby")
async def get_lobby(request: Request) -> LobbyOut:
    """The open public tables of every server process: those whose host made
    them public, in their lobby with a free seat, the longest waiting first."""
    return LobbyOut(tables=await lobby_tables(request.app))


#: How long the page waits before it reconnects a stream that broke (ms).
RETRY_MS = 5000


def lobby_feed(app: object) -> LobbyFeed:
    """The process's lobby streams (made with the first one)."""
    state: Any = getattr(app, "state", None)
    feed: LobbyFeed | None = getattr(state, "lobby_feed", None)
    if feed is None:
        hub: ChangeHub = getattr(state, "hub", None) or ChangeHub()
        feed = LobbyFeed(lobby_of(app), hub, _lobby_json)
        state.lobby_feed = feed
    return feed


@router.get(
    "/api/lobby/events",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "`event: lobby` with the body of `GET /api/lobby` now and after "
            "every change",
            # Each event (OpenAPI 3.2's itemSchema for a stream): its data is
            # the JSON text of `GET /api/lobby`'s body.
            "content": {
                "text/event-stream": {
                    "itemSchema": {
                        "type": "object",
                        "properties": {
                            "event": {"const": "lobby"},
                            "data": {"type": "string", "contentMediaType": "application/json"},
                            "retry": {"type": "integer"},
                        },
                        "required": ["event", "data"],
                    }
                }
            },
        },
        429: {"model": ErrorOut, "description": "this client holds as many streams as it may"},
    },
)
async def lobby_events(request: Request) -> EventSourceResponse:
    """The open public tables as server-sent events: ``event: lobby`` with
    ``{"tables": [...]}``, the body of ``GET /api/lobby``, when the stream
    opens and whenever the list changes (a table opened, full, started,
    private or closed, on any process)."""
    client = request_client(request.scope, request.app.state.settings.rate_limit_settings())
    try:
        stream = lobby_feed(request.app).open(client)
    except TooManyStreamsError:
        raise ApiError(
            429,
            TooManyStreamsError.code,
            "this address follows the lobby in as many streams as it may;"
            " close one, or read GET /api/lobby",
            headers={"Retry-After": "30"},
        ) from None

    async def events() -> AsyncGenerator[ServerSentEvent | bytes, None]:
        async for text in stream.texts():
            yield ServerSentEvent(data=text, event="lobby", retry=RETRY_MS)

    response = event_stream(stream, events())
    # Closed however the response ends, even before its first event (the
    # client's count of open streams must come down).
    response.background = BackgroundTask(stream.close)
    return response


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
