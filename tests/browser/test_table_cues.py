"""Cues at the table that mean one thing (issue 27).

One marker for "this fits" that no card colour can be mistaken for (a
dashed outline with a ▲ badge); hints that match the input in use (tap and
drag words after a touch, keys only after a key); the chooser's line on the
felt, not over the Invite button, without keys on a touch screen; Sound and
Vibration named at 360 px; one help button; /play saying that a quick game
starts by itself; the table on a tablet's screen without scrolling.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import FloatRect, ViewportSize, expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot, serving, settle
from helpers.play import sit_down_against_a_bot, two_red_piles
from ligretto.live.settings import TableSettings

TABLET: ViewportSize = {"width": 768, "height": 1024}
TABLET_WIDE: ViewportSize = {"width": 1024, "height": 768}
PHONE_390: ViewportSize = {"width": 390, "height": 844}
# The cards' own colours (css/cards.css): the "fits" marker is none of them.
CARD_COLOURS = {"rgb(215, 38, 61)", "rgb(24, 128, 58)", "rgb(31, 95, 191)", "rgb(242, 194, 48)"}


@pytest.fixture(scope="module")
def still_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Bots slowed right down (the table stays as dealt), two R1 piles in the
    middle and R2 in seat 0's row: a card that fits two piles."""
    settings = TableSettings(
        countdown=0.5, between_rounds=60.0, away_after=60.0, bot_pace=80.0, dealer=two_red_piles
    )
    yield from serving(PlayServer(tmp_path_factory.mktemp("cues"), settings))


def overlap(a: FloatRect | None, b: FloatRect | None) -> bool:
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_fits_marker_is_a_shape_in_no_card_colour(
    still_bots: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE)
    sit_down_against_a_bot(page, still_bots)
    card = page.locator('#mine [data-source="row0"]')
    expect(card).to_have_class(re.compile(r"\bcan\b"))
    look = card.evaluate(
        """el => ({style: getComputedStyle(el).outlineStyle,
                  colour: getComputedStyle(el).outlineColor,
                  badge: getComputedStyle(el, "::after").content})"""
    )
    assert look["style"] == "dashed"
    assert look["colour"] not in CARD_COLOURS
    assert "▲" in look["badge"]
    # The badge rises above the card (its top is negative), but not into the
    # place's label ("Row") above it.
    rise = -float(card.evaluate('el => getComputedStyle(el, "::after").top').removesuffix("px"))
    assert rise > 0
    label = page.locator("#mine .row-place .place-label").bounding_box()
    top = card.bounding_box()
    assert label is not None and top is not None
    assert label["y"] + label["height"] <= top["y"] - rise, (label, top, rise)
    # Turning three is always possible: the hand is not marked while a card fits.
    expect(page.locator('#mine [data-source="hand"]')).not_to_have_class(re.compile(r"\bcan\b"))


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_the_chooser_on_a_touch_screen_names_no_keys_and_covers_no_button(
    still_bots: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONE)
    sit_down_against_a_bot(page, still_bots, lang)
    page.locator('#mine [data-source="row0"]').tap()
    hint = page.locator("#chooser-hint")
    expect(hint).to_be_visible()
    expect(page.locator("#middle .card.target")).to_have_count(2)
    text = hint.inner_text()
    assert "Esc" not in text and not re.search(r"\d", text), text
    assert not overlap(hint.bounding_box(), page.locator("#copy-invite").bounding_box())
    shoot(page, f"cues-phone-chooser-{lang}")
    # A tap on a pile under the line still plays the card.
    page.locator("#middle .card.target").first.tap()
    expect(hint).to_be_hidden()
    expect(page.locator("#middle .card.pile[data-card=R2]")).to_have_count(1)


def test_keys_are_named_only_after_a_key(still_bots: PlayServer, new_page: NewPage) -> None:
    page = new_page(TABLET, touch=True)
    sit_down_against_a_bot(page, still_bots)
    play = page.locator("#play")
    expect(play).to_have_attribute("data-input", "touch")  # a touch screen, before any input
    key_hints = page.locator("#mine .key-hint")
    for hint in key_hints.all():
        expect(hint).to_be_hidden()
    expect(page.locator("#keys .key-help")).to_be_hidden()
    expect(page.locator("#keys .touch-help")).to_be_visible()
    page.keyboard.press("Escape")  # a keyboard: the keys are named
    expect(play).to_have_attribute("data-input", "keyboard")
    expect(key_hints.first).to_be_visible()
    expect(page.locator("#keys .key-help")).to_be_visible()
    page.locator('#mine [data-source="row0"]').tap()  # a finger again: they go
    expect(play).to_have_attribute("data-input", "touch")
    expect(key_hints.first).to_be_hidden()
    expect(page.locator("#chooser-hint")).not_to_contain_text("Esc")


@pytest.mark.parametrize("viewport", [PHONE, PHONE_390], ids=["360", "390"])
@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_one_help_button_and_named_toggles_on_a_phone(
    still_bots: PlayServer,
    new_page: NewPage,
    shoot: Shoot,
    lang: str,
    viewport: ViewportSize,
) -> None:
    page = new_page(viewport, touch=True)
    sit_down_against_a_bot(page, still_bots, lang)
    question_marks = page.locator("#play span[aria-hidden=true]:visible").filter(
        has_text=re.compile(r"^\s*\?\s*$")
    )
    expect(question_marks).to_have_count(1)
    page.locator("#help").tap()
    sound, vibration = page.locator("#sound-toggle"), page.locator("#vibrate-toggle")
    expect(sound).to_be_visible()
    words = {"en": ("Sound", "Vibration"), "de": ("Ton", "Vibration"), "nb": ("Lyd", "Vibrering")}
    expect(sound).to_contain_text(words[lang][0])
    if vibration.is_visible():
        expect(vibration).to_contain_text(words[lang][1])
    for toggle in (sound, vibration):
        expect(toggle).to_have_attribute("aria-pressed", re.compile("true|false"))
    expect(page.locator("#table-tools .tools-rules")).to_be_visible()
    expect(page.locator("#table-rules")).to_be_hidden()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    shoot(page, f"cues-phone-help-{lang}-{viewport['width']}")


@pytest.mark.parametrize("viewport", [TABLET, TABLET_WIDE], ids=["portrait", "landscape"])
def test_the_table_fits_a_tablet_screen(
    still_bots: PlayServer, new_page: NewPage, shoot: Shoot, viewport: ViewportSize
) -> None:
    page = new_page(viewport, touch=True)
    sit_down_against_a_bot(page, still_bots)
    settle(page)  # the table laid out once the countdown went
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= viewport["height"], f"the page is {height}px tall"
    shoot(page, f"cues-tablet-{viewport['width']}")


def test_play_says_the_quick_game_starts_by_itself(
    still_bots: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE)
    page.goto(still_bots.url + "/play")
    quick = page.locator(".quick-game")
    expect(quick).not_to_contain_text("Press Start")
    expect(quick).to_contain_text("starts by itself")
