"""``/api/tables``: open a table of online play and read its seats (docs/protocol.md).

The table itself lives in ``ligretto.live``; how a spec becomes a table
(host and bots seated) is shared with the play pages' form.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from ligretto.live.protocol import TableInfo
from ligretto.live.registry import TableCapError, TableRegistry
from ligretto.rules.positions import round_positions
from ligretto.rules.replay_file import initial_deal, read_replay, shuffled_hands
from ligretto.web.api.schemas import ErrorOut
from ligretto.web.errors import ApiError
from ligretto.web.play.app_tables import find_table, lobby_of, registry_of
from ligretto.web.play.table_spec import CreateTable, checked_group, create_table, server_full
from ligretto.web.public_url import public_base
from ligretto.web.rendering import request_language
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

    With ``public`` the table is listed in the lobby (``GET /api/lobby``)
    while it waits with a free seat; private is the default.

    With ``group`` (its id and token) every game of the table joins that
    group; a missing group or a wrong token is refused and nothing opens.
    """
    group = await checked_group(request.app, spec.group)
    try:
        table = create_table(registry_of(request.app), spec, group, request_language(request))
    except TableCapError as exc:
        raise server_full(exc) from None
    response.headers[TABLE_HEADER] = table.code  # where the proxy sends the table's requests
    if spec.public:
        await lobby_of(request.app).sync()  # in the lobby by the time the answer arrives
    base = public_base(request)  # never the Host header (ligretto.web.public_url)
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
    table = await find_table(request.app, code)
    return table.info()


class RoundNumbers(BaseModel):
    """The finished rounds of a table that are kept, by their number."""

    rounds: list[int]


@router.get("/{code}/rounds")
async def get_rounds(code: str, request: Request) -> RoundNumbers:
    """The numbers of the table's kept rounds (counted across its games)."""
    replays = registry_of(request.app).replays
    if replays is None:
        raise ApiError(404, "no_replays", "this server keeps no rounds")
    return RoundNumbers(rounds=await asyncio.to_thread(replays.numbers, code.upper()))


@router.get(
    "/{code}/rounds/{n}/replay",
    responses={
        200: {"description": "the round's replay document (docs/online-play.md, Replays)"},
        409: {"model": ErrorOut, "description": "the round is still being played"},
    },
)
async def get_round_replay(
    code: str,
    n: Annotated[int, Path(ge=1, le=1_000_000)],
    request: Request,
    download: Annotated[bool, Query(description="as a file to save")] = False,
    positions: Annotated[
        bool, Query(description="every position the engine computes (ligretto.positions/1)")
    ] = False,
) -> Response:
    """One finished round as one JSON document: seed, options, seats, the
    deal, every action with its play time, the lost races and the result.

    With ``positions`` the round's positions instead, as the engine
    computes them from the document (``ligretto.rules.positions``): what
    the replay page draws. Anyone with the table's code may watch it, and
    so may fetch its rounds; a round being played is never served (409).
    """
    code = code.upper()
    registry = registry_of(request.app)
    data = await _kept_round(registry, code, n)
    if data is None:
        raise ApiError(404, "no_such_round", "no finished round with this number at this table")
    log = read_replay(data)
    if positions:
        return JSONResponse(await asyncio.to_thread(round_positions, log))
    body = {
        **data,
        "deal": initial_deal(log.players, log.seed, log.options),
        "shuffles": shuffled_hands(log),
    }
    headers = {}
    if download:
        headers["Content-Disposition"] = (
            f'attachment; filename="ligretto-{code.lower()}-round-{n}.json"'
        )
    return JSONResponse(body, headers=headers)


async def _kept_round(registry: TableRegistry, code: str, n: int) -> dict[str, Any] | None:
    """The kept round, or ``None``; refuses (409) a round being played."""
    replays = registry.replays
    if replays is None:
        raise ApiError(404, "no_replays", "this server keeps no rounds")
    table = registry.get(code)
    if table is not None and n == table.state.rounds:
        dealt = table.state.round.dealt
        if dealt is None or not dealt.is_over:
            raise ApiError(409, "round_not_finished", "this round is still being played")
        if registry.journal is not None:
            await registry.journal.flush()  # finished a moment ago: written now
    if table is not None and n > table.state.rounds:
        return None
    return await asyncio.to_thread(replays.get, code, n)
