"""What a group's page shows: league table, rating chart, history, links, for the reader.

The numbers come from :class:`~ligretto.store.group_queries.GroupQueries`
(the same reads, and kept results, as the JSON API); this module arranges
them for ``groups/group.html`` in the reader's language, and formats the
numbers the members' pages show too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

from babel.dates import format_date, format_time
from babel.lists import format_list
from fastapi import Request
from fastapi.responses import Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from ligretto.collector import paused
from ligretto.store.errors import GroupNotFoundError
from ligretto.store.group_queries import (
    PREPARING_RETRY_AFTER,
    GroupLeague,
    league_key,
    league_season,
)
from ligretto.store.groups import GroupService
from ligretto.store.results import StoredGroup
from ligretto.tafel.family import FamilyTable
from ligretto.tafel.limits import MAX_MEMBERS
from ligretto.tafel.names import name_key
from ligretto.tafel.ratings import League
from ligretto.tafel.stats import Form, Season, select_history
from ligretto.web.charts import Series, running_totals_svg
from ligretto.web.deps import group_edit_base, group_edit_link, group_watch_path
from ligretto.web.forms import choice, whole_field
from ligretto.web.numbers import LOCALES, number, percent
from ligretto.web.pages.deps import absolute, edit_base, watch_path
from ligretto.web.pages.error_pages import not_found
from ligretto.web.qr import qr_svg
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, format_points, gettext

HISTORY_SHOWN = 50
"""Games listed on the group page before "show all"."""


def group_service(request: Request) -> GroupService:
    """The app's group service (``app.state.groups``)."""
    service: GroupService = request.app.state.groups
    return service


@lru_cache(maxsize=256)
def _qr(url: str) -> Markup:
    """The QR code of a group's read-only link (the same for every read of the page)."""
    return qr_svg(url)


@dataclass(frozen=True, slots=True)
class HistoryLine:
    id: str
    url: str
    date: str
    time: str
    iso: str
    scores: str
    winners: str
    mode: str
    rounds: int
    finished: bool


@dataclass(frozen=True, slots=True)
class MemberLine:
    name: str
    url: str


@dataclass(frozen=True, slots=True)
class FamilyLine:
    """One row of the group page's table: a member's wins, win rate, medals and form."""

    place: int
    name: str
    url: str
    games: int
    wins: int
    shared: int
    rate: str
    medals: tuple[int, int, int]
    """First, second and third places."""
    form: Form


@dataclass(frozen=True, slots=True)
class StrengthLine:
    """One row of the strength (rating) table behind "details"."""

    rank: int
    name: str
    url: str
    strength: str
    games: int


def names_text(language: str, names: list[str]) -> str:
    """``Kari, Ola and Per`` as *language* lists names."""
    return format_list(names, locale=LOCALES.get(language, "en_GB"))


def family_lines(
    language: str, family: FamilyTable, group_id: str, editing: bool
) -> list[FamilyLine]:
    """The page's rows, most wins first (:func:`~ligretto.tafel.family.family_table`)."""
    return [
        FamilyLine(
            place=row.place,
            name=row.name,
            url=member_url(group_id, row.name, editing),
            games=row.games,
            wins=row.wins,
            shared=row.shared_wins,
            rate=percent(language, row.win_rate),
            medals=(row.wins, row.seconds, row.thirds),
            form=row.form,
        )
        for row in family.rows
    ]


def date_text(language: str, moment: datetime) -> str:
    """The day of *moment* as the reader's language writes it."""
    return format_date(moment, "medium", locale=language)


def time_text(language: str, moment: datetime) -> str:
    """The time of day of *moment* in UTC (``19:40 UTC``), as the reader's
    language writes it; the page's script says it in the reader's own zone."""
    return f"{format_time(moment, 'short', tzinfo=UTC, locale=language)} UTC"


def scores_text(players: Sequence[str], totals: Sequence[int]) -> str:
    """Each player with their total, the highest first (``Ben 62 · Anna 41``):
    what tells the games of one evening apart (T4)."""
    ranked = sorted(zip(players, totals, strict=True), key=lambda pair: -pair[1])
    return " · ".join(f"{name} {format_points(total)}" for name, total in ranked)


def member_url(group_id: str, name: str, editing: bool) -> str:
    """A member's page, read-only or among the group's edit pages."""
    base = group_edit_base(group_id) if editing else group_watch_path(group_id)
    return f"{base}/members/{quote(name, safe='')}"


def member_colour(members: Sequence[str], name: str) -> int:
    """A member's colour index: their place in the group's member list (as on the boards)."""
    key = name_key(name)
    return next((place for place, m in enumerate(members) if name_key(m) == key), 0)


def league_chart(language: str, table: League, members: Sequence[str] = ()) -> Markup | None:
    """Every member's conservative rating after each game of the season.

    Each member's line has the colour of their place in *members* (the
    group's member list), as on the boards of the group's games.
    """
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
    series = [
        Series(name, tuple(values[name]), member_colour(members, name) if members else None)
        for name in names
    ]
    description = ", ".join(
        f"{row.name} {number(language, row.rating.conservative)}" for row in table.rows
    )
    return running_totals_svg(
        series,
        title=gettext(language, N_("Strength after each game")),
        description=gettext(language, N_("Strength now: %(list)s."), list=description),
        round_label=gettext(language, N_("games")),
        language=language,
    )


def _chart(found: GroupLeague, language: str) -> Markup | None:
    """The league's chart in *language*, drawn once per league (kept with it)."""
    key = f"chart:{language}"
    if key not in found.drawn:
        found.drawn[key] = league_chart(language, found.table, found.group.members)
    chart: Markup | None = found.drawn[key]
    return chart


def group_context(
    request: Request, stored: StoredGroup, *, editing: bool, token: str | None
) -> dict[str, Any]:
    """What every page of the group shows: its links, QR code, members and exports."""
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
        else absolute(request, group_edit_link(stored.id, token)),
        "members": [MemberLine(m, member_url(stored.id, m, editing)) for m in stored.members],
        "export_json": f"/api/groups/{stored.id}/export.json",
        "export_csv": f"/api/groups/{stored.id}/stats.csv",
        "export_csv_regional": f"/api/groups/{stored.id}/stats.csv?"
        + urlencode({"style": "regional", "lang": request_language(request)}),
    }


async def preparing_page(
    request: Request,
    group_id: str,
    whats: tuple[str, ...],
    work: Callable[[], object],
    path: str | None = None,
) -> Response | None:
    """None when the answers *whats* are at hand; else a page that says they are
    being prepared (202, reloading itself), and *work* started in the background.

    A large group's first statistics take seconds: as the API does, the page
    does not hold a worker for that long
    (:meth:`~ligretto.store.group_queries.GroupQueries.prepare`).
    Raises :class:`~ligretto.store.errors.GroupNotFoundError`.
    """
    queries = group_service(request).queries
    if await run_in_threadpool(queries.ready, group_id, whats):
        return None
    queries.prepare(group_id, whats, paused(work))
    response = render(
        request,
        "groups/preparing.html",
        {"seconds": PREPARING_RETRY_AFTER},
        status_code=202,
        path=path,
    )
    response.headers["Retry-After"] = str(PREPARING_RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    if path is not None:
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


async def group_page(
    request: Request,
    group_id: str,
    *,
    editing: bool,
    token: str | None = None,
    errors: tuple[str, ...] = (),
    form: dict[str, Any] | None = None,
    status_code: int = 200,
) -> Response:
    """The group's page: league of the chosen season, history, and (editing) its forms."""
    service = group_service(request)
    language = request_language(request)
    query = request.query_params
    year_text = query.get("year", "")
    season_choice = query.get("season", "")
    year = whole_field(year_text, 4)

    def pick(stored: StoredGroup) -> Season | None:
        if season_choice == "all":
            return None
        return league_season(stored, year if year and year >= 1 else None, None, None, False)

    queries = service.queries

    def prepare() -> None:
        queries.league(group_id, pick)
        queries.history(group_id)

    try:
        season = pick(await run_in_threadpool(queries.get_group, group_id))
        waiting = await preparing_page(
            request,
            group_id,
            (league_key(season), "history"),
            prepare,
            path=group_edit_base(group_id) if editing else None,
        )
        if waiting is not None:
            return waiting
        found = await run_in_threadpool(queries.league, group_id, pick)
        every = await run_in_threadpool(queries.history, group_id)
    except GroupNotFoundError:
        return not_found(request)
    stored, table = found.group, found.table
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
            date=date_text(language, i.played_at),
            time=time_text(language, i.played_at),
            iso=i.played_at.isoformat(),
            scores=scores_text(i.players, i.totals),
            winners=" & ".join(i.winners),
            mode=i.mode,
            rounds=i.rounds,
            finished=i.status == "finished",
        )
        for i in (items if show_all else items[:HISTORY_SHOWN])
    ]
    years = sorted({i.played_at.year for i in every}, reverse=True)
    context = group_context(request, stored, editing=editing, token=token)
    context.update(
        {
            "table": table,
            "season_label": season_label(language, table.season),
            "league_chart": await run_in_threadpool(_chart, found, language),
            "rows": family_lines(language, found.family, stored.id, editing),
            "leaders": list(found.family.leaders),
            # "Won the most" only when nobody has as many wins: a win rate may break a tie.
            "most_wins": len(found.family.rows) < 2
            or found.family.rows[0].wins > found.family.rows[1].wins,
            "leader_names": names_text(language, [row.name for row in found.family.leaders]),
            "strength": [
                StrengthLine(
                    row.rank,
                    row.name,
                    member_url(stored.id, row.name, editing),
                    number(language, row.rating.conservative),
                    row.games,
                )
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


def season_label(language: str, season: Season | None) -> str:
    """ "all games", a calendar year, or the season's first and last day."""
    if season is None:
        return gettext(language, N_("all games"))
    if (
        season.start.month == 1
        and season.start.day == 1
        and season.end == season.start.replace(month=12, day=31)
    ):
        return str(season.start.year)
    return (
        f"{date_text(language, datetime.combine(season.start, datetime.min.time(), UTC))} – "
        + date_text(language, datetime.combine(season.end, datetime.min.time(), UTC))
    )
