"""``/api/tables``: open a table of online play and read its seats (docs/protocol.md).

The table itself lives in ``ligretto.live``; how a spec becomes a table
(host and bots seated) is shared with the play pages' form.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from ligretto.live.protocol import TableInfo
from ligretto.live.registry import TableCapError
from ligretto.store.live_tables import TableElsewhereError
from ligretto.web.api.errors import ApiError
from ligretto.web.api.schemas import ErrorOut
from ligretto.web.play.routes import (
    ELSEWHERE_RETRY,
    CreateTable,
    PlayApiError,
    checked_group,
    create_table,
    registry_of,
)
from ligretto.web.routing_headers import TABLE_HEADER

router = APIRouter(
    prefix="/api/tables",
    tags=["online play"],
    responses={
        403: {"model": ErrorOut, "description": "a wrong group token"},
        404: {"model": ErrorOut, "description": "no table (or group) with this id"},
        422: {"model": ErrorOut, "description": "refused input"},
        503: {"model": ErrorOut, "description": "the server holds as many tables as it can"},
    },
)


class TableCreated(BaseModel):
    code: str
    host_token: str
    seat: int | None
    page_url: str
    invite_url: str
    ws_url: str
    table: TableInfo


@router.post("", status_code=201)
async def post_table(spec: CreateTable, request: Request, response: Response) -> TableCreated:
    """Open a table; the answer holds the host's secret token and the invite link.

    With ``group`` (its id and token) every game of the table joins that
    group; a missing group or a wrong token is refused and nothing opens.
    """
    try:
        group = await checked_group(request.app, spec.group)
    except PlayApiError as exc:
        raise ApiError(exc.status, exc.code, exc.detail, headers=exc.headers) from None
    try:
        table = create_table(registry_of(request.app), spec, group)
    except TableCapError as exc:
        raise ApiError(
            503,
            "too_many_tables",
            f"{exc}; try again in {exc.retry_after} s. Nothing was changed.",
            headers={"Retry-After": str(exc.retry_after)},
        ) from None
    response.headers[TABLE_HEADER] = table.code  # where the proxy sends the table's requests
    base = str(request.base_url).rstrip("/")
    ws_base = "ws" + base[4:] if base.startswith("http") else base
    return TableCreated(
        code=table.code,
        host_token=table.host_token,
        seat=0 if spec.name else None,
        page_url=f"{base}/play/{table.code}",
        invite_url=f"{base}/play/{table.code}",
        ws_url=f"{ws_base}/play/{table.code}/ws",
        table=table.info(),
    )


@router.get("/{code}")
async def get_table(code: str, request: Request) -> TableInfo:
    """A table's seats and phase, as anyone at it may see them."""
    try:
        table = await registry_of(request.app).find(code)
    except TableElsewhereError:
        raise ApiError(
            503,
            "table_elsewhere",
            "another server process serves this table; try again shortly",
            headers={"Retry-After": str(ELSEWHERE_RETRY)},
        ) from None
    if table is None:
        raise ApiError(404, "no_such_table", "no table with this code")
    return table.info()
