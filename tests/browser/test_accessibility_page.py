"""The accessibility page and the rules' drawing, in Chromium at phone size.

The page (/accessibility) is reached from the start page's footer, passes
axe (WCAG 2.x A and AA, best practice) in every language, light and dark,
with no tap target under a finger's size; its sample cards and the rules
page's drawing paint with the cards' colours of the look this browser
chose: the high-contrast look once the table's toggle was switched on
(kept under ``ligretto.play.contrast``) or, until then, when the system
asks for more contrast.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers.axe import AXE, OPTIONS
from helpers.browser import ARTIFACTS, PHONE, LiveServer, NewPage, Shoot, screenshot
from helpers.tap_targets import small_targets

SHOTS = ARTIFACTS / "accessibility"
LOCALES = {"en": "en-GB", "de": "de-DE", "nb": "nb-NO"}
# The cards' colours (css/cards.css), as the browser computes them.
NORMAL_RED = "rgb(215, 38, 61)"
CONTRAST_RED = "rgb(192, 40, 30)"
CONTRAST_BLUE = "rgb(10, 31, 102)"

# A card of a drawing: the fill and the border of its face, the shape of its symbol.
CARD = """(svg) => [...document.querySelectorAll(svg + ' .rd-card:not(.rd-back)')].map((g) => {
  const face = getComputedStyle(g.querySelector(':scope > rect'));
  const sym = g.querySelector('.sym');
  return [face.fill, face.stroke, face.strokeWidth, sym ? sym.dataset.shape : null];
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_page_passes_axe_in_every_language(
    live_server: LiveServer, new_page: NewPage, scheme: str
) -> None:
    found: dict[str, str] = {}
    for language, locale in LOCALES.items():
        page = new_page(PHONE, color_scheme=scheme, locale=locale)
        page.goto(live_server.url + "/")
        # From the start page's footer.
        page.locator("footer a.accessibility-link").click()
        expect(page).to_have_url(live_server.url + "/accessibility")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("table.key-table tbody tr")).to_have_count(9)  # play/_keys.html
        results = AXE.run(page, options=OPTIONS)
        if results.response["violations"]:
            found[f"{language} {scheme}"] = results.generate_report()
        if small := small_targets(page):
            found[f"{language} {scheme}: small tap targets"] = "\n".join(small)
        # Nothing wider than the phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, SHOTS / f"accessibility-{language}-{scheme}.png", full_page=True)
    assert not found, "\n\n".join(f"== {name} ==\n{report}" for name, report in found.items())


def test_the_rules_drawing_follows_the_high_contrast_choice(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    page.goto(live_server.url + "/rules")
    expect(page.locator("html")).to_have_attribute("data-contrast", "off")
    cards = page.evaluate(CARD, "svg.rules-drawing")
    assert len(cards) == 8  # the hand's card is face down
    assert cards[0][0] == NORMAL_RED  # the middle's red 3
    # Every face carries its colour's symbol, as at the table.
    assert {shape for *_, shape in cards} == {"circle", "star", "square", "diamond"}

    # Switched on at a table (the toggle keeps the choice in this browser).
    page.evaluate("localStorage.setItem('ligretto.play.contrast', 'on')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-contrast", "on")
    fill, stroke, width, shape = page.evaluate(CARD, "svg.rules-drawing")[0]
    assert (fill, stroke, width, shape) == (CONTRAST_RED, "rgb(0, 0, 0)", "3px", "circle")
    assert page.evaluate(CARD, "svg.rules-drawing")[1][0] == "rgb(10, 31, 102)"  # the blue 1
    shoot(page, "rules-drawing-high-contrast")
    screenshot(page.locator("svg.rules-drawing"), SHOTS / "rules-drawing-contrast.png")
    # The accessibility page's sample cards too.
    page.goto(live_server.url + "/accessibility")
    assert page.evaluate(CARD, "svg.access-cards")[2][0] == CONTRAST_BLUE

    # Switched off there, it stays off even where the system asks for more.
    page.evaluate("localStorage.setItem('ligretto.play.contrast', 'off')")
    page.emulate_media(contrast="more")
    page.goto(live_server.url + "/rules")
    expect(page.locator("html")).to_have_attribute("data-contrast", "off")
    assert page.evaluate(CARD, "svg.rules-drawing")[0][0] == NORMAL_RED


def test_the_rules_drawing_follows_the_system_until_chosen(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page()
    page.emulate_media(contrast="more")
    page.goto(live_server.url + "/rules")
    expect(page.locator("html")).to_have_attribute("data-contrast", "on")
    assert page.evaluate(CARD, "svg.rules-drawing")[0][0] == CONTRAST_RED
    page.emulate_media(contrast="no-preference")  # the system's setting changes
    expect(page.locator("html")).to_have_attribute("data-contrast", "off")
    assert page.evaluate(CARD, "svg.rules-drawing")[0][0] == NORMAL_RED
