"""A group's pictures, drawn as SVG on the server in the style of the totals chart.

Two drawings for a member's page: the rating over the games with its
uncertainty as a band (``mu ± 3·sigma`` around ``mu``, OpenSkill), and the
points per round as a distribution (a histogram). The league page uses the
totals chart itself (:func:`ligretto.web.charts.running_totals_svg`) for
every member's conservative rating after each game.

Like the totals chart, the drawings are plain inline SVG, sized for a
phone (360 user units wide), with colours from the page's stylesheet
through CSS classes (light and dark mode) and presentation attributes only
as the fallback; each has a title and a description for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

from ligretto.web.chart_kit import (
    HEIGHT,
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_TOP,
    WIDTH,
    ValueAxis,
    axis_label,
    fmt,
    nice_step,
    seat_class,
    seat_colour,
    tick,
    x_ticks,
    y_grid,
)

MARGIN_RIGHT = 12
BAND_COLOUR = "#1f5fbf"
BAR_COLOUR = "#0f6b40"


def _frame(chart_id: str, title: str, description: str) -> list[str]:
    return [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
    ]


def rating_band_svg(
    mus: Sequence[float],
    sigmas: Sequence[float],
    *,
    title: str,
    description: str,
    x_label: str,
    chart_id: str = "rating-chart",
    colour: int | None = None,
    language: str = "en",
) -> Markup:
    """The rating after each game: ``mu`` as a line, ``mu ± 3·sigma`` as a band.

    Game 0 is the start (25 ± 25, OpenSkill's defaults are passed in as the
    first values by the caller when wanted). Needs at least one value.
    *colour* is the member's colour index (their place in the group's
    member list), so that the member has the colour of their line in the
    league's chart and on the boards; the numbers are written as *language*
    writes them.
    """
    if not mus or len(mus) != len(sigmas):
        raise ValueError("one sigma per mu, at least one game")
    lows = [m - 3 * s for m, s in zip(mus, sigmas, strict=True)]
    highs = [m + 3 * s for m, s in zip(mus, sigmas, strict=True)]
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    axis = ValueAxis(min(lows), max(highs))
    count = max(len(mus) - 1, 1)

    def x_at(i: int) -> float:
        return left + (right - left) * i / count

    def y_at(v: float) -> float:
        return axis.at(v, top, bottom)

    parts = _frame(chart_id, title, description)
    parts.append('<g class="chart-grid">')
    parts.append(y_grid(axis.ticks(), y_at, left, right, language))
    parts.append(x_ticks(len(mus) - 1, x_at, bottom, language))
    parts.append(axis_label(x_label, left, right, HEIGHT - 3) + "</g>")
    fill = BAND_COLOUR if colour is None else seat_colour(colour)
    parts.append(f'<g class="chart-member {seat_class(colour)}">' if colour is not None else "<g>")
    upper = [f"{fmt(x_at(i))},{fmt(y_at(v))}" for i, v in enumerate(highs)]
    lower = [f"{fmt(x_at(i))},{fmt(y_at(v))}" for i, v in reversed(list(enumerate(lows)))]
    parts.append(
        f'<polygon class="chart-band" points="{" ".join(upper + lower)}" '
        f'fill="{fill}" fill-opacity="0.18" stroke="none" />'
    )
    line = " ".join(f"{fmt(x_at(i))},{fmt(y_at(v))}" for i, v in enumerate(mus))
    parts.append(
        f'<polyline class="chart-mu" points="{line}" fill="none" stroke="{fill}" '
        'stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round" />'
    )
    conservative = " ".join(f"{fmt(x_at(i))},{fmt(y_at(v))}" for i, v in enumerate(lows))
    parts.append(
        f'<polyline class="chart-conservative" points="{conservative}" fill="none" '
        f'stroke="{fill}" stroke-width="1.5" stroke-dasharray="4 3" />'
    )
    parts.append("</g></svg>")
    return Markup("".join(parts))


def histogram_svg(
    values: Sequence[int],
    *,
    title: str,
    description: str,
    x_label: str,
    chart_id: str = "points-chart",
    language: str = "en",
) -> Markup:
    """How often each band of points per round occurred (R5), as bars.

    The bins are a round width (2, 5, 10 …) chosen so that about twelve bars
    cover the values; the y axis counts rounds. Needs at least one value.
    """
    if not values:
        raise ValueError("at least one value")
    low, high = min(values), max(values)
    width = max(1, nice_step(high - low + 1, max_ticks=12))
    first = math.floor(low / width) * width
    bins = [0] * ((high - first) // width + 1)
    for v in values:
        bins[(v - first) // width] += 1
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    tallest = max(bins)
    step = nice_step(tallest, max_ticks=4)
    axis_high = max(math.ceil(tallest / step) * step, step)

    def y_at(count: float) -> float:
        return bottom - (bottom - top) * count / axis_high

    bar = (right - left) / len(bins)
    parts = _frame(chart_id, title, description)
    parts.append('<g class="chart-grid">')
    parts.append(y_grid(range(0, axis_high + 1, step), y_at, left, right, language, zero=False))
    label_every = max(1, math.ceil(len(bins) / 7))
    for i in range(0, len(bins), label_every):
        x = left + bar * i
        parts.append(
            f'<text class="chart-tick" x="{fmt(x)}" y="{bottom + 13}" text-anchor="middle" '
            f'font-size="10">{tick(first + i * width, language)}</text>'
        )
    if first <= 0 < first + len(bins) * width:
        x = left + bar * (-first) / width
        parts.append(
            f'<line class="chart-zero" x1="{fmt(x)}" x2="{fmt(x)}" y1="{top}" y2="{bottom}" '
            'stroke="#8888" />'
        )
    parts.append(axis_label(x_label, left, right, HEIGHT - 3) + "</g>")
    for i, count in enumerate(bins):
        if not count:
            continue
        bar_x, bar_y = left + bar * i + 1, y_at(count)
        lo = first + i * width
        span = (
            tick(lo, language)
            if width == 1
            else f"{tick(lo, language)}…{tick(lo + width - 1, language)}"
        )
        parts.append(
            f'<rect class="chart-bar" x="{fmt(bar_x)}" y="{fmt(bar_y)}" '
            f'width="{fmt(max(bar - 2, 1))}" height="{fmt(bottom - bar_y)}" '
            f'fill="{BAR_COLOUR}"><title>{span}: {count}</title></rect>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
