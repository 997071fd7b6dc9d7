"""``/api/games/{id}/events``: server-sent events for watchers (T6, live board).

At connect the stream sends the current version; after every committed change
one more ``version`` event follows. Clients refetch ``GET /api/games/{id}``
when the version grows. Streams end when the server shuts down.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ligretto.web.api.schemas import ERRORS
from ligretto.web.deps import Hub, Service

router = APIRouter(prefix="/api/games/{game_id}", tags=["events"])

PING_SECONDS = 15


def _event(game_id: str, version: int) -> ServerSentEvent:
    return ServerSentEvent(
        data=json.dumps({"id": game_id, "version": version}), event="version", id=str(version)
    )


@router.get("/events", responses=ERRORS, response_class=EventSourceResponse)
async def events(game_id: str, service: Service, hub: Hub) -> EventSourceResponse:
    """``event: version`` with ``{"id", "version"}`` now and after every change."""
    # Subscribe before reading the version, so no change falls in between.
    subscription = hub.subscribe(game_id)
    try:
        current = await run_in_threadpool(service.version, game_id)
    except BaseException:
        subscription.close()
        raise

    shutdown = anyio.Event()

    async def end_on_shutdown() -> None:
        await shutdown.wait()
        subscription.close()

    async def stream() -> AsyncIterator[ServerSentEvent]:
        # On server shutdown sse-starlette sets ``shutdown``; closing the
        # subscription then ends this generator, so the response completes
        # normally instead of being cancelled.
        watcher = asyncio.create_task(end_on_shutdown())
        try:
            with subscription:
                sent = current
                yield _event(game_id, current)
                async for version in subscription:
                    if version > sent:
                        sent = version
                        yield _event(game_id, version)
        finally:
            watcher.cancel()

    return EventSourceResponse(
        stream(), ping=PING_SECONDS, shutdown_event=shutdown, shutdown_grace_period=1.0
    )
