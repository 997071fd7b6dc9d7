"""``/api/groups``: groups, their members and games, history, statistics, league, export.

Reads need only the group's id (like a game's watch link); writes need the
group's token (``Authorization: Bearer <token>``) and take the group's
version in ``If-Match``. Statistics are derived from the games' rounds
(:mod:`ligretto.tafel.stats`, :mod:`ligretto.tafel.ratings`).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ligretto.store.errors import GameInGroupError, GameNotInGroupError, GroupNotFoundError
from ligretto.store.groups import GroupService, StoredGroup, parse_season
from ligretto.tafel.errors import Code, GroupError
from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.tafel.ratings import League, Rating, RatingMemo, league, rate
from ligretto.tafel.stats import (
    HeadToHead,
    MemberStats,
    PlayedGame,
    RoundRef,
    Season,
    head_to_head,
    history,
    member_stats,
    round_points,
    select_history,
)
from ligretto.web.api.errors import ApiError, ExceptionHandler, content_type_problem, error_body
from ligretto.web.api.exports import spreadsheet_de
from ligretto.web.api.games import parse_import
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
from ligretto.web.deps import ExpectedVersion, absolute, watch_path

router = APIRouter(prefix="/api/groups", tags=["groups"])


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


# ------------------------------------------------------------------ paths
def group_watch_path(group_id: str) -> str:
    """The group's pages, read-only: anyone with the id may look."""
    return f"/groups/{group_id}"


def group_edit_base(group_id: str) -> str:
    """The group's pages with their forms, without any secret."""
    return f"/groups/{group_id}/edit"


def group_edit_link(group_id: str, token: str) -> str:
    """The group's link to hand out: the token in the fragment, which no server sees."""
    return f"{group_edit_base(group_id)}#t={token}"


# ---------------------------------------------------------------- answers
def season_out(season: Season | None) -> dict[str, str] | None:
    if season is None:
        return None
    return {"start": season.start.isoformat(), "end": season.end.isoformat()}


def group_out(request: Request, stored: StoredGroup) -> dict[str, Any]:
    return {
        "id": stored.id,
        "version": stored.version,
        "name": stored.name,
        "members": list(stored.members),
        "season": season_out(stored.season),
        "games": stored.games,
        "created_at": stored.created_at.isoformat(),
        "updated_at": stored.updated_at.isoformat(),
        "watch_url": absolute(request, group_watch_path(stored.id)),
    }


def _ref(ref: RoundRef | None) -> dict[str, Any] | None:
    if ref is None:
        return None
    return {
        "points": ref.points,
        "game_id": ref.game_id,
        "round": ref.round,
        "played_at": ref.played_at.isoformat(),
    }


def member_stats_out(s: MemberStats) -> dict[str, Any]:
    return {
        "name": s.name,
        "games": s.games,
        "wins": s.wins,
        "shared_wins": s.shared_wins,
        "win_rate": s.win_rate,
        "rounds": s.rounds,
        "points": s.points,
        "points_per_round": s.points_per_round,
        "points_per_round_low": s.points_low,
        "points_per_round_high": s.points_high,
        "stops": s.stops,
        "stop_rate": s.stop_rate,
        "stack_cards_per_round": s.stack_cards_per_round,
        "best_round": _ref(s.best_round),
        "worst_round": _ref(s.worst_round),
        "longest_streak": s.longest_streak,
    }


def head_to_head_out(h: HeadToHead) -> dict[str, Any]:
    return {
        "member": h.member,
        "opponent": h.opponent,
        "games": h.games,
        "ahead": h.ahead,
        "behind": h.behind,
        "level": h.level,
    }


def rating_out(r: Rating) -> dict[str, float]:
    return {"mu": r.mu, "sigma": r.sigma, "rating": r.conservative}


def league_out(table: League) -> dict[str, Any]:
    return {
        "season": season_out(table.season),
        "games": table.games,
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "rating": rating_out(row.rating),
                "games": row.games,
                "wins": row.wins,
                "shared_wins": row.shared_wins,
                "points": row.points,
                "rounds": row.rounds,
                "points_per_round": row.points_per_round,
            }
            for row in table.rows
        ],
        "steps": [
            {"game_id": s.game_id, "ratings": {n: rating_out(r) for n, r in s.ratings.items()}}
            for s in table.steps
        ],
    }


# ------------------------------------------------------------- computed
def league_season(
    stored: StoredGroup,
    year: int | None,
    start: date | None,
    end: date | None,
    everything: bool,
    today: date | None = None,
) -> Season | None:
    """The season asked for: all games, a year, two dates, the group's, or this year."""
    if everything:
        return None
    if start is not None or end is not None:
        if start is None or end is None:
            raise GroupError(Code.BAD_SEASON, "a season needs both start and end", rule="T6")
        return Season(start, end)
    if year is not None:
        return Season.year(year)
    if stored.season is not None:
        return stored.season
    return Season.year((today or datetime.now(UTC).date()).year)


def stats_of(
    service: GroupService, group_id: str
) -> tuple[StoredGroup, list[MemberStats], list[HeadToHead]]:
    def compute(
        stored: StoredGroup, games: list[PlayedGame]
    ) -> tuple[StoredGroup, list[MemberStats], list[HeadToHead]]:
        return stored, member_stats(games, stored.members), head_to_head(games, stored.members)

    return service.computed(group_id, "stats", compute)


def league_of(
    service: GroupService, group_id: str, pick: Any
) -> tuple[StoredGroup, League, dict[str, Any]]:
    """*pick(stored)* gives the season; the league is computed and kept per season.

    The third value is a dictionary kept with this league (until the group
    changes), for what the pages draw from it (the chart, per language).
    """
    stored_now = service.get_group(group_id)
    season = pick(stored_now)
    key = "league:" + ("all" if season is None else f"{season.start}:{season.end}")

    lock, memo = service.memo(group_id, key, RatingMemo)

    def compute(
        stored: StoredGroup, games: list[PlayedGame]
    ) -> tuple[StoredGroup, League, dict[str, Any]]:
        with lock:
            return stored, league(games, stored.members, season, memo), {}

    return service.computed(group_id, key, compute)


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
    """Import a group's export as a new group (new ids and tokens); every game is checked."""
    problem = content_type_problem(request.headers.get("content-type"))
    if problem:
        raise ApiError(422, "invalid_request", problem)
    data = await run_in_threadpool(parse_import, await request.body())
    created = await run_in_threadpool(service.import_group, data)
    out = _created(request, response, created.stored, created.token).model_dump()
    out["game_tokens"] = created.game_tokens
    return GroupImportedOut.model_validate(out)


@router.get("/{group_id}", responses=GROUP_ERRORS)
def get_group(group_id: str, service: Groups, request: Request, response: Response) -> GroupOut:
    """The group: name, members, season, number of games. No token needed."""
    stored = service.get_group(group_id)
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


@router.patch("/{group_id}", responses=GROUP_ERRORS)
def update_group(
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
        kwargs["season"] = None if body.season is None else parse_season(body.season.model_dump())
    stored = service.update_group(group_id, token, expected_version=version, **kwargs)
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


@router.post("/{group_id}/members", responses=GROUP_ERRORS)
def add_members(
    group_id: str,
    body: MembersIn,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupOut:
    """New members, each under the one name rule and unique in the group (T1)."""
    stored = service.add_members(group_id, token, body.names, expected_version=version)
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


@router.post("/{group_id}/games", status_code=201, responses=GROUP_ERRORS)
def create_group_game(
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
    set_version(response, stored.version)
    response.headers["Location"] = f"/api/games/{created.stored.id}"
    return GroupGameCreatedOut.model_validate(
        {"game": created_out(request, created), "group": group_out(request, stored)}
    )


@router.put("/{group_id}/games/{game_id}", responses=GROUP_ERRORS)
def add_group_game(
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
    stored = service.add_game(
        group_id,
        token,
        game_id,
        body.edit_token,
        new_members=body.new_members,
        expected_version=version,
    )
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


@router.delete("/{group_id}/games/{game_id}", responses=GROUP_ERRORS)
def remove_group_game(
    group_id: str,
    game_id: str,
    service: Groups,
    token: GroupToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> GroupOut:
    """Take a game out of the group; the game itself stays as it is."""
    stored = service.remove_game(group_id, token, game_id, expected_version=version)
    set_version(response, stored.version)
    return GroupOut.model_validate(group_out(request, stored))


Member = Annotated[str | None, Query(max_length=4 * MAX_NAME_LENGTH)]
Year = Annotated[int | None, Query(ge=1, le=9999)]


@router.get("/{group_id}/games", responses=GROUP_ERRORS)
def group_history(
    group_id: str,
    service: Groups,
    request: Request,
    member: Member = None,
    year: Year = None,
    mode: Literal["target", "rounds"] | None = None,
) -> list[HistoryItemOut]:
    """Every game of the group, newest first; filter by member, year and mode."""
    every = service.computed(group_id, "history", lambda _s, games: history(games))
    items = select_history(every, member=member, year=year, mode=mode)
    return [
        HistoryItemOut.model_validate(
            {
                "id": i.id,
                "played_at": i.played_at.isoformat(),
                "players": list(i.players),
                "winners": list(i.winners),
                "mode": i.mode,
                "target": i.target,
                "rounds": i.rounds,
                "status": i.status,
                "totals": dict(zip(i.players, i.totals, strict=True)),
                "watch_url": absolute(request, watch_path(i.id)),
            }
        )
        for i in items
    ]


@router.get("/{group_id}/stats", responses=GROUP_ERRORS)
def group_stats(group_id: str, service: Groups, response: Response) -> StatsOut:
    """Every member's statistics and the head-to-head table, from the rounds."""
    stored, stats, pairs = stats_of(service, group_id)
    set_version(response, stored.version)
    return StatsOut.model_validate(
        {
            "members": [member_stats_out(s) for s in stats],
            "head_to_head": [head_to_head_out(h) for h in pairs],
        }
    )


@router.get("/{group_id}/league", responses=GROUP_ERRORS)
def group_league(
    group_id: str,
    service: Groups,
    response: Response,
    year: Year = None,
    start: date | None = None,
    end: date | None = None,
    everything: Annotated[bool, Query(alias="all", description="every game")] = False,
) -> LeagueOut:
    """The league of a season, ranked by rating (mu − 3·sigma), with wins and points.

    The season: ``all=true`` every game, ``year``, ``start`` and ``end``, else
    the group's own season, else this calendar year.
    """
    stored, table, _ = league_of(
        service, group_id, lambda s: league_season(s, year, start, end, everything)
    )
    set_version(response, stored.version)
    return LeagueOut.model_validate(league_out(table))


@router.get("/{group_id}/members/{name}", responses=GROUP_ERRORS)
def group_member(group_id: str, name: str, service: Groups, response: Response) -> MemberOut:
    """One member: statistics, head-to-head, rating over time, points of every round."""
    stored, stats, pairs = stats_of(service, group_id)
    set_version(response, stored.version)
    return MemberOut.model_validate(member_out(service, group_id, stored, stats, pairs, name))


def member_out(
    service: GroupService,
    group_id: str,
    stored: StoredGroup,
    stats: list[MemberStats],
    pairs: list[HeadToHead],
    name: str,
) -> dict[str, Any]:
    from ligretto.tafel.names import name_key

    key = name_key(name) if isinstance(name, str) else ""
    found = next((s for s in stats if name_key(s.name) == key), None)
    if found is None:
        raise ApiError(404, Code.NOT_A_MEMBER.value, "there is no member of this name in the group")

    lock, memo = service.memo(group_id, "rating:all", RatingMemo)

    def compute(_s: StoredGroup, games: list[PlayedGame]) -> tuple[Any, Any, list[int]]:
        with lock:
            final, steps = rate(games, _s.members, memo)
        return final, steps, round_points(games, found.name)

    final, steps, points = service.computed(group_id, f"member:{found.name}", compute)
    return {
        "stats": member_stats_out(found),
        "head_to_head": [head_to_head_out(h) for h in pairs if h.member == found.name],
        "rating": rating_out(final[found.name]) if found.name in final else None,
        "ratings": [
            {"game_id": s.game_id, "ratings": {found.name: rating_out(s.ratings[found.name])}}
            for s in steps
            if found.name in s.ratings
        ],
        "round_points": points,
    }


# No response model: the export is the group exchange format, key for key.
@router.get("/{group_id}/export.json", responses=GROUP_ERRORS, response_model=None)
def export_group(group_id: str, service: Groups, response: Response) -> dict[str, Any]:
    """The whole group with every game and its rounds; never a token."""
    data = service.export_json(group_id)
    response.headers["Content-Disposition"] = f'attachment; filename="group-{group_id}.json"'
    return data


STATS_COLUMNS = (
    "member",
    "games",
    "wins",
    "shared_wins",
    "win_rate",
    "rounds",
    "points",
    "points_per_round",
    "points_per_round_low",
    "points_per_round_high",
    "stops",
    "stop_rate",
    "stack_cards_per_round",
    "best_round",
    "worst_round",
    "longest_streak",
)


def stats_csv(stats: list[MemberStats]) -> str:
    """One line per member, the numbers of :class:`MemberStats` (decimals with a point)."""
    out = io.StringIO()
    table = csv.writer(out, lineterminator="\r\n")
    table.writerow(STATS_COLUMNS)
    for s in stats:
        data = member_stats_out(s)
        row: list[object] = [s.name]
        for column in STATS_COLUMNS[1:]:
            value = data[column]
            if column in ("best_round", "worst_round"):
                value = None if value is None else value["points"]
            if isinstance(value, float):
                value = f"{value:.3f}"
            row.append("" if value is None else value)
        table.writerow(row)
    return out.getvalue()


@router.get("/{group_id}/stats.csv", responses=GROUP_ERRORS, response_class=Response)
def export_stats_csv(
    group_id: str,
    service: Groups,
    style: Annotated[
        Literal["rfc", "de"],
        Query(description="`rfc`: commas (RFC 4180); `de`: semicolons and decimal commas"),
    ] = "rfc",
) -> Response:
    """Every member's statistics, one line each."""
    _, stats, _ = stats_of(service, group_id)
    text, suffix = stats_csv(stats), ""
    if style == "de":
        text, suffix = spreadsheet_de(text), "-de"
    return Response(
        content=text.encode("utf-8-sig"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="group-{group_id}-stats{suffix}.csv"'
        },
    )


# ------------------------------------------------------------------ errors
async def _group_not_found(_request: Request, _exc: Exception) -> Response:
    return JSONResponse(error_body("group_not_found", "there is no group with this id"), 404)


async def _game_in_group(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GameInGroupError)
    return JSONResponse(error_body("game_in_group", str(exc)), 409)


async def _game_not_in_group(_request: Request, exc: Exception) -> Response:
    return JSONResponse(error_body("game_not_in_group", str(exc)), 404)


def install_group_errors(app: FastAPI, pages: dict[type[Exception], ExceptionHandler]) -> None:
    """The group errors: JSON under ``/api/``, *pages* (if given) elsewhere."""
    for error, handler in (
        (GroupNotFoundError, _group_not_found),
        (GameInGroupError, _game_in_group),
        (GameNotInGroupError, _game_not_in_group),
    ):
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
