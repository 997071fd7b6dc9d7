"""``POST /api/groups/import``: a group's export as a new group, every game checked.

The body's JSON values are counted as it arrives and a body past the bound
is refused before the rest is read; parsing, checks and writes run in a
worker thread, a large import alone (``HEAVY_WORK``) with the collector
paused.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from ligretto.collector import collector_paused
from ligretto.store.group_queries import HEAVY_WORK
from ligretto.store.groups import GroupService
from ligretto.store.results import CreatedGroup
from ligretto.tafel.group_exchange import group_from_json
from ligretto.web.api.errors import content_type_problem
from ligretto.web.api.games import parse_import
from ligretto.web.api.group_deps import Groups
from ligretto.web.api.group_schemas import GROUP_ERRORS, GroupImportedOut
from ligretto.web.api.groups import created_group
from ligretto.web.errors import ApiError
from ligretto.web.limits import GROUP_IMPORT_VALUES, json_values

router = APIRouter(prefix="/api/groups", tags=["groups"])


_IMPORT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "a group from its export.json",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@router.post("/import", status_code=201, responses=GROUP_ERRORS, openapi_extra=_IMPORT_BODY)
async def import_group(service: Groups, request: Request, response: Response) -> GroupImportedOut:
    """Import a group's export as a new group (new ids and tokens); every game is checked.

    At most ``MAX_GROUP_ROUNDS`` rounds (422 ``too_many_rounds``) and a bounded
    number of JSON values (413 ``too_large``, counted before parsing). The
    parsing, the checks and the writes run in a thread, the writes in short
    transactions (:meth:`~ligretto.store.groups.GroupService.import_group`).
    """
    problem = content_type_problem(request.headers.get("content-type"))
    if problem:
        raise ApiError(422, "invalid_request", problem)
    # Read as chunks rather than request.body(), which would keep the body
    # on the request until the answer is sent. The values are counted chunk
    # by chunk as they come (microseconds each): counted at once, the whole
    # body's bytes took one call of tens of milliseconds that held the
    # interpreter lock, and with it the event loop. Past the bound the body
    # is refused at once: the rest of it is never read.
    chunks: list[bytes] = []
    values = 0
    async for chunk in request.stream():
        values += json_values(chunk)
        if values > GROUP_IMPORT_VALUES:
            chunks.clear()
            raise ApiError(
                413,
                "too_large",
                f"the export holds more than {GROUP_IMPORT_VALUES} JSON values;"
                " nothing was imported",
            )
        chunks.append(chunk)
    created = await run_in_threadpool(_import, service, chunks)
    out = created_group(request, response, created.stored, created.token).model_dump()
    out["game_tokens"] = created.game_tokens
    return GroupImportedOut.model_validate(out)


IMPORT_ALONE_ABOVE = 1024 * 1024
"""Bytes of a group import past which it waits for other large group work (HEAVY_WORK)."""


def _import(service: GroupService, chunks: list[bytes]) -> CreatedGroup:
    if sum(len(c) for c in chunks) <= IMPORT_ALONE_ABOVE:
        return _import_body(service, chunks)
    with HEAVY_WORK, collector_paused():
        return _import_body(service, chunks)


def _import_body(service: GroupService, chunks: list[bytes]) -> CreatedGroup:
    """*chunks*: the body, its values already counted (within GROUP_IMPORT_VALUES)."""
    body = b"".join(chunks)
    chunks.clear()
    # Parsed and checked in one expression: the parsed text is freed as soon
    # as the games are checked, and the body before anything is written.
    imported = group_from_json(parse_import(body))
    del body
    return service.write_import(imported)
