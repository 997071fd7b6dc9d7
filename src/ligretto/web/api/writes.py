"""Every write of the JSON API goes one way: store and answer in one trip.

A route hands :func:`written` a function that writes through the store and
builds the answer's model; it runs in one trip to the worker threads and
the answer carries the new version as its ``ETag`` (If-Match, T6). A sync
route would have FastAPI check its answer in a second trip, and with
hundreds of watchers on the event loop every trip can wait for the
interpreter's lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

from fastapi import Request, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import WriteResult
from ligretto.store.results import StoredGroup
from ligretto.web.api.group_answers import group_out
from ligretto.web.api.group_schemas import GroupOut
from ligretto.web.api.responses import set_version, write_out
from ligretto.web.api.schemas import WriteOut

T = TypeVar("T")


class Written(NamedTuple, Generic[T]):
    """What a write left: the version it made, and the answer to send."""

    version: int
    answer: T


async def written(response: Response, write: Callable[[], Written[T]]) -> T:
    """Run *write* (the store's write and the answer's model) in one trip to
    the worker threads; set the version it made as the ``ETag``."""
    done = await run_in_threadpool(write)
    set_version(response, done.version)
    return done.answer


def game_written(request: Request, result: WriteResult) -> Written[WriteOut]:
    """A game's write: the game without its rounds, and the round it touched."""
    return Written(result.stored.version, write_out(request, result))


def group_written(request: Request, stored: StoredGroup) -> Written[GroupOut]:
    """A group's write: the group as it is now."""
    return Written(stored.version, GroupOut.model_validate(group_out(request, stored)))
