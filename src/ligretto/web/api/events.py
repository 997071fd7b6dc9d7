"""``/api/games/{id}/events``: server-sent events for watchers (T6, live board).

At connect the stream sends the current version; after every committed change
one more ``version`` event follows. Clients refetch ``GET /api/games/{id}``
when the version grows. Streams end when the server shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator

import anyio
from fastapi import APIRouter
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ligretto.store import ChangeHub, TafelService
from ligretto.store.hub import Subscription
from ligretto.web.api.schemas import ERRORS
from ligretto.web.deps import Hub, Service

router = APIRouter(prefix="/api/games/{game_id}", tags=["events"])

PING_SECONDS = 15


def version_event(game_id: str, version: int) -> ServerSentEvent:
    """``event: version`` with ``{"id", "version"}`` (its id is the version)."""
    return ServerSentEvent(
        data=json.dumps({"id": game_id, "version": version}), event="version", id=str(version)
    )


async def watch(hub: ChangeHub, service: TafelService, game_id: str) -> tuple[Subscription, int]:
    """Subscribe to the game's changes, then read its version (404 for no game).

    In this order, so that no change falls in between.
    """
    subscription = hub.subscribe(game_id)
    try:
        current = await run_in_threadpool(service.version, game_id)
    except BaseException:
        subscription.close()
        raise
    return subscription, current


def event_stream(
    subscription: Subscription, events: AsyncGenerator[ServerSentEvent | bytes, None]
) -> EventSourceResponse:
    """The response sending ``events``, which end when ``subscription`` does.

    On server shutdown sse-starlette sets its shutdown event; closing the
    subscription then ends the events, so the response completes normally
    instead of being cancelled.
    """
    shutdown = anyio.Event()

    async def end_on_shutdown() -> None:
        await shutdown.wait()
        subscription.close()

    async def stream() -> AsyncIterator[ServerSentEvent | bytes]:
        watcher = asyncio.create_task(end_on_shutdown())
        try:
            async with contextlib.aclosing(events):
                with subscription:
                    async for event in events:
                        yield event
        finally:
            watcher.cancel()

    return EventSourceResponse(
        stream(), ping=PING_SECONDS, shutdown_event=shutdown, shutdown_grace_period=1.0
    )


@router.get("/events", responses=ERRORS, response_class=EventSourceResponse)
async def events(game_id: str, service: Service, hub: Hub) -> EventSourceResponse:
    """``event: version`` with ``{"id", "version"}`` now and after every change."""
    subscription, current = await watch(hub, service, game_id)

    async def versions() -> AsyncGenerator[ServerSentEvent | bytes, None]:
        sent = current
        yield version_event(game_id, current)
        async for version in subscription:
            if version > sent:
                sent = version
                yield version_event(game_id, version)

    return event_stream(subscription, versions())
