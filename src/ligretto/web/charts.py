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
import re
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ligretto.web.numbers import number

WIDTH = 360
HEIGHT = 230
MARGIN_LEFT = 34
MARGIN_RIGHT = 10
MARGIN_TOP = 12
MARGIN_BOTTOM = 30
LABEL_SIZE = 11
"""The font size of the names at the line ends and in the legend, in user units."""
LABEL_ROOM_MAX = 130
"""The most room the names at the line ends may take from the plot; longer
names go into the legend below it instead (the plot keeps over half the width)."""
DIRECT_LABELS_MAX = 8
"""With more players the names would overlap; a legend names them."""
LABEL_GAP = 11.0
"""Minimum vertical distance between two end labels, in user units."""
LEGEND_ROW = 16
"""The height of one row of the legend below the plot, in user units."""
LEGEND_KEY = 28
"""The width of a legend entry's drawing of the line (as :func:`legend_key`)."""

PALETTE: tuple[str, ...] = (
    "#d7263d",  # Ligretto red
    "#1b7f3b",  # green
    "#1f5fbf",  # blue
    "#9a6700",  # yellow, darkened to be readable on white
    "#7b3fa0",  # purple
    "#0b7a7c",  # teal
    "#b44a17",  # orange
    "#5c6f7e",  # slate
    "#c2185b",  # magenta
    "#5a7a00",  # olive
    "#7a4a2b",  # brown
    "#1b3a6b",  # navy
)
"""Twelve seat colours, one per player of a Ligretto game (T1: up to 12).

The stylesheet has the same colours as ``--seat-0`` … ``--seat-11`` (with
lighter ones for dark mode); these are the fallback of the SVG attributes.
"""
SHAPES: tuple[str, ...] = ("circle", "square", "triangle", "diamond")
"""The second cue beside the colour: each seat's marker shape (seat modulo 4)."""
DASHES: tuple[str, ...] = ("", "7 3", "2 3", "8 3 2 3")
"""The third cue: solid, dashed, dotted, dash-dot for seats 1–4, 5–8, 9–12, 13–16.

With the shapes this tells every seat of a 16-player game apart (R1 with
ordinary playing cards), even where two colours look alike.
"""


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


def seat_colours(places: Sequence[int | None]) -> tuple[int, ...]:
    """Each seat's colour index: its member's place where it has one, else a free one.

    A game of a group colours its players by their place in the group's
    member list (*places*, one per seat, None for a player who is no
    member); the others take the first colours no member of this game has,
    so that two players of one game never share colour, shape and dashes.

    >>> seat_colours([3, 0, None, 12])
    (3, 0, 1, 12)
    >>> seat_colours([None, None])
    (0, 1)
    """
    taken = {place for place in places if place is not None}
    free = (index for index in range(len(places) + len(taken) + 1) if index not in taken)
    return tuple(place if place is not None else next(free) for place in places)


_NARROW = frozenset("fijlrtI.,:;'!|() -")
_WIDE = frozenset("mwMW@%")


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """A generous estimate of *text*'s width in user units at font *size*.

    The chart is drawn on the server and the reader's font is unknown, so
    each character is counted as wide as it is in common sans-serif fonts,
    rounded up: a label placed with this width stays inside the drawing.
    """
    em = 0.0
    for char in text:
        if char in _NARROW:
            em += 0.36
        elif char in _WIDE:
            em += 0.95
        elif char.isupper() or char.isdigit():
            em += 0.72
        elif ord(char) < 0x2E80:
            em += 0.62
        else:  # CJK, emoji and the like: a full em or more
            em += 1.25
    return em * size * (1.08 if bold else 1.0)


def seat_colour(seat: int) -> str:
    """The fallback stroke colour of the player in *seat* (0-based)."""
    return PALETTE[seat % len(PALETTE)]


def seat_class(seat: int) -> str:
    """The CSS class that gives *seat* its colour in light and dark mode."""
    return f"seat-{seat % len(PALETTE)}"


def seat_shape(seat: int) -> str:
    """The marker shape of *seat*: circle, square, triangle or diamond."""
    return SHAPES[seat % len(SHAPES)]


def seat_dash(seat: int) -> str:
    """The dash pattern of *seat*: solid, dashed, dotted, dash-dot, four seats each.

    >>> [seat_dash(seat) for seat in (0, 3, 4, 8, 12)]
    ['', '', '7 3', '2 3', '8 3 2 3']
    """
    return DASHES[(seat // len(SHAPES)) % len(DASHES)]


def marker(seat: int, x: float, y: float, size: float, *, end: bool = False) -> str:
    """The SVG element of *seat*'s marker centred on (x, y), *size* across.

    The *end* of a line gets an outline in the page's background colour, so
    it stays visible where it lies on another line.
    """
    shape = seat_shape(seat)
    h = size / 2
    css = f"chart-mark mark-{shape}" + (" chart-end" if end else "")
    fill = f'class="{css}" fill="{seat_colour(seat)}"'
    if shape == "circle":
        return f'<circle {fill} cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(h)}" />'
    if shape == "square":
        h *= 0.9  # a square looks bigger than a circle of the same width
        return (
            f'<rect {fill} x="{_fmt(x - h)}" y="{_fmt(y - h)}" '
            f'width="{_fmt(2 * h)}" height="{_fmt(2 * h)}" />'
        )
    corners: tuple[tuple[float, float], ...]
    if shape == "triangle":
        h *= 1.15
        corners = ((x, y - h), (x + h, y + h * 0.8), (x - h, y + h * 0.8))
    else:
        h *= 1.2
        corners = ((x, y - h), (x + h, y), (x, y + h), (x - h, y))
    path = " ".join(f"{_fmt(cx)},{_fmt(cy)}" for cx, cy in corners)
    return f'<polygon {fill} points="{path}" />'


def legend_key(seat: int) -> Markup:
    """A small drawing of *seat*'s line as the chart draws it: colour, dashes and marker."""
    dash = seat_dash(seat)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return Markup(
        f'<svg class="legend-key {seat_class(seat)}" viewBox="0 0 28 12" aria-hidden="true" '
        f'focusable="false" xmlns="http://www.w3.org/2000/svg">'
        f'<line x1="1" x2="27" y1="6" y2="6" stroke="{seat_colour(seat)}" stroke-width="2.5"'
        f"{dash_attr} />{marker(seat, 14, 6, 8)}</svg>"
    )


def nice_step(span: float, max_ticks: int = 5) -> int:
    """A round tick distance (1, 2, 5, 10, 20, 50 …) giving at most *max_ticks* ticks.

    >>> nice_step(99)
    20
    >>> nice_step(7)
    2
    """
    if span <= 0:
        return 1
    raw = span / max_ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        step = factor * magnitude
        if step >= raw:
            return int(step)
    return int(10 * magnitude)  # pragma: no cover - the loop always returns


def spread_labels(wanted: Sequence[float], low: float, high: float, gap: float) -> list[float]:
    """Move label positions apart so that neighbours are at least *gap* apart.

    Labels keep their order; positions stay within ``[low, high]`` when
    there is room. Used for the names at the line ends, which collide
    whenever two players have nearly the same total.

    >>> spread_labels([50.0, 52.0, 90.0], 0.0, 100.0, 10.0)
    [46.0, 56.0, 90.0]
    """
    if not wanted:
        return []
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [wanted[i] for i in order]
    # Push down from the top, then up from the bottom, then centre each
    # cluster on its wanted positions: simple and stable for a few labels.
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    overflow = placed[-1] - high
    if overflow > 0:
        placed[-1] = high
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    clusters: list[list[int]] = [[0]]
    for i in range(1, len(placed)):
        if placed[i] - placed[i - 1] <= gap + 1e-9:
            clusters[-1].append(i)
        else:
            clusters.append([i])
    for cluster in clusters:
        wanted_mid = sum(wanted[order[i]] for i in cluster) / len(cluster)
        placed_mid = sum(placed[i] for i in cluster) / len(cluster)
        shift = wanted_mid - placed_mid
        shift = min(shift, high - placed[cluster[-1]])
        shift = max(shift, low - placed[cluster[0]])
        for i in cluster:
            placed[i] += shift
    result = [0.0] * len(wanted)
    for rank, index in enumerate(order):
        result[index] = round(placed[rank], 1)
    return result


def _tick(value: int, language: str = "en") -> str:
    """A whole number as the page's language writes it, with a true minus sign."""
    return number(language, value, 0)


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


_WHOLE = re.compile(r"\.0(?=[ ,]|$)")
"""A coordinate's ``.0``: what :func:`_fmt` leaves out of a whole number."""


def _polyline(xs: Sequence[float], ys: Sequence[float]) -> str:
    """``x,y x,y …`` with each coordinate as :func:`_fmt` writes it.

    A long game's line has hundreds of points, and every watcher's board
    draws it after each change: one format and one pass over the text
    instead of a function call per coordinate.
    """
    return _WHOLE.sub("", " ".join(map("{:.1f},{:.1f}".format, xs, ys)))


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
    low, high = min(values), max(values)
    step = nice_step(high - low or 10)
    axis_low = math.floor(low / step) * step
    axis_high = max(math.ceil(high / step) * step, axis_low + step)
    ticks = range(axis_low, axis_high + 1, step)
    tick_texts = {tick: _tick(tick, language) for tick in ticks}

    widest_tick = max(text_width(t, 10) for t in tick_texts.values())
    plot_left = max(MARGIN_LEFT, math.ceil(widest_tick) + 8)
    plot_right = WIDTH - MARGIN_RIGHT - (math.ceil(_label_room(names)) if labelled else 0)
    plot_top = MARGIN_TOP
    plot_bottom = HEIGHT - MARGIN_BOTTOM
    legend_rows = [] if labelled or not legend else _legend_rows(names, WIDTH - 2 * MARGIN_RIGHT)
    height = HEIGHT + (len(legend_rows) * LEGEND_ROW + 6 if legend_rows else 0)

    def x_at(round_number: int) -> float:
        return plot_left + (plot_right - plot_left) * round_number / rounds

    def y_at(value: float) -> float:
        fraction = (value - axis_low) / (axis_high - axis_low)
        return plot_bottom - (plot_bottom - plot_top) * fraction

    parts: list[str] = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(description)}</desc>',
        '<g class="chart-grid">',
    ]
    for tick in ticks:
        y = _fmt(y_at(tick))
        css = "chart-zero" if tick == 0 else "chart-gridline"
        parts.append(
            f'<line class="{css}" x1="{plot_left}" x2="{_fmt(plot_right)}" y1="{y}" y2="{y}" '
            f'stroke="#8884" />'
            f'<text class="chart-tick" x="{plot_left - 4}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle" font-size="10">{tick_texts[tick]}</text>'
        )
    round_step = max(1, nice_step(rounds, max_ticks=8))
    for round_number in range(0, rounds + 1, round_step):
        x = _fmt(x_at(round_number))
        parts.append(
            f'<text class="chart-tick" x="{x}" y="{plot_bottom + 13}" text-anchor="middle" '
            f'font-size="10">{_tick(round_number, language)}</text>'
        )
    parts.append(
        f'<text class="chart-axis-label" x="{_fmt((plot_left + plot_right) / 2)}" '
        f'y="{HEIGHT - 3}" text-anchor="middle" font-size="10">{escape(round_label)}</text>'
    )
    parts.append("</g>")

    if target is not None:
        y = _fmt(y_at(target))
        parts.append(
            f'<line class="chart-target" x1="{plot_left}" x2="{_fmt(plot_right)}" y1="{y}" '
            f'y2="{y}" stroke="#c98a00" stroke-dasharray="2 3" stroke-width="1.5" />'
        )

    xs = [x_at(i) for i in range(rounds + 1)]
    for colour, player in zip(colours, series, strict=True):
        ys = [y_at(0), *map(y_at, player.totals)]
        points = list(zip(xs, ys, strict=True))
        path = _polyline(xs, ys)
        dash = seat_dash(colour)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="chart-series {seat_class(colour)}">'
            f"<title>{escape(player.name)}: {_tick(player.totals[-1], language)}</title>"
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
                f'<text class="chart-label {seat_class(colour)}" x="{_fmt(plot_right + 7)}" '
                f'y="{_fmt(label_y)}" dominant-baseline="middle" font-size="{LABEL_SIZE}" '
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
                f'<line class="chart-legend-line" x1="{_fmt(x + 1)}" '
                f'x2="{_fmt(x + LEGEND_KEY - 1)}" y1="{_fmt(y)}" y2="{_fmt(y)}" '
                f'stroke="{seat_colour(colour)}" stroke-width="2.5"{dash_attr} />'
                f"{marker(colour, x + LEGEND_KEY / 2, y, 8)}"
                f'<text class="chart-legend-name" x="{_fmt(x + LEGEND_KEY + 4)}" y="{_fmt(y)}" '
                f'dominant-baseline="middle" font-size="{_fmt(size)}">'
                f"{escape(series[index].name)}</text></g>"
            )
    parts.append("</g>")
    return "".join(parts)
