"""The pieces every chart of the pages is drawn with: sizes, the seats'
colours and markers, round ticks, and the axes.

The charts (:mod:`ligretto.web.charts`, :mod:`ligretto.web.group_charts`,
:mod:`ligretto.web.lab.plots`) are plain SVG inlined into the page, sized
in user units close to CSS pixels on a phone (``WIDTH`` = 360), with the
page's colours (light and dark) through CSS classes and presentation
attributes only as the fallback; a seat is told apart by colour, marker
shape and dashes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence

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
        return f'<circle {fill} cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(h)}" />'
    if shape == "square":
        h *= 0.9  # a square looks bigger than a circle of the same width
        return (
            f'<rect {fill} x="{fmt(x - h)}" y="{fmt(y - h)}" '
            f'width="{fmt(2 * h)}" height="{fmt(2 * h)}" />'
        )
    corners: tuple[tuple[float, float], ...]
    if shape == "triangle":
        h *= 1.15
        corners = ((x, y - h), (x + h, y + h * 0.8), (x - h, y + h * 0.8))
    else:
        h *= 1.2
        corners = ((x, y - h), (x + h, y), (x, y + h), (x - h, y))
    path = " ".join(f"{fmt(cx)},{fmt(cy)}" for cx, cy in corners)
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


def tick(value: int, language: str = "en") -> str:
    """A whole number as the page's language writes it, with a true minus sign."""
    return number(language, value, 0)


def fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


_WHOLE = re.compile(r"\.0(?=[ ,]|$)")
"""A coordinate's ``.0``: what :func:`fmt` leaves out of a whole number."""


def polyline(xs: Sequence[float], ys: Sequence[float]) -> str:
    """``x,y x,y …`` with each coordinate as :func:`fmt` writes it.

    A long game's line has hundreds of points, and every watcher's board
    draws it after each change: one format and one pass over the text
    instead of a function call per coordinate.
    """
    return _WHOLE.sub("", " ".join(map("{:.1f},{:.1f}".format, xs, ys)))


class ValueAxis:
    """A value axis from round ticks (:func:`nice_step`) that cover *low* to *high*."""

    def __init__(self, low: float, high: float, max_ticks: int = 5) -> None:
        self.step = nice_step(high - low or 10, max_ticks)
        self.low = math.floor(low / self.step) * self.step
        self.high = max(math.ceil(high / self.step) * self.step, self.low + self.step)

    def ticks(self) -> range:
        return range(self.low, self.high + 1, self.step)

    def at(self, value: float, top: float, bottom: float) -> float:
        """The y of *value* in a plot from *top* to *bottom*."""
        return bottom - (bottom - top) * (value - self.low) / (self.high - self.low)


def fine_axis(low: float, high: float, max_ticks: int = 6) -> tuple[float, float, float]:
    """A round axis ``(start, end, step)`` around ``[low, high]`` whose step
    may be a fraction (0.1, 0.02 …): shares and points per round, where
    :class:`ValueAxis` counts whole points.

    >>> fine_axis(0.0, 0.43, 4)
    (0.0, 0.5, 0.1)
    """
    span = high - low or 1.0
    scale = 1.0
    while span * scale < max_ticks:  # below a whole step: count in tenths
        scale *= 10
    step = nice_step(span * scale, max_ticks) / scale
    start, end = math.floor(low / step) * step, math.ceil(high / step) * step
    return start, max(end, start + step), step


def fine_ticks(start: float, end: float, step: float) -> list[float]:
    """Every tick of a :func:`fine_axis`, counted in steps (no drift from adding)."""
    return [start + i * step for i in range(round((end - start) / step) + 1)]


def y_grid(
    ticks: Iterable[float],
    y_at: Callable[[float], float],
    left: float,
    right: float,
    language: str,
    *,
    zero: bool = True,
    label: Callable[[float], str] | None = None,
) -> str:
    """A grid line and its number at every tick of the value axis (*zero*:
    the line at 0 drawn as the zero line; *label*: how a tick is written,
    a whole number in *language* unless given)."""
    parts = []
    for value in ticks:
        y = fmt(y_at(value))
        css = "chart-zero" if zero and value == 0 else "chart-gridline"
        text = label(value) if label else tick(round(value), language)
        parts.append(
            f'<line class="{css}" x1="{fmt(left)}" x2="{fmt(right)}" y1="{y}" y2="{y}" '
            f'stroke="#8884" />'
            f'<text class="chart-tick" x="{fmt(left - 4)}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle" font-size="10">{text}</text>'
        )
    return "".join(parts)


def x_grid(
    ticks: Sequence[float],
    x_at: Callable[[float], float],
    top: float,
    bottom: float,
    label: Callable[[float], str],
    *,
    zero: bool = False,
) -> str:
    """A vertical grid line at every tick of a value axis that runs across,
    its number under the plot (*zero*: the line at 0 as the zero line)."""
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1.0
    parts = []
    for value in ticks:
        x = fmt(x_at(value))
        css = "chart-zero" if zero and abs(value) < step / 1000 else "chart-gridline"
        parts.append(
            f'<line class="{css}" x1="{x}" x2="{x}" y1="{fmt(top)}" y2="{fmt(bottom)}" '
            f'stroke="#8884" />'
            f'<text class="chart-tick" x="{x}" y="{fmt(bottom + 13)}" text-anchor="middle" '
            f'font-size="10">{label(value)}</text>'
        )
    return "".join(parts)


def x_ticks(
    count: int, x_at: Callable[[int], float], bottom: float, language: str, max_ticks: int = 8
) -> str:
    """The numbers 0 … *count* (rounds, games) under the plot, a round step apart."""
    step = max(1, nice_step(count, max_ticks=max_ticks))
    return "".join(
        f'<text class="chart-tick" x="{fmt(x_at(n))}" y="{fmt(bottom + 13)}" '
        f'text-anchor="middle" font-size="10">{tick(n, language)}</text>'
        for n in range(0, count + 1, step)
    )


def axis_label(text: str, left: float, right: float, y: float) -> str:
    """The x axis's name, centred under the plot."""
    return (
        f'<text class="chart-axis-label" x="{fmt((left + right) / 2)}" y="{fmt(y)}" '
        f'text-anchor="middle" font-size="10">{escape(text)}</text>'
    )
