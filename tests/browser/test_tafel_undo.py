"""Undo (T6) on a phone: what was typed comes back, and the bar covers nothing needed.

Chromium at phone size (360 px) against a live server. An Undo of the
middle brings the middle step back with the numbers that had been saved;
while the Undo bar shows, the step's Save button stays visible and takes
taps, and the bar's button shows its whole word in every language.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LiveServer, NewPage, Shoot
from helpers.tafel_phones import create_game, save_stacks

# What lies at the centre of an element: the element itself (or a part of it)
# when nothing covers it there.
FREE_AT_CENTRE = """(element) => {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return Boolean(hit) && (hit === element || element.contains(hit));
}"""

BOX = """(element) => {
  const b = element.getBoundingClientRect();
  return [b.top, b.bottom, b.left, b.right];
}"""


def assert_uncovered(page: Page, button: Any, bar: Any) -> None:
    """*button* is in view, nothing lies on its centre, and its box and the bar's do not meet."""
    expect(button).to_be_in_viewport()
    assert button.evaluate(FREE_AT_CENTRE)
    top, bottom, _, _ = button.evaluate(BOX)
    bar_top, bar_bottom, _, _ = bar.evaluate(BOX)
    assert bottom <= bar_top or top >= bar_bottom, (top, bottom, bar_top, bar_bottom)


def test_undo_of_the_middle_gives_back_the_typed_numbers_and_covers_no_save_button(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page()
    create_game(page, live_server.url, ["Anna", "Ben", "Cleo"])
    save_stacks(page, 0, {1: 3, 2: 6})
    bar = page.locator("form[data-undo].toast")
    expect(bar).to_contain_text("Round 1: stacks saved.")
    # The middle's Save button, while the bar shows: seen, free, tappable
    # (as the page comes, without scrolling).
    save = page.locator("form[data-entry=middle] button.primary")
    assert_uncovered(page, save, bar)
    for seat, count in {0: 14, 1: 12, 2: 9}.items():
        page.locator(f"#middle-{seat}").fill(str(count))
    save.click()  # a real click: Playwright refuses one on a covered button
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    expect(page.locator("#players .total")).to_have_text(["14", "6", "\u22123"])
    expect(bar).to_contain_text("Round 1 saved.")
    bar.get_by_role("button", name="Undo").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 1: last change undone.")
    # The middle step again, with what had been typed: one number to mend, not three.
    expect(page.locator("#middle-0")).to_have_value("14")
    expect(page.locator("#middle-1")).to_have_value("12")
    expect(page.locator("#middle-2")).to_have_value("9")
    expect(page.locator("#players .total")).to_have_text(["0", "0", "0"])
    page.locator("#middle-2").fill("10")
    page.locator("form[data-entry=middle] button.primary").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    expect(page.locator("#players .total")).to_have_text(["14", "6", "\u22122"])


@pytest.mark.parametrize("locale", ["de-DE", "en-GB", "nb-NO"])
def test_the_undo_bar_shows_its_whole_button_at_phone_width(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, locale: str
) -> None:
    first = new_page()
    edit_link = create_game(first, live_server.url, ["Anna", "Ben", "Cleo", "Dora"])
    page = new_page(locale=locale)
    page.goto(edit_link)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    save_stacks(page, 1, {0: 4, 2: 2, 3: 8})
    bar = page.locator("form[data-undo].toast")
    expect(bar).to_be_visible()
    button = bar.locator("button")
    # The whole word: nothing cut off inside the button, the button inside the bar.
    assert button.evaluate("(b) => b.scrollWidth <= b.clientWidth")
    _, _, left, right = button.evaluate(BOX)
    _, _, bar_left, bar_right = bar.evaluate(BOX)
    assert bar_left <= left and right <= bar_right
    save = page.locator("form[data-entry=middle] button.primary")
    assert_uncovered(page, save, bar)
    shoot(page, f"phone-undo-bar-{locale[:2]}")
