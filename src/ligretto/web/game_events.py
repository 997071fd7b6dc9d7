"""A game's changes as server-sent events: one ``version`` event now, one after
every committed change (T6).

The JSON API's ``/api/games/{id}/events`` (:mod:`ligretto.web.api.events`)
and the watch page's pushed board (:mod:`ligretto.web.pages.board_push`)
both stream them; so they live a floor below both.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Protocol, Self

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ligretto.store import ChangeHub, TafelService
from ligretto.store.hub import Subscription

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


class Closing(Protocol):
    """What a stream's events come from: a hub's :class:`Subscription`, or
    the lobby's stream (:mod:`ligretto.web.play.lobby_feed`)."""

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *_exc: object) -> None: ...


def event_stream(
    subscription: Closing, events: AsyncGenerator[ServerSentEvent | bytes, None]
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
