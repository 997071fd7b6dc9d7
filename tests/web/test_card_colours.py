"""The four card colours for colour-blind eyes (docs/online-play.md, "Cards for every eye").

The colours are read from the site's style sheet, where they live once
(``--card-R`` … on ``:root``, and on ``:root[data-contrast="on"]`` for the
high-contrast look; the table, the rules' drawing and the accessibility
page paint with them), and looked at as people with protanopia, deuteranopia
and tritanopia see them (``helpers.colour_vision``). Each pair of the four
must stay apart: in the high-contrast look by lightness alone, in the normal
look by lightness or hue, or else by its symbol, which differs for every
colour (``templates/_card_symbols.html``; the browser test
``tests/browser/test_table_for_every_eye.py`` finds them on the cards).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from helpers.colour_vision import (
    DICHROMACIES,
    contrast_ratio,
    delta_e_2000,
    difference,
    luminance,
    parse_hex,
    simulate,
    to_lab,
)

WEB = Path(__file__).resolve().parents[2] / "src" / "ligretto" / "web"
SITE_CSS = WEB / "static" / "css" / "cards.css"
SYMBOLS = WEB / "templates" / "_card_symbols.html"
VISIONS = ["normal", *DICHROMACIES]
COLOURS = "RGBY"
# Told apart at a glance: a lightness step a colour-blind eye still sees
# (the WCAG contrast ratio; 1.5 is the step between a mid and a light grey)
# or a colour difference far beyond "just noticeable" (CIEDE2000 ≈ 2).
MIN_CONTRAST = 1.5
MIN_DELTA_E = 20.0
# The WCAG AA contrast of a card's number against its colour.
MIN_TEXT_CONTRAST = 4.5


def declarations(css: str, selector: str) -> dict[str, str]:
    """The custom properties set by the rules whose selector is exactly ``selector``."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    found: dict[str, str] = {}
    for match in re.finditer(r"([^{}]+)\{([^{}]*)\}", css):
        if match.group(1).strip() != selector:
            continue
        for name, value in re.findall(r"(--[\w-]+)\s*:\s*([^;]+)", match.group(2)):
            found[name] = value.strip()
    return found


def theme(selector: str) -> dict[str, tuple[str, str]]:
    """Colour letter → (card colour, number colour) of one look."""
    props = declarations(SITE_CSS.read_text(encoding="utf-8"), selector)
    return {c: (props[f"--card-{c}"], props[f"--on-card-{c}"]) for c in COLOURS}


THEMES = {
    "normal": ':root, .play[data-contrast="off"]',
    "high contrast": ':root[data-contrast="on"], .play[data-contrast="on"]',
}


def test_both_looks_set_all_four_colours() -> None:
    for selector in THEMES.values():
        assert set(theme(selector)) == set(COLOURS)


def symbol_shapes() -> dict[str, tuple[str, str]]:
    text = SYMBOLS.read_text(encoding="utf-8")
    return {
        letter: (name, path)
        for letter, name, path in re.findall(r'"([RGBY])": \("(\w+)", "([^"]+)"\)', text)
    }


def test_every_colour_has_its_own_symbol() -> None:
    shapes = symbol_shapes()
    assert set(shapes) == set(COLOURS)
    assert len({name for name, _ in shapes.values()}) == 4
    assert len({path for _, path in shapes.values()}) == 4


@pytest.mark.parametrize("vision", VISIONS)
def test_high_contrast_colours_differ_in_lightness_for_every_eye(vision: str) -> None:
    colours = {c: parse_hex(card) for c, (card, _) in theme(THEMES["high contrast"]).items()}
    for a, b in itertools.combinations(COLOURS, 2):
        ratio, _ = difference(colours[a], colours[b], vision)
        assert ratio >= MIN_CONTRAST, f"{vision}: {a} and {b} differ by {ratio:.2f} in lightness"


@pytest.mark.parametrize("vision", VISIONS)
def test_normal_colours_differ_or_their_symbols_do(vision: str) -> None:
    colours = {c: parse_hex(card) for c, (card, _) in theme(THEMES["normal"]).items()}
    shapes = symbol_shapes()
    for a, b in itertools.combinations(COLOURS, 2):
        ratio, delta = difference(colours[a], colours[b], vision)
        if ratio < MIN_CONTRAST and delta < MIN_DELTA_E:
            # Red and green under deuteranopia, for one: only the shape tells.
            assert shapes[a][0] != shapes[b][0], f"{vision}: {a} and {b} look alike"


@pytest.mark.parametrize("name", list(THEMES))
def test_every_cards_number_is_readable(name: str) -> None:
    for letter, (card, text) in theme(THEMES[name]).items():
        ratio = contrast_ratio(parse_hex(card), parse_hex(text))
        assert ratio >= MIN_TEXT_CONTRAST, f"{name}: {letter} number at {ratio:.2f}"


def test_the_rules_drawing_paints_with_the_same_colours() -> None:
    """The drawing's cards (rules page, accessibility page) take the table's
    colours of the look chosen, never colours of their own."""
    css = re.sub(r"/\*.*?\*/", "", SITE_CSS.read_text(encoding="utf-8"), flags=re.DOTALL)
    for letter, name in zip(COLOURS, ("red", "green", "blue", "yellow"), strict=True):
        rules = [
            body
            for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)
            if f".rd-{name}" in selector
        ]
        fills = [value.strip() for body in rules for value in re.findall(r"fill:([^;]+)", body)]
        assert f"var(--card-{letter})" in fills and f"var(--on-card-{letter})" in fills, name
        assert all(fill.startswith("var(--") for fill in fills), (name, fills)


# ---- the simulation itself


def test_white_black_and_grey_look_the_same_to_every_eye() -> None:
    for vision in VISIONS:
        for grey in ("#ffffff", "#000000", "#808080"):
            seen = simulate(parse_hex(grey), vision)
            assert all(abs(c - parse_hex(grey)[0]) < 0.005 for c in seen), (vision, grey, seen)


def test_red_and_green_of_equal_lightness_merge_without_m_or_l_cones() -> None:
    # The classic confusion: a red and a green that differ in hue only.
    red, green = parse_hex("#d7263d"), parse_hex("#18803a")
    normal = delta_e_2000(to_lab(red), to_lab(green))
    assert normal > 60
    for vision in ("protanopia", "deuteranopia"):
        _, delta = difference(red, green, vision)
        assert delta < normal / 4, (vision, delta)
    # Tritanopia keeps red and green apart, and merges blue and green instead.
    assert difference(red, green, "tritanopia")[1] > 40
    assert difference(parse_hex("#1f5fbf"), parse_hex("#18803a"), "tritanopia")[1] < 15


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [
        # Sharma, Wu and Dalal (2005), test data pairs 1, 7 and 17.
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ],
)
def test_ciede2000_matches_the_published_test_data(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert delta_e_2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_luminance_and_contrast_follow_wcag() -> None:
    assert luminance(parse_hex("#fff")) == pytest.approx(1.0)
    assert contrast_ratio(parse_hex("#000"), parse_hex("#fff")) == pytest.approx(21.0)
    grey = contrast_ratio(parse_hex("#777777"), parse_hex("#ffffff"))
    assert grey == pytest.approx(4.48, abs=0.01)
    assert to_lab(parse_hex("#ffffff")) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)


def test_a_colour_that_is_not_hex_is_refused() -> None:
    with pytest.raises(ValueError, match="not a #rgb"):
        parse_hex("red")
