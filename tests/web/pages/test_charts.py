"""The SVG chart of running totals (T4, T6: every round and the running totals)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.web.chart_kit import (
    HEIGHT,
    LABEL_SIZE,
    legend_key,
    nice_step,
    seat_colours,
    seat_dash,
    spread_labels,
    text_width,
)
from ligretto.web.charts import DIRECT_LABELS_MAX, Series, direct_labels, running_totals_svg

SVG = "{http://www.w3.org/2000/svg}"


def draw(series: list[Series], target: int | None = None) -> ET.Element:
    svg = running_totals_svg(
        series, title="Totals", description="Anna 8", round_label="Round", target=target
    )
    return ET.fromstring(str(svg))


def polyline_points(root: ET.Element) -> list[list[tuple[float, float]]]:
    lines = []
    for line in root.iter(f"{SVG}polyline"):
        pairs = [p.split(",") for p in line.attrib["points"].split()]
        lines.append([(float(x), float(y)) for x, y in pairs])
    return lines


def test_one_line_per_player_starting_at_zero_with_a_point_per_round() -> None:
    root = draw([Series("Anna", (8, 20, 31)), Series("Ben", (-6, 4, 10))])
    lines = polyline_points(root)
    assert len(lines) == 2
    assert all(len(points) == 4 for points in lines)  # the start plus three rounds
    # Both start at total 0: the same point.
    assert lines[0][0] == lines[1][0]
    # Higher totals are drawn higher (smaller y): Anna above Ben after each round.
    for anna, ben in zip(lines[0][1:], lines[1][1:], strict=True):
        assert anna[1] < ben[1]


def test_x_positions_grow_with_the_round_and_stay_inside_the_view_box() -> None:
    root = draw([Series("Anna", (8, 20, 31)), Series("Ben", (-6, 4, 10))])
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    for points in polyline_points(root):
        xs = [x for x, _ in points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        assert all(0 <= x <= width and 0 <= y <= height for x, y in points)


def test_accessible_name_and_description() -> None:
    root = draw([Series("Anna", (8,)), Series("Ben", (-6,))])
    assert root.attrib["role"] == "img"
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}title").text == "Totals"  # type: ignore[union-attr]
    assert root.find(f"{SVG}desc").text == "Anna 8"  # type: ignore[union-attr]


def test_negative_ticks_use_a_minus_sign() -> None:
    root = draw([Series("Anna", (-12,)), Series("Ben", (4,))])
    labels = [t.text or "" for t in root.iter(f"{SVG}text") if t.attrib.get("text-anchor") == "end"]
    assert "\u221210" in labels and not any(label.startswith("-") for label in labels)


def test_names_are_escaped() -> None:
    svg = running_totals_svg(
        [Series("<b>&Bo", (1,)), Series("Al", (2,))],
        title="t",
        description="d",
        round_label="r",
    )
    assert "<b>" not in str(svg)
    assert "&lt;b&gt;&amp;Bo" in str(svg)


def test_target_line_waits_until_the_leader_is_half_way() -> None:
    early = draw([Series("Anna", (8,)), Series("Ben", (-6,))], target=99)
    assert not [el for el in early.iter(f"{SVG}line") if el.attrib.get("class") == "chart-target"]


def test_target_line_is_drawn_and_inside_the_axis() -> None:
    root = draw([Series("Anna", (8, 52)), Series("Ben", (-6, 3))], target=99)
    target = [el for el in root.iter(f"{SVG}line") if el.attrib.get("class") == "chart-target"]
    assert len(target) == 1
    ticks = [
        int((t.text or "0").replace("\u2212", "-"))
        for t in root.iter(f"{SVG}text")
        if t.attrib.get("text-anchor") == "end"
    ]
    assert max(ticks) >= 99


def test_direct_labels_only_while_they_fit() -> None:
    few = draw([Series(f"P{i}", (i,)) for i in range(DIRECT_LABELS_MAX)])
    many = draw([Series(f"P{i}", (i,)) for i in range(DIRECT_LABELS_MAX + 1)])

    def labels(root: ET.Element) -> list[str]:
        return [
            t.text or ""
            for t in root.iter(f"{SVG}text")
            if "chart-label" in t.attrib.get("class", "")
        ]

    assert labels(few) == [f"P{i}" for i in range(DIRECT_LABELS_MAX)]
    assert labels(many) == []


def test_twelve_players_have_twelve_colours_and_each_seat_a_second_cue() -> None:
    """T1: up to 12 players (16 with playing cards) are told apart on the chart.

    Colour alone does not carry the meaning: every seat's line has its own
    combination of colour, marker shape and dash pattern.
    """
    root = draw([Series(f"P{i}", (i, -i)) for i in range(16)])
    lines = []
    for group in root.iter(f"{SVG}g"):
        if "chart-series" not in group.attrib.get("class", ""):
            continue
        polyline = group.find(f"{SVG}polyline")
        assert polyline is not None
        marks = [el for el in group if "chart-mark" in el.attrib.get("class", "")]
        assert marks, "every line carries its seat's marker"
        assert len([el for el in marks if "chart-end" in el.attrib["class"]]) == 1
        shapes = {el.tag for el in marks}
        assert len(shapes) == 1
        lines.append(
            (polyline.attrib["stroke"], shapes.pop(), polyline.attrib.get("stroke-dasharray", ""))
        )
    assert len(lines) == 16
    assert len({colour for colour, _, _ in lines[:12]}) == 12
    assert len(set(lines)) == 16
    # Within each colour, the marker differs from the seat four places on.
    assert lines[0][1] != lines[1][1] and lines[0][2] != lines[4][2]
    assert seat_dash(0) == "" and seat_dash(8) != seat_dash(4) != ""


def test_the_legend_key_draws_the_seats_line_and_marker() -> None:
    key = ET.fromstring(str(legend_key(6)))
    line = key.find(f"{SVG}line")
    assert line is not None and line.attrib["stroke-dasharray"] == seat_dash(6)
    assert "seat-6" in key.attrib["class"] and key.attrib["aria-hidden"] == "true"
    assert key.find(f"{SVG}polygon") is not None  # seat 7: a triangle
    assert ET.fromstring(str(legend_key(0))).find(f"{SVG}circle") is not None


def test_empty_or_ragged_series_are_refused() -> None:
    with pytest.raises(ValueError):
        running_totals_svg([], title="t", description="d", round_label="r")
    with pytest.raises(ValueError):
        running_totals_svg(
            [Series("A", (1, 2)), Series("B", (1,))], title="t", description="d", round_label="r"
        )


def test_long_games_thin_out_the_round_ticks() -> None:
    root = draw([Series("A", tuple(range(60))), Series("B", tuple(range(60)))])
    round_ticks = [
        t
        for t in root.iter(f"{SVG}text")
        if t.attrib.get("text-anchor") == "middle" and re.fullmatch(r"\d+", t.text or "")
    ]
    assert 2 <= len(round_ticks) <= 9


@pytest.mark.parametrize(("span", "step"), [(99, 20), (7, 2), (10, 2), (1000, 200), (0, 1)])
def test_nice_step(span: float, step: int) -> None:
    assert nice_step(span) == step


def test_spread_labels_keeps_order_and_gap() -> None:
    placed = spread_labels([50.0, 50.0, 51.0, 200.0], 0.0, 210.0, 10.0)
    inner = sorted(placed[:3])
    assert inner[1] - inner[0] >= 10 - 1e-6 and inner[2] - inner[1] >= 10 - 1e-6
    assert placed[3] == 200.0
    # Crowded at the bottom edge: labels stay inside the bounds.
    edge = spread_labels([99.0, 100.0, 100.0], 0.0, 100.0, 10.0)
    assert max(edge) <= 100.0 and min(edge) >= 0.0


def test_a_series_is_drawn_in_its_colour_not_its_position() -> None:
    """A game of a group: each player in the colour of their place in the member list."""
    root = draw([Series("Kari", (8,), colour=3), Series("Anna", (2,), colour=0)])
    classes = [
        g.attrib["class"] for g in root.iter(f"{SVG}g") if "chart-series" in g.attrib["class"]
    ]
    assert classes == ["chart-series seat-3", "chart-series seat-0"]


def test_seat_colours_give_members_their_place_and_others_a_free_colour() -> None:
    assert seat_colours([3, None, 0, None]) == (3, 1, 0, 2)
    assert seat_colours(range(4)) == (0, 1, 2, 3)
    # Places beyond twelve keep their index: the dashes tell them apart (T1).
    assert seat_colours([0, 12]) == (0, 12) and seat_dash(0) != seat_dash(12)


def test_long_names_go_into_a_legend_inside_the_drawing() -> None:
    """T1 allows names of MAX_NAME_LENGTH characters: none is cut, every text stays inside."""
    long = "W" * MAX_NAME_LENGTH
    assert direct_labels(["Oma Gerda", "Kari"])
    assert not direct_labels([long, "Kari"])
    root = draw([Series(long, (8, 12)), Series("Kari", (3, 20))])
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert height > HEIGHT  # the legend's rows below the plot
    names = [t for t in root.iter(f"{SVG}text") if "chart-legend-name" in t.attrib.get("class", "")]
    assert [t.text for t in names] == [long, "Kari"]
    for text in names:
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        size = float(text.attrib["font-size"])
        assert x + text_width(text.text or "", size) <= width and y <= height - 4


def test_end_labels_get_the_room_their_names_need() -> None:
    root = draw([Series("Oma Gerda", (8,)), Series("Kari", (3,))])
    _, _, width, _ = (float(v) for v in root.attrib["viewBox"].split())
    labels = [t for t in root.iter(f"{SVG}text") if "chart-label" in t.attrib.get("class", "")]
    assert [t.text for t in labels] == ["Oma Gerda", "Kari"]
    for label in labels:
        end = float(label.attrib["x"]) + text_width(label.text or "", LABEL_SIZE, bold=True)
        assert end <= width


def test_the_legend_can_be_left_to_the_page() -> None:
    svg = running_totals_svg(
        [Series("W" * MAX_NAME_LENGTH, (1,)), Series("B", (2,))],
        title="t",
        description="d",
        round_label="r",
        legend=False,
    )
    assert "chart-legend" not in str(svg) and f'viewBox="0 0 360 {HEIGHT}"' in str(svg)


@pytest.mark.parametrize("language", ["de", "nb"])
def test_ticks_are_written_as_the_language_writes_numbers(language: str) -> None:
    svg = running_totals_svg(
        [Series("A", (-1200, 1500)), Series("B", (3, 4))],
        title="t",
        description="d",
        round_label="r",
        language=language,
    )
    ticks = re.findall(r'class="chart-tick"[^>]*>([^<]+)<', str(svg))
    assert "2000" in ticks and "\u22121000" in ticks
    assert not [t for t in ticks if re.search(r"\d[.,\s]\d", t)]
