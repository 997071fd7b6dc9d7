"""``/api/games/{id}/events``: server-sent events for watchers (T6, live board).

At connect the stream sends the current version; after every committed change
one more ``version`` event follows. Clients refetch ``GET /api/games/{id}``
when the version grows. Streams end when the server shuts down.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from fastapi import APIRouter
from sse_starlette import EventSourceResponse, ServerSentEvent

from ligretto.web.api.schemas import ERRORS
from ligretto.web.deps import Hub, Service
from ligretto.web.game_events import event_stream, version_event, watch

router = APIRouter(prefix="/api/games/{game_id}", tags=["events"])


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
