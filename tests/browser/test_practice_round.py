"""The practice round in Chromium (issue 27): it teaches from the first move
and ends with the way on.

A person who follows the hints with taps plays a card to the middle within
the first five actions (the deal is one of ``PRACTICE_SEEDS``); the
opponent is called a slow bot; the end screen says what was learned and
offers a quick game and a table to invite friends to, in every language,
at phone sizes, with no axe violation and finger-sized buttons.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

# axe-playwright-python ships neither type hints nor a py.typed marker.
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, ViewportSize, expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot, resize
from helpers.play import serve_play, start_practice
from helpers.play_moves import follow_hints
from helpers.tap_targets import small_targets

PHONE_390: ViewportSize = {"width": 390, "height": 844}
AXE = Axe()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
SLOW_BOT = {"en-GB": "Slow bot", "de-DE": "Langsamer Bot", "nb-NO": "Langsom bot"}
QUICK = {"en-GB": "Quick game against 3 bots", "de-DE": "Schnelles Spiel", "nb-NO": "Raskt spill"}


@pytest.fixture(scope="module")
def waiting_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """The bot slowed right down: only the person's cards reach the middle."""
    yield from serve_play(tmp_path_factory, "practice", 80.0)


@pytest.fixture(scope="module")
def quick_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A bot that empties its stack in seconds: the round is soon over."""
    yield from serve_play(tmp_path_factory, "practice", 0.03)


def practice(page: Page, server: PlayServer, name: str = "Anna") -> None:
    """The practice table as it opens, "Ligretto!" still on the felt."""
    start_practice(page, server, name=name, after_countdown=False)
    expect(page.locator("#play")).to_have_attribute("data-practice", "1")


def test_the_first_card_reaches_the_middle_within_five_tapped_actions(
    waiting_bot: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    practice(page, waiting_bot)
    expect(page.locator(".opp-name")).to_have_text("Slow bot")
    hint = page.locator("#hint")
    # From the first second the hint is a card to play, not "turn three".
    expect(hint).to_contain_text("tap it")
    expect(hint).not_to_contain_text("turn three")
    expect(page.locator("#mine .hinted")).not_to_have_attribute("data-source", "hand")
    shoot(page, "practice-phone-first-hint")
    piles = page.locator("#middle [data-pile]")
    for _action in range(5):
        page.locator("#mine .hinted").first.tap()
        target = page.locator("#middle .card.target")
        if target.count():
            target.first.tap()
        try:
            expect(piles.first).to_be_attached()
            break
        except AssertionError:
            continue
    else:
        pytest.fail("no card reached the middle in five actions")
    # Touch only: no key is named anywhere on the table.
    expect(page.locator("#play")).to_have_attribute("data-input", "touch")
    assert "Key:" not in hint.inner_text()
    for hint_key in page.locator("#mine .key-hint, #mine .slot-key").all():
        expect(hint_key).to_be_hidden()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE", "nb-NO"])
def test_the_end_of_practice_offers_a_quick_game_and_friends(
    quick_bot: PlayServer, new_page: NewPage, shoot: Shoot, locale: str
) -> None:
    page = new_page(PHONE, locale=locale, touch=True)
    practice(page, quick_bot)
    expect(page.locator(".opp-name")).to_have_text(SLOW_BOT[locale])
    end = page.locator("#practice-end")
    follow_hints(page, tap=True)
    expect(page.locator("#scores")).to_be_hidden()
    lang = locale[:2]
    buttons = end.locator("button[type=submit]")
    # The same end on both phone widths (one round played, the screen turned).
    for viewport in (PHONE, PHONE_390):
        resize(page, viewport)
        shoot(page, f"practice-end-{lang}-{viewport['width']}")
        expect(buttons).to_have_count(2)
        for button in buttons.all():
            expect(button).to_be_visible()
            expect(button).to_be_in_viewport()
        expect(buttons.first).to_contain_text(QUICK[locale])
        assert end.locator("[data-practice-name]").first.input_value() == "Anna"
        # Readable and tappable: axe finds nothing serious, every button is a finger wide.
        results = AXE.run(page, context="#practice-end", options=AXE_OPTIONS)
        serious = [
            v for v in results.response["violations"] if v["impact"] in {"serious", "critical"}
        ]
        assert not serious, results.generate_report()
        assert [t for t in small_targets(page) if "practice" in t or "primary" in t] == []
        assert end.evaluate(
            "e => [...e.querySelectorAll('button')].every(b => b.offsetHeight >= 44)"
        )
    if lang != "en":
        return
    # The way on: a quick game under the same name, at once.
    buttons.first.click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#play")).not_to_have_attribute("data-practice", "1")
    expect(page.locator("#seat-list li")).to_have_count(4)
    expect(page.locator("#seat-list")).to_contain_text("Anna")


def test_invite_friends_opens_a_table_with_open_seats(
    quick_bot: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE)
    practice(page, quick_bot, "Ben")
    end = page.locator("#practice-end")
    follow_hints(page, tap=True)
    end.locator("button[type=submit]").nth(1).click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#seat-list li.kind-empty")).to_have_count(3)
    expect(page.locator("#copy-invite")).to_be_visible()
