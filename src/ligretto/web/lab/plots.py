"""A study's plots, drawn as SVG on the server in the style of the Tafel's charts.

Four drawings of a study's result (:func:`ligretto.simulate.study.study_result`):
points per round per seat with their 95 % intervals, round (or game) win
rates with theirs, the distribution of the cards left in the Ligretto stack
(R5: each costs 2 points), and the paired differences of points between
the bots (a − b per round, 95 % interval, a line at 0).

Like :mod:`ligretto.web.charts` they are plain inline SVG, 360 user units
wide for a phone, coloured through CSS classes (light and dark mode; the
presentation attributes are the fallback), with a title and a description
for screen readers; they need no script and print. Each row of an interval
chart has its name on a line of its own above it, so long bot names fit a
phone's width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ligretto.web.chart_kit import (
    WIDTH,
    axis_label,
    fine_axis,
    fine_ticks,
    fmt,
    marker,
    seat_class,
    seat_colour,
    seat_dash,
    x_grid,
    x_ticks,
    y_grid,
)
from ligretto.web.numbers import number

__all__ = ["Interval", "interval_svg", "stack_svg"]

LEFT = 14
RIGHT = 14
TOP = 8
ROW = 38
"""One row of an interval chart: its name, then its interval below it."""
AXIS = 34
"""Room below the rows: the ticks and the axis's name."""


@dataclass(frozen=True, slots=True)
class Interval:
    """One row: a name, an estimate and its 95 % interval (None: not known)."""

    name: str
    value: float
    low: float | None
    high: float | None
    colour: int | None = None


def _frame(chart_id: str, title: str, description: str, height: float) -> list[str]:
    return [
        f'<svg class="chart lab-chart" viewBox="0 0 {WIDTH} {fmt(height)}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
    ]


def interval_svg(
    rows: Sequence[Interval],
    *,
    title: str,
    description: str,
    x_label: str,
    chart_id: str,
    language: str = "en",
    bars: bool = False,
    percent: bool = False,
    zero: bool = False,
) -> Markup:
    """Each row's estimate as a dot (or a bar from 0, *bars*) with its interval as whiskers.

    *percent* writes the axis as percent (values are shares 0–1); *zero*
    always shows 0 on the axis and draws it as a line (paired differences:
    an interval that does not touch it is a difference). Needs a row.
    """
    if not rows:
        raise ValueError("at least one row")
    ends = [v for r in rows for v in (r.value, r.low, r.high) if v is not None]
    ends = [v for v in ends if math.isfinite(v)]
    low, high = min(ends, default=0.0), max(ends, default=1.0)
    if bars or zero:
        low, high = min(low, 0.0), max(high, 0.0)
    axis_low, axis_high, step = fine_axis(low, high)
    left, right = LEFT, WIDTH - RIGHT
    height = TOP + ROW * len(rows) + AXIS
    bottom = TOP + ROW * len(rows)

    def x_at(value: float) -> float:
        return left + (right - left) * (value - axis_low) / (axis_high - axis_low)

    def tick_text(value: float) -> str:
        if percent:
            return number(language, 100 * value, 0) + "\u202f%"
        digits = 0 if step >= 1 else (1 if step >= 0.1 else 2)
        return number(language, value, digits)

    parts = _frame(chart_id, title, description, height)
    parts.append('<g class="chart-grid">')
    ticks = fine_ticks(axis_low, axis_high, step)
    parts.append(x_grid(ticks, x_at, TOP, bottom, tick_text, zero=zero))
    parts.append(axis_label(x_label, left, right, height - 4) + "</g>")
    for index, row in enumerate(rows):
        colour = index if row.colour is None else row.colour
        name_y = TOP + ROW * index + 13
        y = TOP + ROW * index + 27
        value_text = tick_text(row.value) if percent else number(language, row.value, 2)
        parts.append(
            f'<g class="chart-series {seat_class(colour)}">'
            f"<title>{escape(row.name)}: {value_text}</title>"
            f'<text class="chart-legend-name" x="{left}" y="{name_y}" font-size="13">'
            f'{escape(row.name)} <tspan class="chart-value" font-weight="600">'
            f"{value_text}</tspan></text>"
        )
        if bars:
            x0, x1 = sorted((x_at(0.0), x_at(row.value)))
            parts.append(
                f'<rect class="chart-bar" x="{fmt(x0)}" y="{y - 5}" '
                f'width="{fmt(max(x1 - x0, 1))}" height="10" fill="{seat_colour(colour)}" '
                f'fill-opacity="0.45" />'
            )
        if row.low is not None and row.high is not None and math.isfinite(row.high - row.low):
            a, b = fmt(x_at(row.low)), fmt(x_at(row.high))
            parts.append(
                f'<path class="chart-whisker" d="M{a} {y}H{b}M{a} {y - 5}V{y + 5}'
                f'M{b} {y - 5}V{y + 5}" stroke="{seat_colour(colour)}" stroke-width="2" '
                'fill="none" />'
            )
        parts.append(marker(colour, x_at(row.value), y, 8, end=True))
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


STACK_HEIGHT = 230
STACK_BOTTOM = 30


def stack_svg(
    names: Sequence[str],
    counts: Sequence[Sequence[int]],
    *,
    title: str,
    description: str,
    x_label: str,
    chart_id: str = "lab-stack",
    language: str = "en",
) -> Markup:
    """The share of rounds that ended with 0, 1, 2 … stack cards left, one line per bot.

    *counts* holds, per bot, how many rounds ended with each number of
    cards left; the lines are shares, so bots at more seats compare fairly.
    """
    if not counts or len(names) != len(counts) or not any(sum(c) for c in counts):
        raise ValueError("one list of counts per bot, with rounds in them")
    width = max(len(c) for c in counts)
    shares = [[c[k] / (sum(c) or 1) if k < len(c) else 0.0 for k in range(width)] for c in counts]
    tallest = max(max(s) for s in shares)
    _, axis_high, step = fine_axis(0.0, tallest, 4)
    legend_rows = len(names)
    height = STACK_HEIGHT + legend_rows * 16 + 6
    left, right = 40, WIDTH - RIGHT
    top, bottom = TOP + 4, STACK_HEIGHT - STACK_BOTTOM

    def x_at(k: float) -> float:
        return left + (right - left) * k / max(width - 1, 1)

    def y_at(share: float) -> float:
        return bottom - (bottom - top) * share / axis_high

    parts = _frame(chart_id, title, description, height)
    parts.append('<g class="chart-grid">')
    parts.append(
        y_grid(
            fine_ticks(0.0, axis_high, step),
            y_at,
            left,
            right,
            language,
            zero=False,
            label=lambda share: number(language, 100 * share, 0) + "\u202f%",
        )
    )
    parts.append(x_ticks(width - 1, x_at, bottom, language, max_ticks=width))
    parts.append(axis_label(x_label, left, right, STACK_HEIGHT - 3) + "</g>")
    for index, (name, line) in enumerate(zip(names, shares, strict=True)):
        dash = seat_dash(index)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{fmt(x_at(k))},{fmt(y_at(s))}" for k, s in enumerate(line))
        parts.append(
            f'<g class="chart-series {seat_class(index)}"><title>{escape(name)}</title>'
            f'<polyline points="{points}" fill="none" stroke="{seat_colour(index)}" '
            f'stroke-width="2.5" stroke-linejoin="round"{dash_attr} />'
        )
        parts.extend(marker(index, x_at(k), y_at(s), 6) for k, s in enumerate(line))
        parts.append("</g>")
        legend_y = STACK_HEIGHT + 6 + index * 16 + 8
        parts.append(
            f'<g class="{seat_class(index)}"><line class="chart-legend-line" x1="{left}" '
            f'x2="{left + 26}" y1="{legend_y}" y2="{legend_y}" stroke="{seat_colour(index)}" '
            f'stroke-width="2.5"{dash_attr} />{marker(index, left + 13, legend_y, 8)}'
            f'<text class="chart-legend-name" x="{left + 32}" y="{legend_y}" '
            f'dominant-baseline="middle" font-size="11">{escape(name)}</text></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
