"""What the routes of ``/api/groups`` share: the service, the group's token,
and the answer 202 while a large group's answer is being prepared."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Header, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ligretto.collector import paused
from ligretto.store.group_queries import PREPARING_RETRY_AFTER
from ligretto.store.groups import GroupService
from ligretto.web.api.group_schemas import GROUP_ERRORS
from ligretto.web.api.schemas import ErrorOut
from ligretto.web.errors import ApiError


async def group_service(request: Request) -> GroupService:
    """The app's group service (``app.state.groups``)."""
    service: GroupService = request.app.state.groups
    return service


Groups = Annotated[GroupService, Depends(group_service)]


async def group_token(
    authorization: Annotated[
        str | None, Header(description="`Bearer <token>` from the group's creation")
    ] = None,
) -> str:
    """The group token from ``Authorization: Bearer``; the service checks its value."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            403,
            "forbidden",
            "this needs the group's link (send Authorization: Bearer <token>)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token.strip()[:200]


GroupToken = Annotated[str, Depends(group_token)]


PREPARED_ERRORS: dict[int | str, dict[str, Any]] = {
    **GROUP_ERRORS,
    202: {
        "model": ErrorOut,
        "description": "a large group's answer is being prepared (code `preparing`);"
        " ask again after Retry-After seconds",
    },
}


async def preparing(
    service: GroupService, group_id: str, whats: tuple[str, ...], work: Callable[[], object]
) -> Response | None:
    """None when the answers *whats* can be given now; else 202, and *work* started.

    A large group's first statistics take seconds: rather than hold a worker
    for that long, the request starts them in the background
    (:meth:`~ligretto.store.group_queries.GroupQueries.prepare`) and is told
    to come back.
    """
    queries = service.queries
    if await run_in_threadpool(queries.ready, group_id, whats):
        return None
    queries.prepare(group_id, whats, paused(work))
    return JSONResponse(
        {
            "detail": "The group's statistics are being prepared; ask again in"
            f" {PREPARING_RETRY_AFTER} s.",
            "code": "preparing",
        },
        status_code=202,
        headers={"Retry-After": str(PREPARING_RETRY_AFTER), "Cache-Control": "no-store"},
    )
