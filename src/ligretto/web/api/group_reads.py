"""The reads of ``/api/groups``: history, statistics, league, a member, the exports.

Reads need only the group's id (like a game's watch link). The reads and
their kept results are :class:`~ligretto.store.group_queries.GroupQueries`
(``service.queries``, shared with the pages); a large group's first answer
is prepared in the background (202, ``preparing``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import iterate_in_threadpool, run_in_threadpool

from ligretto.collector import collector_paused
from ligretto.store.group_export import export_stream
from ligretto.store.group_queries import HEAVY_WORK, league_key, league_season
from ligretto.store.results import StoredGroup
from ligretto.tafel.errors import Code
from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.tafel.names import name_key
from ligretto.tafel.stats import Season, select_history
from ligretto.web.api.exports import LANG_QUERY, STYLE_QUERY, export_language, spreadsheet
from ligretto.web.api.group_answers import (
    head_to_head_out,
    history_item_out,
    league_out,
    member_out,
    member_stats_out,
    stats_csv,
    stats_header,
)
from ligretto.web.api.group_deps import PREPARED_ERRORS, Groups, preparing
from ligretto.web.api.group_schemas import (
    GROUP_ERRORS,
    HistoryItemOut,
    LeagueOut,
    MemberOut,
    StatsOut,
)
from ligretto.web.api.responses import set_version
from ligretto.web.errors import ApiError

router = APIRouter(prefix="/api/groups", tags=["groups"])


Member = Annotated[str | None, Query(max_length=4 * MAX_NAME_LENGTH)]
Year = Annotated[int | None, Query(ge=1, le=9999)]


@router.get("/{group_id}/games", responses=PREPARED_ERRORS, response_model=list[HistoryItemOut])
async def group_history(
    group_id: str,
    service: Groups,
    request: Request,
    member: Member = None,
    year: Year = None,
    mode: Literal["target", "rounds"] | None = None,
) -> list[HistoryItemOut] | Response:
    """Every game of the group, newest first; filter by member, year and mode.

    202 while a large group's history is being prepared.
    """
    queries = service.queries
    waiting = await preparing(service, group_id, ("history",), lambda: queries.history(group_id))
    if waiting is not None:
        return waiting
    every = await run_in_threadpool(queries.history, group_id)
    items = select_history(every, member=member, year=year, mode=mode)
    return [HistoryItemOut.model_validate(history_item_out(request, i)) for i in items]


@router.get("/{group_id}/stats", responses=PREPARED_ERRORS, response_model=StatsOut)
async def group_stats(group_id: str, service: Groups, response: Response) -> StatsOut | Response:
    """Every member's statistics and the head-to-head table, from the rounds.

    202 while a large group's statistics are being prepared (ask again after
    ``Retry-After`` seconds).
    """
    queries = service.queries
    waiting = await preparing(service, group_id, ("stats",), lambda: queries.stats(group_id))
    if waiting is not None:
        return waiting
    stats = await run_in_threadpool(queries.stats, group_id)
    set_version(response, stats.group.version)
    return StatsOut.model_validate(
        {
            "members": [member_stats_out(s) for s in stats.members],
            "head_to_head": [head_to_head_out(h) for h in stats.pairs],
        }
    )


@router.get("/{group_id}/league", responses=PREPARED_ERRORS, response_model=LeagueOut)
async def group_league(
    group_id: str,
    service: Groups,
    response: Response,
    year: Year = None,
    start: date | None = None,
    end: date | None = None,
    everything: Annotated[bool, Query(alias="all", description="every game")] = False,
) -> LeagueOut | Response:
    """The league of a season, ranked by rating (mu − 3·sigma), with wins and points.

    The season: ``all=true`` every game, ``year``, ``start`` and ``end``, else
    the group's own season, else this calendar year. 202 while a large
    group's league is being prepared.
    """
    queries = service.queries

    def pick(stored: StoredGroup) -> Season | None:
        return league_season(stored, year, start, end, everything)

    season = pick(await run_in_threadpool(queries.get_group, group_id))
    waiting = await preparing(
        service, group_id, (league_key(season),), lambda: queries.league(group_id, pick)
    )
    if waiting is not None:
        return waiting
    found = await run_in_threadpool(queries.league, group_id, pick)
    set_version(response, found.group.version)
    return LeagueOut.model_validate(league_out(found.table))


@router.get("/{group_id}/members/{name}", responses=PREPARED_ERRORS, response_model=MemberOut)
async def group_member(
    group_id: str, name: str, service: Groups, response: Response
) -> MemberOut | Response:
    """One member: statistics, head-to-head, rating over time, points of every round.

    202 while a large group's answer is being prepared.
    """
    queries = service.queries
    stored = await run_in_threadpool(queries.get_group, group_id)
    known = next((m for m in stored.members if name_key(m) == name_key(name)), None)
    whats = ("stats",) if known is None else ("stats", f"member:{known}")
    waiting = await preparing(service, group_id, whats, lambda: queries.member(group_id, name))
    if waiting is not None:
        return waiting
    member = await run_in_threadpool(queries.member, group_id, name)
    if member is None:
        raise ApiError(404, Code.NOT_A_MEMBER.value, "there is no member of this name in the group")
    set_version(response, member.group.version)
    return MemberOut.model_validate(member_out(member))


# No response model: the export is the group exchange format, key for key.
@router.get(
    "/{group_id}/export.json",
    responses={**GROUP_ERRORS, 200: {"content": {"application/json": {"schema": {}}}}},
    response_class=StreamingResponse,
)
async def export_group(group_id: str, service: Groups) -> StreamingResponse:
    """The whole group with every game and its rounds; never a token.

    Streamed: the games are read and written a few at a time in a thread,
    so a large group neither fills memory nor holds the server's event loop.
    """
    large = await run_in_threadpool(service.queries.large, group_id)
    pieces = await run_in_threadpool(export_stream, service.queries, group_id)
    return StreamingResponse(
        iterate_in_threadpool(_paused_pieces(pieces, large)),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="group-{group_id}.json"'},
    )


@router.get("/{group_id}/stats.csv", responses=PREPARED_ERRORS, response_class=Response)
async def export_stats_csv(
    group_id: str,
    service: Groups,
    request: Request,
    style: Annotated[Literal["rfc", "regional", "de"], STYLE_QUERY] = "rfc",
    lang: Annotated[str | None, LANG_QUERY] = None,
) -> Response:
    """Every member's statistics, one line each (202 while a large group's are prepared)."""
    queries = service.queries
    waiting = await preparing(service, group_id, ("stats",), lambda: queries.stats(group_id))
    if waiting is not None:
        return waiting
    stats = await run_in_threadpool(queries.stats, group_id)
    text, suffix = stats_csv(stats.members), ""
    if style != "rfc":
        language = export_language(request, style, lang)
        text, suffix = spreadsheet(text, stats_header(language)), f"-{language}"
    return Response(
        content=text.encode("utf-8-sig"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="group-{group_id}-stats{suffix}.csv"'
        },
    )


def _paused_pieces(pieces: Iterator[bytes], large: bool) -> Iterator[bytes]:
    """Each piece of a streamed export read and encoded with the collector paused.

    A large group's pieces each wait for other large group work (``HEAVY_WORK``):
    its import or the preparation of its statistics runs first, rather than
    beside the export, competing with the event loop for the interpreter lock.
    """
    while True:
        with HEAVY_WORK if large else nullcontext(), collector_paused():
            piece = next(pieces, None)
        if piece is None:
            return
        yield piece
