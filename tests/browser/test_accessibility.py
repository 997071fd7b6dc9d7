"""An axe-core audit (WCAG 2.x A and AA) of every page, in light and dark mode.

Each page is audited at the phone viewport in the state a person sees it
in: the start page (empty, then with this browser's games), the rules
(in each language, with its drawing checked to fit a phone), a board taking
the stacks and then the middle, the watch, correction and history pages,
the final ranking of a rounds game, the /play form, a table's lobby and the
table during a round. A violation of impact "serious" or "critical" fails
the test with axe's full report of every page.

Every audited page is also measured for tap targets (``helpers.tap_targets``):
on the phone each interactive element is at least 44 × 44 CSS px, with the
exceptions that module documents (links inside running text).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from helpers.axe import audit
from helpers.browser import ARTIFACTS, PHONE, LiveServer, NewPage, Shoot, screenshot
from helpers.tafel_pages import create_game, enter_middle, enter_stacks


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, scheme: str
) -> None:
    found: dict[str, str] = {}
    page = new_page(PHONE, color_scheme=scheme)
    page.goto(live_server.url + "/")
    audit(page, "start", found)

    # The rules, through the header's link.
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page.locator("svg.rules-drawing")).to_be_visible()
    audit(page, "rules", found)
    shoot(page, f"a11y-{scheme}-rules")

    # A board on its edit link: the stacks, then the middle of round 1.
    create_game(page, live_server, ["Anna", "Ben", "Cleo"])
    page.get_by_label("Anna: Ligretto Stop").check()  # the toggle in both of its looks
    audit(page, "board: stacks entry", found)
    shoot(page, f"a11y-{scheme}-stacks-entry")
    enter_stacks(page, 0, {1: 2, 2: 6})
    expect(page.locator("#middle-0")).to_be_visible()
    audit(page, "board: middle entry", found)
    enter_middle(page, {0: 15, 1: 14, 2: 5})
    enter_stacks(page, 1, {0: 1, 2: 3})
    enter_middle(page, {0: 12, 1: 15, 2: 9})
    audit(page, "board after two rounds", found)
    edit_url = page.url.split("?")[0]
    watch_url = page.locator("#watch-link").input_value()

    page.get_by_role("link", name="Correct round 1").click()
    expect(page.locator("#middle-1")).to_have_value("14")
    audit(page, "correct round 1", found)
    page.goto(edit_url)
    page.get_by_role("link", name="Change history").click()
    expect(page.locator(".history li").first).to_be_visible()
    audit(page, "history", found)
    page.goto(watch_url)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    audit(page, "watch", found)

    # The final ranking of a rounds game.
    create_game(page, live_server, ["Anna", "Ben"], rounds=1)
    enter_stacks(page, 0, {1: 4})
    enter_middle(page, {0: 12, 1: 10})
    page.get_by_role("button", name="Finish").click()
    page.get_by_role("button", name="Score").click()
    expect(page.locator(".ranking li.winner")).to_have_count(1)
    audit(page, "final ranking", found)
    page.goto(live_server.url + "/")
    expect(page.locator("#my-games li")).to_have_count(2)
    audit(page, "start with this browser's games", found)

    # Online play: the form, a lobby with a bot, the table during a round.
    page.goto(live_server.url + "/play")
    audit(page, "play form", found)
    page.locator("#host-name").fill("Anna")
    page.locator("#seats").fill("2")
    page.locator("#seat1").select_option("greedy")
    page.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#seat-list li")).to_have_count(2)
    audit(page, "table lobby", found)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#countdown")).to_be_hidden()
    audit(page, "table during a round", found)
    shoot(page, f"a11y-{scheme}-table")

    reports = [f"== {name} ({scheme}) ==\n{report}" for name, report in found.items()]
    assert not found, "\n\n".join(reports)


# Every text of the rules' drawing, as a box on the page: [x, y, width, height, text].
DRAWING_TEXTS = """() => [...document.querySelectorAll('svg.rules-drawing text')].map(t => {
  const r = t.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height, t.textContent];
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rules_fit_a_phone_in_every_language(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, scheme: str
) -> None:
    found: dict[str, str] = {}
    page = new_page(PHONE, color_scheme=scheme)
    for language in ("de", "en", "nb"):
        page.goto(f"{live_server.url}/rules?lang={language}")
        drawing = page.locator("svg.rules-drawing")
        expect(drawing).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # The header's link: a 44 px tap target; on a phone the links Play,
        # Groups and Rules take the line under the brand and the languages.
        link = page.locator(".site-header .rules-link").bounding_box()
        brand = page.locator(".site-header .brand").bounding_box()
        languages = page.locator(".site-header .lang-switch").bounding_box()
        assert link and brand and languages
        assert link["width"] >= 44 and link["height"] >= 44
        assert languages["y"] < brand["y"] + brand["height"] <= link["y"]
        # The drawing's words, in this language: inside the drawing, none on another.
        box = drawing.bounding_box()
        assert box and box["x"] + box["width"] <= PHONE["width"]
        texts = page.evaluate(DRAWING_TEXTS)
        for i, (x, y, width, height, text) in enumerate(texts):
            assert box["x"] <= x and x + width <= box["x"] + box["width"], (language, text)
            for x2, y2, width2, height2, text2 in texts[i + 1 :]:
                apart = x + width <= x2 or x2 + width2 <= x or y + height <= y2 or y2 + height2 <= y
                assert apart, f"{language}: {text!r} overlaps {text2!r}"
        if language != "en":  # English is audited with every other page
            audit(page, f"rules ({language})", found)
        shoot(page, f"rules-{scheme}-{language}")
        screenshot(drawing, ARTIFACTS / f"rules-{scheme}-{language}-drawing.png")
    reports = [f"== {name} ({scheme}) ==\n{report}" for name, report in found.items()]
    assert not found, "\n\n".join(reports)
