"""What a finished study's page shows: its four plots and its table, from the result.

Every bot has one colour in all four plots (its place among the study's
different bots), so "stack-first:medium" at two seats is one colour. Seats
are named (``web/lab/seats.py``) and bots said in the words of ``/play``;
a paired difference's row names the seats on either side ("Anna − Ben,
Cleo and Dana").
"""

from __future__ import annotations

from typing import Any

from babel.lists import format_list
from markupsafe import Markup

from ligretto.web.lab.plots import Interval, interval_svg, stack_svg
from ligretto.web.lab.seats import bot_label, seat_name
from ligretto.web.numbers import LOCALES
from ligretto.web.text import N_, gettext

__all__ = ["plots"]


def _interval(name: str, estimate: dict[str, Any], key: str, colour: int) -> Interval:
    return Interval(
        name, float(estimate[key]), estimate.get("ci_low"), estimate.get("ci_high"), colour
    )


def plots(result: dict[str, Any], language: str) -> dict[str, Markup]:
    """The study's plots by name: ``points``, ``wins``, ``stack``, and ``paired``
    when the study has two different bots."""
    report = result["report"]
    seats = report["seats"]
    bots = list(dict.fromkeys(seat["bot"] for seat in seats))
    colour = {bot: index for index, bot in enumerate(bots)}

    def t(message: str) -> str:
        return gettext(language, message)

    def seat_label(seat: dict[str, Any]) -> str:
        return f"{seat_name(seat['seat'])}: {bot_label(language, seat['bot'], compact=True)}"

    def names(bot: str) -> str:
        """The seats of one bot by name: the paired differences' rows stay short."""
        return format_list(
            [seat_name(s["seat"]) for s in seats if s["bot"] == bot],
            locale=LOCALES.get(language, "en_GB"),
        )

    charts = {
        "points": interval_svg(
            [
                _interval(seat_label(s), s["points_per_round"], "mean", colour[s["bot"]])
                for s in seats
            ],
            title=t(N_("Points per round")),
            description=t(N_("Each player's mean points per round with their 95 % interval.")),
            x_label=t(N_("points per round (R5)")),
            chart_id="lab-points",
            language=language,
        )
    }
    games = "games" in report
    win_key = "game_win_rate" if games else "round_win_rate"
    charts["wins"] = interval_svg(
        [_interval(seat_label(s), s[win_key], "rate", colour[s["bot"]]) for s in seats],
        title=t(N_("Games won")) if games else t(N_("Rounds won")),
        description=t(
            N_("Each player's share of wins with their 95 % interval; a shared win counts shared.")
        ),
        x_label=t(N_("wins")),
        chart_id="lab-wins",
        language=language,
        bars=True,
        percent=True,
    )
    pooled = [[0] * len(result["stack_left"][0]) for _ in bots]
    for seat, counts in zip(seats, result["stack_left"], strict=True):
        line = pooled[colour[seat["bot"]]]
        for k, count in enumerate(counts):
            line[k] += count
    charts["stack"] = stack_svg(
        [bot_label(language, bot, compact=True) for bot in bots],
        pooled,
        title=t(N_("Cards left in the Ligretto stack")),
        description=t(
            N_("The share of rounds that ended with 0, 1, 2 … cards left in the stack, per bot.")
        ),
        x_label=t(N_("cards left in the stack at the end of a round")),
        chart_id="lab-stack",
        language=language,
    )
    comparisons = report["comparisons"]
    if comparisons:
        charts["paired"] = interval_svg(
            [
                Interval(
                    f"{names(c['a'])} \u2212 {names(c['b'])}",
                    float(c["mean"]),
                    c.get("ci_low"),
                    c.get("ci_high"),
                    colour[c["a"]],
                )
                for c in comparisons
            ],
            title=t(N_("Paired differences")),
            description=t(
                N_(
                    "Points per round of a minus b, round by round, with the 95 % interval: "
                    "an interval that does not reach 0 is a difference."
                )
            ),
            x_label=t(N_("a − b, points per round")),
            chart_id="lab-paired",
            language=language,
            zero=True,
        )
    return charts
