"""Every write of the JSON API goes one way: store and answer in one trip.

A game's or a group's write route takes what every such write takes as one
dependency (:data:`GameWriter`, :data:`GroupWriter`: the id, the service,
the token, If-Match) and hands its ``answer`` the store's call; underneath,
:func:`written` runs a function that writes through the store and builds
the answer's model; it runs in one trip to the worker threads and
the answer carries the new version as its ``ETag`` (If-Match, T6). A sync
route would have FastAPI check its answer in a second trip, and with
hundreds of watchers on the event loop every trip can wait for the
interpreter's lock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Generic, NamedTuple, TypeVar

from fastapi import Depends, Request, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import TafelService, WriteResult
from ligretto.store.groups import GroupService
from ligretto.store.results import StoredGroup
from ligretto.web.api.group_answers import group_out
from ligretto.web.api.group_deps import Groups, GroupToken
from ligretto.web.api.group_schemas import GroupOut
from ligretto.web.api.responses import set_version, write_out
from ligretto.web.api.schemas import WriteOut
from ligretto.web.deps import EditToken, ExpectedVersion, Service

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


@dataclass(frozen=True, slots=True)
class GameWrite:
    """What every write of a game takes: the game, the service, the edit
    token and the version in If-Match; :meth:`answer` runs it the one way."""

    game_id: str
    service: TafelService
    token: str
    version: int | None
    request: Request
    response: Response

    async def answer(self, write: Callable[[], WriteResult]) -> WriteOut:
        return await written(self.response, lambda: game_written(self.request, write()))


async def game_write(
    game_id: str,
    service: Service,
    token: EditToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GameWrite:
    # A coroutine, not the class itself: FastAPI would build a class in a
    # worker thread, a second trip for every write.
    return GameWrite(game_id, service, token, version, request, response)


GameWriter = Annotated[GameWrite, Depends(game_write)]


@dataclass(frozen=True, slots=True)
class GroupWrite:
    """What every write of a group takes: the group, the service, the
    group's token and its version in If-Match."""

    group_id: str
    service: GroupService
    token: str
    version: int | None
    request: Request
    response: Response

    async def answer(self, write: Callable[[], StoredGroup]) -> GroupOut:
        return await written(self.response, lambda: group_written(self.request, write()))


async def group_write(
    group_id: str,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupWrite:
    return GroupWrite(group_id, service, token, version, request, response)


GroupWriter = Annotated[GroupWrite, Depends(group_write)]
