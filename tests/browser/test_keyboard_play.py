"""Playing with keys alone, and the screen-reader mode, in Chromium.

A practice round is played from the start page to its end with the keyboard
only (no click, no tap): the key the hint names, then a pile's number when a
card fits several. "?" opens the list of keys. The screen-reader mode (the
"Screen reader" toggle, remembered in the browser) names every legal play as
a button of its own and speaks the table's changes in a polite live region,
in every language; axe finds nothing serious in either mode, light or dark.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, ViewportSize, expect

from helpers.axe import audit
from helpers.browser import PHONE, NewPage, PlayServer, Shoot
from helpers.play import serve_play, start_practice, tools_in_view

WIDE: ViewportSize = {"width": 1280, "height": 800}
KEYS = {"stack": "s", "discard": "d", "hand": " "}
LOCALES = {"en-GB": "en", "de-DE": "de", "nb-NO": "nb"}
READER = {"en-GB": "Screen reader", "de-DE": "Bildschirmleser", "nb-NO": "Skjermleser"}
BOT = {"en-GB": "Slow bot", "de-DE": "Langsamer Bot", "nb-NO": "Langsom bot"}
PLAY = {"en-GB": "Play ", "de-DE": " legen", "nb-NO": "Legg "}
TURN = {"en-GB": "Turn three", "de-DE": "Drei umdrehen", "nb-NO": "Snu tre"}


@pytest.fixture(scope="module")
def slow_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """The practice bot slowed right down: the person ends the round."""
    yield from serve_play(tmp_path_factory, "keys", 80.0)


@pytest.fixture(scope="module")
def busy_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A bot that plays a card every second or so: the middle keeps changing."""
    yield from serve_play(tmp_path_factory, "keys", 1.0)


def key_for(source: str) -> str:
    row = re.fullmatch(r"row(\d+)", source)
    return str(int(row.group(1)) + 1) if row else KEYS[source]


def test_a_practice_round_is_played_to_its_end_by_keys_alone(
    slow_bot: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    # No name typed: the table calls the person "You" (the form's fallback).
    start_practice(page, slow_bot, name="", submit="keys")
    end = page.locator("#practice-end")
    pressed = 0
    for _ in range(400):
        if end.is_visible():
            break
        # Read in one step: the hint moves as the table changes.
        source = page.evaluate("document.querySelector('#mine .hinted')?.dataset.source ?? null")
        if source is None:
            page.wait_for_timeout(100)
            continue
        page.keyboard.press(key_for(source))
        pressed += 1
        if page.locator("#chooser-hint").is_visible():
            page.keyboard.press("1")
        page.wait_for_timeout(120)
    # The whole round, until the round is over: the person emptied the stack.
    expect(end).to_be_visible()
    expect(page.locator("#practice-result")).to_contain_text("emptied your stack")
    # Said to the person, not of a name: it read "Ligretto Stop by You!".
    expect(page.locator("#practice-result")).to_contain_text("You called Ligretto Stop!")
    assert pressed > 10
    expect(page.locator("#play")).to_have_attribute("data-input", "keyboard")


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
@pytest.mark.parametrize("locale", list(LOCALES))
def test_question_mark_shows_the_keys(
    slow_bot: PlayServer, new_page: NewPage, shoot: Shoot, locale: str, viewport: ViewportSize
) -> None:
    page = new_page(viewport, locale=locale)
    start_practice(page, slow_bot, submit="keys")
    keys = page.locator("#keys .key-help")
    expect(keys).to_be_hidden()
    page.keyboard.press("?")
    expect(page.locator("#help")).to_have_attribute("aria-expanded", "true")
    expect(keys).to_be_visible()
    expect(page.locator("#keys")).to_contain_text("S")
    expect(page.locator("#countdown")).to_be_hidden()
    shoot(page, f"keys-help-{LOCALES[locale]}-{viewport['width']}")
    page.keyboard.press("Escape")
    expect(page.locator("#help")).to_have_attribute("aria-expanded", "false")
    # With the keys named beside them, no two places' labels run into each
    # other ("Kastebunke D" and "Hånd Mellomrom" met in Norwegian).
    labels = page.evaluate(LABEL_SPANS)
    for left, right in itertools.pairwise(labels):
        if abs(left["top"] - right["top"]) < 2:
            assert left["right"] + 2 <= right["left"], (left, right)


# Where the text of each of my places' labels lies, left to right by line.
LABEL_SPANS = """() => [...document.querySelectorAll('#mine .place-label')]
  .filter((el) => el.checkVisibility())
  .map((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return {text: el.textContent.trim(),
            top: Math.round(Math.min(...rects.map((r) => r.top))),
            left: Math.min(...rects.map((r) => r.left)),
            right: Math.max(...rects.map((r) => r.right))};
  })
  .sort((a, b) => a.top - b.top || a.left - b.left)"""


def reader_on(page: Page, locale: str) -> None:
    toggle = page.locator("#reader-toggle")
    # The tools sit behind the help button on a phone.
    if not tools_in_view(page):
        page.keyboard.press("?")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name=READER[locale])).to_be_visible()


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
@pytest.mark.parametrize("locale", list(LOCALES))
def test_the_screen_reader_mode_names_moves_and_speaks_changes(
    busy_bot: PlayServer, new_page: NewPage, shoot: Shoot, locale: str, viewport: ViewportSize
) -> None:
    page = new_page(viewport, locale=locale)
    start_practice(page, busy_bot, submit="keys")
    reader_on(page, locale)
    if page.locator("#help").get_attribute("aria-expanded") == "true":
        page.keyboard.press("Escape")
    everything = page.locator('#reader-level input[value="all"]')
    everything.focus()  # by keys, as everything here: Space checks a radio button
    page.keyboard.press("Space")
    expect(everything).to_be_checked()
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    # Every legal play is a button named in words.
    moves = page.get_by_role("group").locator("button")
    expect(moves.first).to_contain_text(PLAY[locale])
    # The bot's name is whole, however narrow its panel ("Langsamer Bot",
    # not "Langsa…"): it wraps instead of being cut.
    name = page.locator(".opp-name")
    assert name.evaluate("el => el.scrollWidth <= el.clientWidth"), name.inner_text()
    assert name.evaluate("el => getComputedStyle(el).textOverflow") != "ellipsis"
    # Labelled regions in the accessibility tree.
    tree = page.locator("#board").aria_snapshot()
    assert "region" in tree
    # The bot's moves are spoken: the polite region's text changes while the
    # bot plays, and while the person plays through the named buttons. (The
    # answer to the person's own move comes first: someone who plays without
    # a pause hears the others' plays only when there is room for them.)
    heard: set[str] = set()
    for _ in range(150):
        heard.add(announce.inner_text())
        # Both asked of the region: the bot's move heard, and at least three
        # different things said (one announcement can carry the bot's move).
        bot_heard = any(BOT[locale] in text for text in heard)
        if len(heard) >= 3 and bot_heard:
            break
        if not bot_heard:  # listening first
            page.wait_for_timeout(400)
            continue
        # A play to the middle, else turning three: either changes what
        # the person has to play, which is news.
        button = page.locator("#reader-actions button").filter(has_text=PLAY[locale])
        if not button.count():
            button = page.locator("#reader-actions button").filter(has_text=TURN[locale])
        if button.count():
            try:
                button.first.focus(timeout=500)
                page.keyboard.press("Enter")
            except PlaywrightError:  # the moves changed under the key: look again
                pass
        page.wait_for_timeout(400)
    assert any(BOT[locale] in text for text in heard), heard
    assert len(heard) >= 3
    shoot(page, f"reader-{LOCALES[locale]}-{viewport['width']}")
    # Remembered in this browser.
    page.reload()
    expect(page.locator("#reader-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#reader-tools")).to_be_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_both_modes_pass_axe(busy_bot: PlayServer, new_page: NewPage, scheme: str) -> None:
    found: dict[str, str] = {}
    page = new_page(PHONE, color_scheme=scheme)
    start_practice(page, busy_bot, submit="keys")
    page.keyboard.press("?")
    audit(page, f"table-{scheme}", found)
    reader_on(page, "en-GB")
    audit(page, f"reader-{scheme}", found)
    assert not found, "\n\n".join(f"{k}:\n{v}" for k, v in found.items())
