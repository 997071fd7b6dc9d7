"""Watchers hear the Tafel change (T6: several phones look at one game).

Two phones at 360 px: a scorekeeper on the edit link and a watcher on the
watch link, each in a browser of its own. When a round is saved, the
watcher's polite live region (#announce) says so in the watcher's language,
with every player's total and who leads; when the totals change otherwise
(an Undo), it says that the points changed. Nothing is said when the page
opens, and no sentence twice: every text the region ever held is recorded.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LiveServer, NewPage, Shoot
from helpers.tafel_pages import create_game, enter_middle, enter_stacks

# The watcher's language: the round saved, and the standing after it.
SAID = {
    "en": ("Round 1 saved. Anna 15, Ben 8; Anna leads.", "The points changed. Anna 0, Ben 0."),
    "de": (
        "Runde 1 gespeichert. Anna 15, Ben 8; Anna führt.",
        "Der Punktestand hat sich geändert. Anna 0, Ben 0.",
    ),
    "nb": (
        "Runde 1 er lagret. Anna 15, Ben 8; Anna leder.",
        "Poengsummen er endret. Anna 0, Ben 0.",
    ),
}
# The status line a watcher hears after the stacks alone (no total moved).
WAITING = {
    "en": "Round 1: waiting for the middle",
    "de": "Runde 1: Die Mitte fehlt noch",
    "nb": "Runde 1: venter på midten",
}

# Every text the live region is given, in order (a MutationObserver from the start).
RECORD = """() => {
  window.__said = [];
  const region = document.getElementById("announce");
  new MutationObserver(() => { if (region.textContent) window.__said.push(region.textContent); })
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


def said(page: Page) -> list[str]:
    texts: list[str] = page.evaluate("window.__said")
    return texts


@pytest.mark.parametrize("language", ["en", "de", "nb"])
def test_t6_a_watcher_hears_a_saved_round_and_new_totals_in_words(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    keeper = new_page()
    create_game(keeper, live_server, ["Anna", "Ben"])
    watch_url = keeper.locator("#watch-link").input_value()
    watcher = new_page(locale={"en": "en-GB", "de": "de-DE", "nb": "nb-NO"}[language])
    watcher.goto(f"{watch_url}?lang={language}")
    expect(watcher.locator("html")).to_have_attribute("lang", language)
    region = watcher.locator("#announce")
    expect(region).to_have_attribute("aria-live", "polite")
    watcher.evaluate(RECORD)
    expect(watcher.locator("#live")).to_have_attribute("data-state", "live")
    # The page as it opens: nothing said.
    expect(region).to_have_text("")

    enter_stacks(keeper, 0, {1: 2})
    expect(region).to_contain_text(WAITING[language])
    enter_middle(keeper, {0: 15, 1: 12})
    saved, changed = SAID[language]
    expect(region).to_have_text(saved)
    expect(watcher.locator("#players .total")).to_have_text(["15", "8"])
    shoot(watcher, f"watch-announced-{language}")

    # An Undo takes the round back: the totals move, and the watcher hears it.
    keeper.locator("form[data-undo].toast").get_by_role("button", name="Undo").click()
    expect(keeper.locator(".message.ok")).to_contain_text("last change undone")
    expect(region).to_have_text(changed)

    # Each change once, in order; nothing at the start.
    texts = said(watcher)
    assert len(texts) == 3, texts
    assert re.search(WAITING[language], texts[0]), texts
    assert texts[1:] == [saved, changed]


def test_t6_a_watcher_opening_the_page_hears_nothing_however_many_rounds(
    live_server: LiveServer, new_page: NewPage
) -> None:
    keeper = new_page()
    create_game(keeper, live_server, ["Anna", "Ben", "Cleo"])
    enter_stacks(keeper, 1, {0: 3, 2: 1})
    enter_middle(keeper, {0: 9, 1: 14, 2: 11})
    watcher = new_page()
    watcher.goto(keeper.locator("#watch-link").input_value())
    watcher.evaluate(RECORD)
    expect(watcher.locator("#live")).to_have_attribute("data-state", "live")
    # The board it opened with is the newest: the stream says so and no more.
    news = watcher.locator("#board-news .board-news")
    expect(news).to_have_attribute("data-rounds", "1")
    expect(news).to_have_attribute("data-standing", "Ben 14, Cleo 9, Anna 3; Ben leads.")
    expect(watcher.locator("#announce")).to_have_text("")
    # The next change is the first thing it hears.
    enter_stacks(keeper, 0, {1: 4, 2: 2})
    expect(watcher.locator("#announce")).to_contain_text("Round 2: waiting for the middle")
    # The scorekeeper's save has landed too (its page shows the middle step).
    keeper.locator("#middle-0").wait_for(timeout=30_000)
    texts = said(watcher)
    assert len(texts) == 1 and "Round 2" in texts[0], texts
