"""A member's page of a group: statistics, head-to-head, rating over time, points per round.

The member's numbers come from
:meth:`~ligretto.store.group_queries.GroupQueries.member`, the same read
(and kept result) as the JSON API's ``/api/groups/{id}/members/{name}``;
this module draws the two charts and formats the numbers for
``groups/member.html``.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store.errors import GroupNotFoundError
from ligretto.tafel.names import name_key
from ligretto.tafel.ratings import INITIAL, Rating
from ligretto.tafel.stats import MemberStats
from ligretto.web.group_charts import histogram_svg, rating_band_svg
from ligretto.web.numbers import number, percent
from ligretto.web.pages.deps import edit_base, watch_path
from ligretto.web.pages.error_pages import not_found
from ligretto.web.pages.group_view import (
    group_context,
    group_service,
    member_colour,
    member_url,
    preparing_page,
)
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, gettext

router = APIRouter()


@dataclass(frozen=True, slots=True)
class PairLine:
    """One row of the member's head-to-head table."""

    opponent: str
    url: str
    games: int
    ahead: int
    behind: int
    level: int


async def _member_page(request: Request, group_id: str, name: str, *, editing: bool) -> Response:
    """The member's page, or the page of an unknown address (no such group or member)."""
    service = group_service(request)
    language = request_language(request)
    queries = service.queries
    try:
        stored = await run_in_threadpool(queries.get_group, group_id)
        known = next((m for m in stored.members if name_key(m) == name_key(name)), None)
        whats = ("stats",) if known is None else ("stats", f"member:{known}")
        waiting = await preparing_page(
            request,
            group_id,
            whats,
            lambda: queries.member(group_id, name),
        )
        if waiting is not None:
            return waiting
        member = await run_in_threadpool(queries.member, group_id, name)
    except GroupNotFoundError:
        return not_found(request)
    if member is None:
        return not_found(request)
    found, stored, points = member.stats, member.group, member.round_points
    timeline = [INITIAL] + [rating for _, rating in member.ratings]
    rating = timeline[-1] if len(timeline) > 1 else None
    rating_chart = None
    if len(timeline) > 1:
        rating_chart = rating_band_svg(
            [r.mu for r in timeline],
            [r.sigma for r in timeline],
            title=gettext(language, N_("Strength of %(name)s after each game"), name=found.name),
            description=gettext(
                language,
                N_("After %(games)s games: %(mu)s, uncertain by ± %(spread)s."),
                games=len(timeline) - 1,
                mu=number(language, timeline[-1].mu),
                spread=number(language, 3 * timeline[-1].sigma),
            ),
            x_label=gettext(language, N_("games")),
            colour=member_colour(stored.members, found.name),
            language=language,
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
            language=language,
        )
    context = group_context(request, stored, editing=editing, token=None)
    context.update(
        {
            "member": found,
            "numbers": _member_numbers(language, found, rating),
            "big_numbers": _big_numbers(language, found),
            "win_rate": percent(language, found.win_rate),
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
                for h in member.pairs
            ],
            "rating_chart": rating_chart,
            "points_chart": points_chart,
        }
    )
    return render(request, "groups/member.html", context)


def _big_numbers(language: str, s: MemberStats) -> list[tuple[str, str]]:
    """The few numbers the page leads with; the rest waits behind "details"."""
    rows = [
        (N_("Wins"), str(s.wins)),
        (N_("Games finished"), str(s.games)),
        (N_("Win rate"), percent(language, s.win_rate)),
        (N_("Longest winning streak"), str(s.longest_streak)),
    ]
    return [(gettext(language, label), value) for label, value in rows]


def _member_numbers(language: str, s: MemberStats, rating: Rating | None) -> list[tuple[str, str]]:
    interval = (
        "–"
        if s.points_low is None or s.points_high is None
        else f"{number(language, s.points_low)} … {number(language, s.points_high)} "
        f"({percent(language, 0.95)})"
    )
    rows = [
        (N_("Games finished"), str(s.games)),
        (N_("Wins"), str(s.wins)),
        (N_("of them shared"), str(s.shared_wins)),
        (N_("Win rate"), percent(language, s.win_rate)),
        (N_("Longest winning streak"), str(s.longest_streak)),
        (N_("Rounds"), str(s.rounds)),
        (N_("Points per round"), number(language, s.points_per_round)),
        (N_("Confidence interval"), interval),
        (N_("Ligretto Stop called"), f"{s.stops} ({percent(language, s.stop_rate)})"),
        (N_("Stack cards left per round"), number(language, s.stack_cards_per_round)),
        (N_("Strength"), _rating_text(language, rating)),
    ]
    return [(gettext(language, label), value) for label, value in rows]


def _rating_text(language: str, rating: Rating | None) -> str:
    """The strength the group page's details list (the conservative rating), or a dash."""
    if rating is None:
        return "\u2013"
    return number(language, rating.conservative)


@router.get("/groups/{group_id}/members/{name}", response_class=HTMLResponse)
async def member_page(request: Request, group_id: str, name: str) -> Response:
    return await _member_page(request, group_id, name, editing=False)


@router.get("/groups/{group_id}/edit/members/{name}", response_class=HTMLResponse)
async def member_edit_page(request: Request, group_id: str, name: str) -> Response:
    return await _member_page(request, group_id, name, editing=True)
