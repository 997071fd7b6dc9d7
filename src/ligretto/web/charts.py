"""A line chart of every player's running total, drawn as SVG on the server.

The Tafel shows the totals round after round (T4, T6). The chart is plain
SVG inlined into the page: it needs no script, prints, scales with the
phone's width and follows the page's colours (light and dark) through CSS
classes; the presentation attributes are only the fallback.

The drawing is sized in user units close to CSS pixels on a phone
(``WIDTH`` = 360), so the labels stay readable there; larger screens
scale it up within the width the stylesheet allows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ligretto.web.chart_kit import (
    HEIGHT,
    LABEL_SIZE,
    LEGEND_KEY,
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    WIDTH,
    ValueAxis,
    axis_label,
    fmt,
    marker,
    polyline,
    seat_class,
    seat_colour,
    seat_dash,
    spread_labels,
    text_width,
    tick,
    x_ticks,
    y_grid,
)

LABEL_ROOM_MAX = 130
"""The most room the names at the line ends may take from the plot; longer
names go into the legend below it instead (the plot keeps over half the width)."""
DIRECT_LABELS_MAX = 8
"""With more players the names would overlap; a legend names them."""
LABEL_GAP = 11.0
"""Minimum vertical distance between two end labels, in user units."""
LEGEND_ROW = 16
"""The height of one row of the legend below the plot, in user units."""


@dataclass(frozen=True, slots=True)
class Series:
    """One player's running totals: ``totals[i]`` is the total after round i + 1.

    *colour* is the player's colour index (:func:`seat_colours`): their place
    in the group's member list for a game of a group, so that a person has
    one colour on the board and in every chart of the group; None draws the
    series in the colour of its position.
    """

    name: str
    totals: tuple[int, ...]
    colour: int | None = None


def direct_labels(names: Sequence[str]) -> bool:
    """Whether the chart names its lines at their ends (few players, short enough names).

    Otherwise a legend names them: below the plot (:func:`running_totals_svg`),
    or the page's own (the board's, with the totals).
    """
    return len(names) <= DIRECT_LABELS_MAX and _label_room(names) <= LABEL_ROOM_MAX


def _label_room(names: Sequence[str]) -> float:
    """The width the end labels take, from the widest name, with a gap before it."""
    return 8 + max((text_width(n, LABEL_SIZE, bold=True) for n in names), default=0.0)


def _legend_rows(names: Sequence[str], width: float) -> list[list[int]]:
    """The legend's entries (indices into *names*) in rows that fit *width*.

    Every entry of a row gets the width of the row's widest (a grid that
    lines up); a name too long even for a row of its own gets one and is
    written smaller (:func:`_legend`).
    """
    entry = [LEGEND_KEY + 4 + text_width(n, LABEL_SIZE) + 10 for n in names]
    rows: list[list[int]] = []
    for index in range(len(names)):
        if rows:
            row = rows[-1]
            widest = max(entry[i] for i in [*row, index])
            if widest * (len(row) + 1) <= width:
                row.append(index)
                continue
        rows.append([index])
    return rows


def running_totals_svg(
    series: Sequence[Series],
    *,
    title: str,
    description: str,
    round_label: str,
    target: int | None = None,
    language: str = "en",
    legend: bool = True,
) -> Markup:
    """Draw every player's running total after each round.

    *series* holds one entry per player in seating order, all with the same
    number of rounds (at least one). *title* and *description* become the
    SVG's accessible name and description; *round_label* names the x axis
    (all three come translated from the page), the numbers are written as
    *language* writes them. A *target* (T1 target mode) is drawn as a dashed
    line so the table sees how far everyone still has, once the leader has
    half of it.

    Few players with short names are named at the ends of their lines;
    otherwise a *legend* below the plot names them (the drawing grows
    taller), unless the page shows one of its own (``legend=False``).
    Every text lies inside the drawing's view box, whatever the names.
    """
    rounds = len(series[0].totals) if series else 0
    if rounds == 0 or any(len(s.totals) != rounds for s in series):
        raise ValueError("every player needs the same, non-zero number of rounds")

    names = [s.name for s in series]
    colours = [index if s.colour is None else s.colour for index, s in enumerate(series)]
    labelled = direct_labels(names)
    values = [0, *(v for s in series for v in s.totals)]
    # Early on the target would squash every line near zero: it joins the
    # axis once the leader is half way there.
    if target is not None and max(values) * 2 < target:
        target = None
    if target is not None:
        values.append(target)
    axis = ValueAxis(min(values), max(values))
    widest_tick = max(text_width(tick(value, language), 10) for value in axis.ticks())
    plot_left = max(MARGIN_LEFT, math.ceil(widest_tick) + 8)
    plot_right = WIDTH - MARGIN_RIGHT - (math.ceil(_label_room(names)) if labelled else 0)
    plot_top = MARGIN_TOP
    plot_bottom = HEIGHT - MARGIN_BOTTOM
    legend_rows = [] if labelled or not legend else _legend_rows(names, WIDTH - 2 * MARGIN_RIGHT)
    height = HEIGHT + (len(legend_rows) * LEGEND_ROW + 6 if legend_rows else 0)

    def x_at(round_number: int) -> float:
        return plot_left + (plot_right - plot_left) * round_number / rounds

    def y_at(value: float) -> float:
        return axis.at(value, plot_top, plot_bottom)

    parts: list[str] = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(description)}</desc>',
        '<g class="chart-grid">',
    ]
    parts.append(y_grid(axis.ticks(), y_at, plot_left, plot_right, language))
    parts.append(x_ticks(rounds, x_at, plot_bottom, language))
    parts.append(axis_label(round_label, plot_left, plot_right, HEIGHT - 3))
    parts.append("</g>")

    if target is not None:
        y = fmt(y_at(target))
        parts.append(
            f'<line class="chart-target" x1="{plot_left}" x2="{fmt(plot_right)}" y1="{y}" '
            f'y2="{y}" stroke="#c98a00" stroke-dasharray="2 3" stroke-width="1.5" />'
        )

    xs = [x_at(i) for i in range(rounds + 1)]
    for colour, player in zip(colours, series, strict=True):
        ys = [y_at(0), *map(y_at, player.totals)]
        points = list(zip(xs, ys, strict=True))
        path = polyline(xs, ys)
        dash = seat_dash(colour)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="chart-series {seat_class(colour)}">'
            f"<title>{escape(player.name)}: {tick(player.totals[-1], language)}</title>"
            f'<polyline points="{path}" fill="none" stroke="{seat_colour(colour)}" '
            f'stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"{dash_attr} />'
        )
        # Every round's point carries the seat's marker while there is room;
        # the line's end always does, a little bigger (the second cue).
        if rounds <= 30:
            parts.extend(marker(colour, x, y, 5) for x, y in points[1:-1])
        end_x, end_y = points[-1]
        parts.append(marker(colour, end_x, end_y, 8, end=True))
        parts.append("</g>")

    if labelled:
        ends = [y_at(s.totals[-1]) for s in series]
        label_ys = spread_labels(ends, plot_top + 4, plot_bottom - 4, LABEL_GAP)
        for colour, player, label_y in zip(colours, series, label_ys, strict=True):
            parts.append(
                f'<text class="chart-label {seat_class(colour)}" x="{fmt(plot_right + 7)}" '
                f'y="{fmt(label_y)}" dominant-baseline="middle" font-size="{LABEL_SIZE}" '
                f'font-weight="600" fill="{seat_colour(colour)}">{escape(player.name)}</text>'
            )
    if legend_rows:
        parts.append(_legend(series, colours, legend_rows))
    parts.append("</svg>")
    return Markup("".join(parts))


def _legend(series: Sequence[Series], colours: Sequence[int], rows: list[list[int]]) -> str:
    """The legend below the plot: each line's drawing in small, then its name."""
    parts = ['<g class="chart-legend">']
    for row_number, row in enumerate(rows):
        cell = (WIDTH - 2 * MARGIN_RIGHT) / len(row)
        y = HEIGHT + 6 + row_number * LEGEND_ROW + LEGEND_ROW / 2
        for column, index in enumerate(row):
            colour = colours[index]
            x = MARGIN_RIGHT + column * cell
            # A name too wide for a row of its own (40 wide letters, T1) is
            # written smaller rather than cut.
            room = cell - LEGEND_KEY - 6
            wanted = max(text_width(series[index].name, LABEL_SIZE), 1.0)
            size = (
                LABEL_SIZE if wanted <= room else math.floor(LABEL_SIZE * room / wanted * 10) / 10
            )
            dash = seat_dash(colour)
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            parts.append(
                f'<g class="{seat_class(colour)}">'
                f'<line class="chart-legend-line" x1="{fmt(x + 1)}" '
                f'x2="{fmt(x + LEGEND_KEY - 1)}" y1="{fmt(y)}" y2="{fmt(y)}" '
                f'stroke="{seat_colour(colour)}" stroke-width="2.5"{dash_attr} />'
                f"{marker(colour, x + LEGEND_KEY / 2, y, 8)}"
                f'<text class="chart-legend-name" x="{fmt(x + LEGEND_KEY + 4)}" y="{fmt(y)}" '
                f'dominant-baseline="middle" font-size="{fmt(size)}">'
                f"{escape(series[index].name)}</text></g>"
            )
    parts.append("</g>")
    return "".join(parts)
