"""The routes of ``/api/groups``: groups, members and games, history, statistics, league, export.

Reads need only the group's id (like a game's watch link); writes need the
group's token (``Authorization: Bearer <token>``) and take the group's
version in ``If-Match``. The routes only parse and answer: the reads and
their kept results are :class:`~ligretto.store.group_queries.GroupQueries`
(``service.queries``, shared with the pages), the answers' data is built
by :mod:`ligretto.web.api.group_answers`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import nullcontext
from datetime import date
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import iterate_in_threadpool, run_in_threadpool

from ligretto.store.errors import (
    GameInGroupError,
    GameNotInGroupError,
    GroupNotFoundError,
    StoreCode,
    StoreError,
)
from ligretto.store.group_queries import (
    HEAVY_WORK,
    PREPARING_RETRY_AFTER,
    collector_paused,
    league_key,
    league_season,
    paused,
)
from ligretto.store.groups import GroupService
from ligretto.store.results import CreatedGroup, StoredGroup
from ligretto.tafel.errors import Code
from ligretto.tafel.group_exchange import group_from_json, season_from_json
from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.tafel.names import name_key
from ligretto.tafel.stats import Season, select_history
from ligretto.web.api.errors import content_type_problem
from ligretto.web.api.exports import LANG_QUERY, STYLE_QUERY, export_language, spreadsheet
from ligretto.web.api.games import parse_import
from ligretto.web.api.group_answers import (
    group_out,
    head_to_head_out,
    history_item_out,
    league_out,
    member_out,
    member_stats_out,
    stats_csv,
    stats_header,
)
from ligretto.web.api.group_schemas import (
    GROUP_ERRORS,
    AddGameIn,
    GroupCreatedOut,
    GroupGameCreatedOut,
    GroupGameIn,
    GroupImportedOut,
    GroupIn,
    GroupOut,
    GroupPatchIn,
    HistoryItemOut,
    LeagueOut,
    MemberOut,
    MembersIn,
    StatsOut,
)
from ligretto.web.api.responses import created_out, set_version
from ligretto.web.api.schemas import ErrorOut
from ligretto.web.api.writes import Written, group_written, written
from ligretto.web.deps import ExpectedVersion, group_edit_link
from ligretto.web.errors import ApiError, ExceptionHandler, error_body
from ligretto.web.limits import GROUP_IMPORT_VALUES, json_values
from ligretto.web.public_url import absolute

router = APIRouter(prefix="/api/groups", tags=["groups"])

T = TypeVar("T")


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


# ------------------------------------------------------------------ routes
@router.post("", status_code=201, responses=GROUP_ERRORS)
def create_group(
    body: GroupIn, service: Groups, request: Request, response: Response
) -> GroupCreatedOut:
    """Create a group. The answer holds the secret ``token`` — only here."""
    created = service.create_group(body.name, body.members)
    return _created(request, response, created.stored, created.token)


def _created(
    request: Request, response: Response, stored: StoredGroup, token: str
) -> GroupCreatedOut:
    set_version(response, stored.version)
    response.headers["Location"] = f"/api/groups/{stored.id}"
    body = group_out(request, stored)
    body["token"] = token
    body["edit_url"] = absolute(request, group_edit_link(stored.id, token))
    return GroupCreatedOut.model_validate(body)


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
    out = _created(request, response, created.stored, created.token).model_dump()
    out["game_tokens"] = created.game_tokens
    return GroupImportedOut.model_validate(out)


IMPORT_ALONE_ABOVE = 1024 * 1024
"""Bytes of a group import past which it waits for other large group work (HEAVY_WORK)."""


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


@router.get("/{group_id}", responses=GROUP_ERRORS)
def get_group(group_id: str, service: Groups, request: Request, response: Response) -> GroupOut:
    """The group: name, members, season, number of games. No token needed."""
    stored = service.get_group(group_id)
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


@router.patch("/{group_id}", responses=GROUP_ERRORS)
async def update_group(
    group_id: str,
    body: GroupPatchIn,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupOut:
    """Rename the group or set its season (``"season": null`` goes back to calendar years)."""
    given = body.model_fields_set
    if not given:
        raise ApiError(422, "nothing_to_change", "give the name, the season, or both")
    kwargs: dict[str, Any] = {}
    if "name" in given:
        kwargs["name"] = body.name
    if "season" in given:
        kwargs["season"] = (
            None if body.season is None else season_from_json(body.season.model_dump())
        )
    return await written(
        response,
        lambda: group_written(
            request, service.update_group(group_id, token, expected_version=version, **kwargs)
        ),
    )


@router.post("/{group_id}/members", responses=GROUP_ERRORS)
async def add_members(
    group_id: str,
    body: MembersIn,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupOut:
    """New members, each under the one name rule and unique in the group (T1)."""
    return await written(
        response,
        lambda: group_written(
            request, service.add_members(group_id, token, body.names, expected_version=version)
        ),
    )


@router.post("/{group_id}/games", status_code=201, responses=GROUP_ERRORS)
async def create_group_game(
    group_id: str,
    body: GroupGameIn,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupGameCreatedOut:
    """A new game of the group; players who are not members need ``new_members`` (422
    ``new_members`` names them otherwise). The game has its own edit token, as any game."""

    def create() -> Written[GroupGameCreatedOut]:
        created, stored = service.create_game(
            group_id,
            token,
            body.players,
            mode=body.mode,
            target=body.target,
            rounds=body.rounds,
            deck=body.deck,
            row_storage=body.row_storage,
            new_members=body.new_members,
            expected_version=version,
        )
        answer = {"game": created_out(request, created), "group": group_out(request, stored)}
        return Written(stored.version, GroupGameCreatedOut.model_validate(answer))

    out = await written(response, create)
    response.headers["Location"] = f"/api/games/{out.game.id}"
    return out


@router.put("/{group_id}/games/{game_id}", responses=GROUP_ERRORS)
async def add_group_game(
    group_id: str,
    game_id: str,
    body: AddGameIn,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupOut:
    """Add an existing game to the group (its ``edit_token`` in the body)."""
    return await written(
        response,
        lambda: group_written(
            request,
            service.add_game(
                group_id,
                token,
                game_id,
                body.edit_token,
                new_members=body.new_members,
                expected_version=version,
            ),
        ),
    )


@router.delete("/{group_id}/games/{game_id}", responses=GROUP_ERRORS)
async def remove_group_game(
    group_id: str,
    game_id: str,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupOut:
    """Take a game out of the group; the game itself stays as it is."""
    return await written(
        response,
        lambda: group_written(
            request, service.remove_game(group_id, token, game_id, expected_version=version)
        ),
    )


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
    pieces = await run_in_threadpool(service.queries.export_stream, group_id)
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


# ------------------------------------------------------------------ errors
GROUP_ERROR_STATUS: dict[StoreCode, int] = {
    StoreCode.GROUP_NOT_FOUND: 404,
    StoreCode.GAME_IN_GROUP: 409,
    StoreCode.GAME_NOT_IN_GROUP: 404,
}
"""The answer's status for each of the groups' own store errors (its code is the error's)."""


async def _group_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StoreError)
    return JSONResponse(error_body(exc.code.value, str(exc)), GROUP_ERROR_STATUS[exc.code])


def install_group_errors(app: FastAPI, pages: dict[type[Exception], ExceptionHandler]) -> None:
    """The group errors: JSON under ``/api/``, *pages* (if given) elsewhere."""
    for error in (GroupNotFoundError, GameInGroupError, GameNotInGroupError):
        handler: ExceptionHandler = _group_error
        page = pages.get(error)
        if page is None:
            app.add_exception_handler(error, handler)
            continue

        async def either(
            request: Request,
            exc: Exception,
            api: ExceptionHandler = handler,
            page: ExceptionHandler = page,
        ) -> Response:
            return await (api if request.url.path.startswith("/api/") else page)(request, exc)

        app.add_exception_handler(error, either)
