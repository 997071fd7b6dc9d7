"""A group's pages: league table, history, members, and the forms of the group link.

``/groups/{id}`` is the read-only page (the id is the key, as a game's
watch link); ``/groups/{id}/edit`` adds the forms: start a game of the
group, add an existing game, add members. Its address holds no secret: the
group link carries the token in its fragment (``#t=…``), the page's script
keeps it on the phone and puts it in the forms' hidden ``token`` field; for
pages without JavaScript the server keeps it in an HttpOnly,
``SameSite=Strict`` cookie of the group's edit pages (set when the group is
created here, or by any accepted form). Every write checks it again.

Every number comes from :mod:`ligretto.tafel.stats` and
:mod:`ligretto.tafel.ratings`; this module arranges them for the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

from babel.dates import format_date
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ligretto.store.errors import (
    ForbiddenError,
    GameInGroupError,
    GameNotFoundError,
    GroupNotFoundError,
    StoreBusyError,
    VersionConflictError,
)
from ligretto.store.groups import GroupService, StoredGroup
from ligretto.tafel import Code, TafelError
from ligretto.tafel.errors import GroupError
from ligretto.tafel.limits import MAX_MEMBERS
from ligretto.tafel.names import name_key
from ligretto.tafel.ratings import INITIAL, League, Rating, RatingMemo, rate
from ligretto.tafel.stats import (
    MemberStats,
    PlayedGame,
    Season,
    history,
    round_points,
    select_history,
)
from ligretto.web.api.groups import (
    group_edit_base,
    group_watch_path,
    league_of,
    league_season,
    stats_of,
)
from ligretto.web.charts import Series, running_totals_svg
from ligretto.web.forms import choice, whole_field
from ligretto.web.group_charts import histogram_svg, rating_band_svg
from ligretto.web.pages.board import not_found, remember_token
from ligretto.web.pages.deps import EDIT_COOKIE_MAX_AGE, absolute, edit_base, watch_path
from ligretto.web.pages.messages import N_, refusal
from ligretto.web.pages.rendering import gettext, render, request_language
from ligretto.web.qr import qr_svg

router = APIRouter()

HISTORY_SHOWN = 50
"""Games listed on the group page before "show all"."""

_LINK = re.compile(
    r"/g/([A-Za-z0-9_-]{1,32})/edit(?:/([A-Za-z0-9_-]{1,200})|/?#t=([A-Za-z0-9_-]{1,200}))"
)


def group_cookie(group_id: str) -> str:
    """The cookie that keeps a group's token for its edit pages (no JavaScript)."""
    return f"tafel_group_{group_id}"


@lru_cache(maxsize=256)
def _qr(url: str) -> Markup:
    """The QR code of a group's read-only link (the same for every read of the page)."""
    return qr_svg(url)


def _service(request: Request) -> GroupService:
    service: GroupService = request.app.state.groups
    return service


def _remember_group(response: Response, request: Request, group_id: str, token: str) -> None:
    response.set_cookie(
        group_cookie(group_id),
        token,
        max_age=EDIT_COOKIE_MAX_AGE,
        path=group_edit_base(group_id),
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


GROUP_REFUSALS: dict[Code, str] = {
    Code.BAD_GROUP_NAME: N_("A group needs a visible name of at most %(max)s characters."),
    Code.TOO_MANY_MEMBERS: N_("A group has at most %(max)s members."),
    Code.NEW_MEMBERS: N_(
        "Not yet members of the group: %(names)s. Tick “Add new players to the group” to add them."
    ),
    Code.BAD_SEASON: N_("A season ends on or after its first day."),
    Code.DUPLICATE_NAME: N_("%(name)s is already a member."),
}


def group_refusal(language: str, error: TafelError) -> str:
    """A group refusal in the reader's language (game refusals as the board says them)."""
    template = GROUP_REFUSALS.get(error.code)
    if template is None or not isinstance(error, GroupError):
        return refusal(language, error)  # a game's refusal, as the board says it
    return gettext(
        language,
        template,
        max=error.params.get("limit", MAX_MEMBERS),
        names=", ".join(error.params.get("names", ())),
        name=error.player or "",
    )


# ------------------------------------------------------------------ views
@dataclass(frozen=True, slots=True)
class HistoryLine:
    id: str
    url: str
    date: str
    iso: str
    players: str
    winners: str
    mode: str
    rounds: int
    finished: bool


@dataclass(frozen=True, slots=True)
class MemberLine:
    name: str
    url: str


def _date(language: str, moment: datetime) -> str:
    return format_date(moment, "medium", locale=language)


def _number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    text = f"{abs(value):.{digits}f}"
    return f"\u2212{text}" if value < 0 and float(text) != 0 else text


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{round(100 * value)} %"


def member_url(group_id: str, name: str, editing: bool) -> str:
    base = group_edit_base(group_id) if editing else group_watch_path(group_id)
    return f"{base}/members/{quote(name, safe='')}"


def league_chart(language: str, table: League) -> Markup | None:
    """Every member's conservative rating after each game of the season."""
    if not table.steps or not table.rows:
        return None
    names = [row.name for row in table.rows][:12]
    current = dict.fromkeys(names, 0.0)
    values: dict[str, list[int]] = {n: [] for n in names}
    for step in table.steps:
        for name, rating in step.ratings.items():
            if name in current:
                current[name] = rating.conservative
        for name in names:
            values[name].append(round(current[name]))
    series = [Series(name, tuple(values[name])) for name in names]
    description = ", ".join(f"{row.name} {_number(row.rating.conservative)}" for row in table.rows)
    return running_totals_svg(
        series,
        title=gettext(language, N_("Rating after each game")),
        description=gettext(language, N_("Ratings now: %(list)s."), list=description),
        round_label=gettext(language, N_("games")),
    )


def _chart(drawn: dict[str, Any], language: str, table: League) -> Markup | None:
    """The league's chart in *language*, drawn once per league (kept with it)."""
    key = f"chart:{language}"
    if key not in drawn:
        drawn[key] = league_chart(language, table)
    chart: Markup | None = drawn[key]
    return chart


def _group_context(
    request: Request, stored: StoredGroup, *, editing: bool, token: str | None
) -> dict[str, Any]:
    watch = group_watch_path(stored.id)
    return {
        "group": stored,
        "editing": editing,
        "token": token,
        "base": group_edit_base(stored.id) if editing else watch,
        "watch_url": watch,
        "watch_url_full": absolute(request, watch),
        "watch_qr": _qr(absolute(request, watch)),
        "edit_url_full": None
        if token is None
        else absolute(request, f"{group_edit_base(stored.id)}#t={token}"),
        "members": [MemberLine(m, member_url(stored.id, m, editing)) for m in stored.members],
        "export_json": f"/api/groups/{stored.id}/export.json",
        "export_csv": f"/api/groups/{stored.id}/stats.csv",
        "export_csv_de": f"/api/groups/{stored.id}/stats.csv?style=de",
    }


async def _group_page(
    request: Request,
    group_id: str,
    *,
    editing: bool,
    token: str | None = None,
    errors: tuple[str, ...] = (),
    form: dict[str, Any] | None = None,
    status_code: int = 200,
) -> Response:
    service = _service(request)
    language = request_language(request)
    query = request.query_params
    year_text = query.get("year", "")
    season_choice = query.get("season", "")
    year = whole_field(year_text, 4)

    def pick(stored: StoredGroup) -> Season | None:
        if season_choice == "all":
            return None
        return league_season(stored, year if year and year >= 1 else None, None, None, False)

    try:
        stored, table, drawn = await run_in_threadpool(league_of, service, group_id, pick)
        every = await run_in_threadpool(
            service.computed, group_id, "history", lambda _s, games: history(games)
        )
    except GroupNotFoundError:
        return not_found(request)
    member = query.get("member") or None
    if member is not None and name_key(member) not in {name_key(m) for m in stored.members}:
        member = None
    mode = choice(query.get("mode", ""), ("target", "rounds"), "") or None
    history_year = whole_field(query.get("played", ""), 4)
    items = select_history(every, member=member, year=history_year, mode=mode)
    show_all = query.get("history") == "all"
    lines = [
        HistoryLine(
            id=i.id,
            url=edit_base(i.id) if editing else watch_path(i.id),
            date=_date(language, i.played_at),
            iso=i.played_at.isoformat(),
            players=", ".join(i.players),
            winners=" & ".join(i.winners),
            mode=i.mode,
            rounds=i.rounds,
            finished=i.status == "finished",
        )
        for i in (items if show_all else items[:HISTORY_SHOWN])
    ]
    years = sorted({i.played_at.year for i in every}, reverse=True)
    context = _group_context(request, stored, editing=editing, token=token)
    context.update(
        {
            "table": table,
            "season_label": _season_label(language, table.season),
            "league_chart": await run_in_threadpool(_chart, drawn, language, table),
            "rows": [
                {
                    "rank": row.rank,
                    "name": row.name,
                    "url": member_url(stored.id, row.name, editing),
                    "rating": _number(row.rating.conservative),
                    "mu": _number(row.rating.mu),
                    "spread": _number(3 * row.rating.sigma),
                    "games": row.games,
                    "wins": row.wins,
                    "shared": row.shared_wins,
                    "ppr": _number(row.points_per_round),
                }
                for row in table.rows
            ],
            "years": years,
            "season_choice": "all" if season_choice == "all" else (str(year) if year else ""),
            "history": lines,
            "history_total": len(items),
            "history_more": None
            if show_all or len(items) <= HISTORY_SHOWN
            else "?" + urlencode({**dict(query), "history": "all"}),
            "filter": {"member": member or "", "played": history_year or "", "mode": mode or ""},
            "errors": errors,
            "form": form or {},
            "limits_members": MAX_MEMBERS,
        }
    )
    path = f"{group_edit_base(stored.id)}" if editing else None
    response = render(request, "groups/group.html", context, status_code=status_code, path=path)
    if editing:
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _season_label(language: str, season: Season | None) -> str:
    if season is None:
        return gettext(language, N_("all games"))
    if (
        season.start.month == 1
        and season.start.day == 1
        and season.end == season.start.replace(month=12, day=31)
    ):
        return str(season.start.year)
    return (
        f"{_date(language, datetime.combine(season.start, datetime.min.time(), UTC))} – "
        + _date(language, datetime.combine(season.end, datetime.min.time(), UTC))
    )


# ------------------------------------------------------------------ routes
@router.get("/groups/new", response_class=HTMLResponse)
async def new_group_page(request: Request) -> Response:
    return render(request, "groups/new.html", {"form": {}, "errors": ()})


@router.post("/groups", response_model=None)
async def create_group(request: Request) -> Response:
    """Create the group and go to its page with the forms (the token in the fragment)."""
    language = request_language(request)
    data = await request.form()
    name = str(data.get("name") or "")[:400]
    members = _lines(str(data.get("members") or ""))
    try:
        created = await run_in_threadpool(_service(request).create_group, name, members)
    except TafelError as error:
        context = {
            "form": {"name": name, "members": "\n".join(members)},
            "errors": (group_refusal(language, error),),
        }
        return render(request, "groups/new.html", context, status_code=422, path="/groups/new")
    stored, token = created.stored, created.token
    response = RedirectResponse(f"{group_edit_base(stored.id)}#t={token}", status_code=303)
    _remember_group(response, request, stored.id, token)
    return response


@router.get("/groups/{group_id}", response_class=HTMLResponse)
async def group_page(request: Request, group_id: str) -> Response:
    return await _group_page(request, group_id, editing=False)


@router.get("/groups/{group_id}/edit", response_class=HTMLResponse)
async def group_edit_page(request: Request, group_id: str) -> Response:
    token = (request.cookies.get(group_cookie(group_id)) or "").strip()[:200] or None
    return await _group_page(request, group_id, editing=True, token=token)


def _lines(text: str) -> list[str]:
    """Names typed one per line (or separated by commas); empty ones left out."""
    names = [part.strip() for part in re.split(r"[\n,]", text[:20000])]
    return [n for n in names if n][: MAX_MEMBERS + 1]


def _token(data: FormData, request: Request, group_id: str) -> str | None:
    value = str(data.get("token") or "").strip()[:200]
    return value or (request.cookies.get(group_cookie(group_id)) or "").strip()[:200] or None


async def _write(
    request: Request,
    group_id: str,
    data: FormData,
    act: Any,
    form: dict[str, Any],
) -> Response:
    """Run a group write from a form; a refusal shows the page again with the reason."""
    language = request_language(request)
    token = _token(data, request, group_id)
    try:
        result = await run_in_threadpool(act, token)
    except GroupNotFoundError:
        return not_found(request)
    except TafelError as error:
        message = group_refusal(language, error)
    except ForbiddenError as error:
        message = (
            gettext(
                language,
                N_("This link does not allow adding that game: it needs the game's edit link."),
            )
            if "game" in str(error) and "group's" not in str(error)
            else gettext(
                language, N_("This needs the group's link. Open the group from its link again.")
            )
        )
    except GameNotFoundError:
        message = gettext(language, N_("There is no game at this link."))
    except GameInGroupError:
        message = gettext(language, N_("This game already belongs to a group."))
    except VersionConflictError:
        message = gettext(language, N_("The group was changed meanwhile; please try again."))
    except StoreBusyError:
        message = gettext(
            language, N_("The server is busy. Nothing was changed; please try again.")
        )
    else:
        if isinstance(result, Response):
            if token:
                _remember_group(result, request, group_id, token)
            return result
        response = RedirectResponse(group_edit_base(group_id), status_code=303)
        if token:
            _remember_group(response, request, group_id, token)
        return response
    return await _group_page(
        request, group_id, editing=True, token=None, errors=(message,), form=form, status_code=422
    )


@router.post("/groups/{group_id}/edit/games", response_model=None)
async def start_group_game(request: Request, group_id: str) -> Response:
    """A new game of the group: ticked members, then new names; to the game's board."""
    data = await request.form()
    ticked = [str(v) for v in data.getlist("player")][: MAX_MEMBERS + 1]
    extra = _lines(str(data.get("new_players") or ""))
    mode = choice(str(data.get("mode") or ""), ("target", "rounds"), "target")
    number = whole_field(str(data.get("target" if mode == "target" else "rounds") or ""))
    confirm = data.get("confirm_new") == "1"
    form = {
        "ticked": ticked,
        "new_players": "\n".join(extra),
        "mode": mode,
        "number": "" if number is None else number,
        "confirm_new": confirm,
    }
    players = ticked + extra

    def act(token: str | None) -> Response:
        created, _ = _service(request).create_game(
            group_id,
            token,
            players,
            mode=mode,
            target=number if mode == "target" else None,
            rounds=number if mode == "rounds" else None,
            new_members=extra if confirm else (),
        )
        game_id, game_token = created.stored.id, created.edit_token
        response = RedirectResponse(
            f"{edit_base(game_id)}?created=1#t={game_token}", status_code=303
        )
        remember_token(response, request, game_id, game_token)
        return response

    if mode == "rounds" and number is None:
        language = request_language(request)
        message = gettext(language, N_("Enter the number of rounds as a whole number, e.g. 8."))
        return await _group_page(
            request, group_id, editing=True, errors=(message,), form=form, status_code=422
        )
    return await _write(request, group_id, data, act, form)


@router.post("/groups/{group_id}/edit/members", response_model=None)
async def add_group_members(request: Request, group_id: str) -> Response:
    data = await request.form()
    names = _lines(str(data.get("names") or ""))
    return await _write(
        request,
        group_id,
        data,
        lambda token: _service(request).add_members(group_id, token, names),
        {"names": "\n".join(names)},
    )


@router.post("/groups/{group_id}/edit/add-game", response_model=None)
async def add_existing_game(request: Request, group_id: str) -> Response:
    """Add a game by its edit link (``…/g/{id}/edit#t=…`` or the old form)."""
    data = await request.form()
    link = str(data.get("link") or "").strip()[:600]
    confirm = data.get("confirm_new") == "1"
    match = _LINK.search(link)
    game_id, game_token = (None, None) if match is None else (match[1], match[2] or match[3])

    def act(token: str | None) -> object:
        if game_id is None:
            raise GameNotFoundError(link[:40])
        service = _service(request)
        if confirm:
            stored_game = request.app.state.tafel.get_game(game_id)
            return service.add_game(
                group_id, token, game_id, game_token, new_members=stored_game.game.players
            )
        return service.add_game(group_id, token, game_id, game_token)

    return await _write(request, group_id, data, act, {"link": link, "confirm_link": confirm})


# ------------------------------------------------------------------ member
@dataclass(frozen=True, slots=True)
class PairLine:
    opponent: str
    url: str
    games: int
    ahead: int
    behind: int
    level: int


async def _member_page(request: Request, group_id: str, name: str, *, editing: bool) -> Response:
    service = _service(request)
    language = request_language(request)
    try:
        stored, stats, pairs = await run_in_threadpool(stats_of, service, group_id)
    except GroupNotFoundError:
        return not_found(request)
    found = next((s for s in stats if name_key(s.name) == name_key(name)), None)
    if found is None:
        return not_found(request)

    lock, memo = service.memo(group_id, "rating:all", RatingMemo)

    def compute(group: StoredGroup, games: list[PlayedGame]) -> tuple[list[Rating], list[int]]:
        with lock:
            _, steps = rate(games, group.members, memo)
        timeline = [INITIAL] + [s.ratings[found.name] for s in steps if found.name in s.ratings]
        return timeline, round_points(games, found.name)

    timeline, points = await run_in_threadpool(
        service.computed, group_id, f"member-page:{found.name}", compute
    )
    rating = timeline[-1] if len(timeline) > 1 else None
    rating_chart = None
    if len(timeline) > 1:
        rating_chart = rating_band_svg(
            [r.mu for r in timeline],
            [r.sigma for r in timeline],
            title=gettext(language, N_("Rating of %(name)s after each game"), name=found.name),
            description=gettext(
                language,
                N_("After %(games)s games: %(mu)s, uncertain by ± %(spread)s."),
                games=len(timeline) - 1,
                mu=_number(timeline[-1].mu),
                spread=_number(3 * timeline[-1].sigma),
            ),
            x_label=gettext(language, N_("games")),
        )
    points_chart = None
    if points:
        points_chart = histogram_svg(
            points,
            title=gettext(language, N_("Points per round of %(name)s"), name=found.name),
            description=gettext(
                language,
                N_("%(rounds)s rounds from %(low)s to %(high)s points."),
                rounds=len(points),
                low=min(points),
                high=max(points),
            ),
            x_label=gettext(language, N_("points in a round")),
        )
    context = _group_context(request, stored, editing=editing, token=None)
    context.update(
        {
            "member": found,
            "numbers": _member_numbers(language, found, rating),
            "best": found.best_round,
            "worst": found.worst_round,
            "round_url": (
                lambda ref: edit_base(ref.game_id) if editing else watch_path(ref.game_id)
            ),
            "pairs": [
                PairLine(
                    h.opponent,
                    member_url(stored.id, h.opponent, editing),
                    h.games,
                    h.ahead,
                    h.behind,
                    h.level,
                )
                for h in pairs
                if h.member == found.name
            ],
            "rating_chart": rating_chart,
            "points_chart": points_chart,
        }
    )
    return render(request, "groups/member.html", context)


def _member_numbers(language: str, s: MemberStats, rating: Rating | None) -> list[tuple[str, str]]:
    interval = (
        "–"
        if s.points_low is None or s.points_high is None
        else f"{_number(s.points_low)} … {_number(s.points_high)} (95 %)"
    )
    rows = [
        (N_("Games finished"), str(s.games)),
        (N_("Wins"), str(s.wins)),
        (N_("of them shared"), str(s.shared_wins)),
        (N_("Win rate"), _percent(s.win_rate)),
        (N_("Longest winning streak"), str(s.longest_streak)),
        (N_("Rounds"), str(s.rounds)),
        (N_("Points per round"), _number(s.points_per_round)),
        (N_("Confidence interval"), interval),
        (N_("Ligretto Stop called"), f"{s.stops} ({_percent(s.stop_rate)})"),
        (N_("Stack cards left per round"), _number(s.stack_cards_per_round)),
        (N_("Rating"), _rating_text(rating)),
    ]
    return [(gettext(language, label), value) for label, value in rows]


def _rating_text(rating: Rating | None) -> str:
    """``12.3 (25.4 ± 13.1)``: the conservative rating, then the belief and its spread."""
    if rating is None:
        return "–"
    spread = _number(3 * rating.sigma)
    return f"{_number(rating.conservative)} ({_number(rating.mu)} ± {spread})"


@router.get("/groups/{group_id}/members/{name}", response_class=HTMLResponse)
async def member_page(request: Request, group_id: str, name: str) -> Response:
    return await _member_page(request, group_id, name, editing=False)


@router.get("/groups/{group_id}/edit/members/{name}", response_class=HTMLResponse)
async def member_edit_page(request: Request, group_id: str, name: str) -> Response:
    return await _member_page(request, group_id, name, editing=True)
