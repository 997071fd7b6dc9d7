"""The replay page of a finished online round, on a phone in de/en/nb.

One round of the host and three fast bots is played to its end once; its
replay page is then opened in each language: the controls are there and
labelled, a step shows the next action, the end shows the result and
every seat's stack as the document scored it, the arrow keys step, and a
lost race (added to the served document, since a round of bots rarely has
one) is marked at the play that won it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from helpers.browser import LOCALES, PHONES, NewPage, PlayServer, Shoot
from helpers.play import game_over, serve_play

CONTROLS = (
    "#replay-start",
    "#replay-back",
    "#replay-play",
    "#replay-step",
    "#replay-next-play",
    "#replay-end",
)


@pytest.fixture(scope="module")
def replay_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serve_play(tmp_path_factory, "replay-data", 0.1)


@pytest.fixture(scope="module")
def replay_url(replay_server: PlayServer, browser: Any) -> str:
    """The replay page's address, as the score screen links it."""
    context = browser.new_context(viewport=PHONES["360"])
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        game_over(page, replay_server, "en")
        link = page.locator("#scores-replay")
        expect(link).to_be_visible()
        href = link.get_attribute("href")
        assert href is not None and re.fullmatch(r"/play/[A-Z0-9]{6}/rounds/1/replay", href)
        return f"{replay_server.url}{href}"
    finally:
        context.close()


def with_race(route: Route) -> None:
    """The served document with one lost race at its first play to the middle."""
    race_of(42)(route)


def race_of(margin_ms: int) -> Callable[[Route], None]:
    """A route handler: the served document with one race lost by ``margin_ms``."""
    return lambda route: served_with_race(route, margin_ms)


def served_with_race(route: Route, margin_ms: int) -> None:
    response = route.fetch()
    doc = response.json()
    first = next(a for a in doc["actions"] if a["action"].startswith("play "))
    loser = (first["seat"] + 1) % doc["players"]
    doc["races"] = [
        {
            "t_ms": first["t_ms"] + margin_ms,
            "seat": loser,
            "action": first["action"],
            "refused_by_seat": first["seat"],
            "margin_ms": margin_ms,
        }
    ]
    route.fulfill(response=response, body=json.dumps(doc))


@pytest.mark.parametrize("lang", LOCALES)
def test_the_replay_page_steps_plays_and_ends_with_the_result(
    replay_url: str, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONES["360"], locale=LOCALES[lang])
    page.route("**/api/tables/*/rounds/*/replay", with_race)
    page.goto(f"{replay_url}?lang={lang}")
    root = page.locator("#replay")
    expect(root).to_have_attribute("data-ready", "1")
    for selector in CONTROLS:
        button = page.locator(selector)
        expect(button).to_be_visible()
        assert (button.get_attribute("aria-label") or "").strip(), selector
    expect(page.locator("#replay-speed")).to_be_visible()
    expect(page.locator("#replay-follow")).to_be_visible()
    expect(page.locator("#replay-download")).to_have_attribute(
        "href", re.compile(r"/replay\?download=1$")
    )
    expect(page.locator(".key-hint").first).to_be_visible()
    doc = page.evaluate("(src) => fetch(src).then((r) => r.json())", root.get_attribute("data-src"))
    seats = len(doc["seats"])
    expect(page.locator(".replay-seat")).to_have_count(seats)
    expect(root).to_have_attribute("data-position", "0")
    shoot(page, f"replay-{lang}-deal")
    before = page.locator("#replay-now").inner_text()

    page.locator("#replay-step").click()
    expect(root).to_have_attribute("data-position", "1")
    expect(page.locator("#replay-now")).not_to_have_text(before)

    # The keyboard: → on, ← back (focus off the buttons, as on a desktop).
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    expect(root).to_have_attribute("data-position", "2")
    page.keyboard.press("ArrowLeft")
    expect(root).to_have_attribute("data-position", "1")

    # The race is marked at the play that won it.
    page.locator("#replay-start").click()
    page.locator("#replay-next-play").click()
    expect(page.locator("#replay-race")).to_be_visible()
    expect(page.locator("#replay-race")).to_contain_text("42")
    expect(page.locator(".replay-middle .card.race-won")).to_have_count(1)
    shoot(page, f"replay-{lang}-race")

    page.locator("#replay-end").click()
    expect(root).to_have_attribute("data-position", str(len(doc["actions"])))
    expect(page.locator("#replay-result")).to_be_visible()
    for scored in doc["result"]["seats"]:
        seat = page.locator(f".replay-seat[data-seat='{scored['seat']}']")
        expect(seat).to_have_attribute("data-stack", str(scored["stack"]))
        expect(seat).to_have_attribute("data-middle", str(scored["middle"]))
    expect(page.locator("#replay-result-rows tr")).to_have_count(seats)
    shoot(page, f"replay-{lang}-end")

    # Follow one seat: it comes first, the others small.
    page.locator("#replay-follow").select_option("1")
    expect(page.locator(".replay-seat").first).to_have_attribute("data-seat", "1")
    expect(page.locator(".replay-seat.followed")).to_have_count(1)

    # Space plays from the deal again and pauses.
    page.locator("#replay-start").click()
    page.locator("h1").click()
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth")


#: A card element as painted, without what says where it lies on its page
#: (the table keys and sizes its piles, the replay outlines the last one);
#: its attributes in name order (a reused element keeps its first order).
CARD_DOM = """(el) => {
  const copy = el.cloneNode(true);
  for (const name of ["pile", "closed", "small", "landed", "race-won"]) copy.classList.remove(name);
  copy.removeAttribute("data-key");
  copy.removeAttribute("data-pile");
  const attributes = [...copy.attributes].map((a) => `${a.name}=${a.value}`).sort();
  return `<${copy.tagName} ${attributes.join(" ")}>${copy.innerHTML}`;
}"""


def painted_piles(page: Page, selector: str) -> dict[str, str]:
    """Each middle pile's card element, by its card."""
    cards = page.locator(selector)
    return {
        str(cards.nth(i).get_attribute("data-card")): str(cards.nth(i).evaluate(CARD_DOM))
        for i in range(cards.count())
    }


@pytest.mark.parametrize("lang", LOCALES)
def test_the_replay_page_draws_a_card_as_the_table_does(
    replay_url: str, new_page: NewPage, lang: str
) -> None:
    """The round's last position: each pile in the middle is the same element
    on the replay page as on the table it was played at (cards.js paints
    both), in the page's language."""
    page = new_page(PHONES["360"], locale=LOCALES[lang])
    table_url = replay_url.split("/rounds/")[0]
    page.goto(f"{table_url}?lang={lang}")
    expect(page.locator("#middle [data-card]").first).to_be_attached()
    table = painted_piles(page, "#middle [data-card]")
    page.goto(f"{replay_url}?lang={lang}")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "1")
    page.locator("#replay-end").click()
    replay = painted_piles(page, "#replay-middle [data-card]")
    assert table and replay == table
    named = page.locator("#replay-middle [data-card]").first.get_attribute("aria-label")
    colours = {"de": "rot|grün|blau|gelb", "en": "red|green|blue|yellow", "nb": "rød|grønn|blå|gul"}
    assert named and re.search(rf"({colours[lang]}) \d+$", named), named


#: A tie, and the play time of an action, in each language.
TIE = {
    "de": (r"im selben Augenblick\.$", r"^Zug 1 von \d+ · \d+,\d s · "),
    "en": (r"played at the same moment\.$", r"^Action 1 of \d+ · \d+\.\d s · "),
    "nb": (r"i samme øyeblikk\.$", r"^Trekk 1 av \d+ · \d+,\d s · "),
}


@pytest.mark.parametrize("lang", LOCALES)
def test_a_tie_is_told_as_a_tie_and_times_in_the_pages_language(
    replay_url: str, new_page: NewPage, lang: str
) -> None:
    """A race won by 0 ms is no "0 ms slower"; a play time has the
    language's decimal sign."""
    tie, now = TIE[lang]
    page = new_page(PHONES["360"], locale=LOCALES[lang])
    page.route("**/api/tables/*/rounds/*/replay", race_of(0))
    page.goto(f"{replay_url}?lang={lang}")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "1")
    page.locator("#replay-step").click()
    expect(page.locator("#replay-now")).to_have_text(re.compile(now))
    page.locator("#replay-start").click()
    page.locator("#replay-next-play").click()
    expect(page.locator("#replay-race")).to_have_text(re.compile(tie))
