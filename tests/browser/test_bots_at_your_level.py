"""Bots at your level in the browser (docs/online-play.md): a finished game
against bots rates this browser's player, and /play then offers the bots
matched to the rating and says so, in German, English and Norwegian; the
start page's quick game seats the same bots."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot
from helpers.play import round_over, serve_play, start_practice
from helpers.play_moves import follow_hints
from ligretto.simulate.level_match import matched_bots
from ligretto.tafel.ratings import Rating
from ligretto.web.play.quick_games import quick_bots

pytestmark = pytest.mark.browser

RATED = {"mu": 41.5, "sigma": 3.2, "games": 6}
WORDS = {
    "en": "Bots matched to you",
    "de": "Bots passend zu dir",
    "nb": "Boter tilpasset deg",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Fast bots: a one-round game ends by itself in seconds."""
    yield from serve_play(tmp_path_factory, "level-data", 0.03)


def keep_rating(page: Page, server: PlayServer, rating: dict[str, Any]) -> None:
    """This browser has played before: its rating is in localStorage."""
    page.goto(f"{server.url}/play")
    page.evaluate("r => localStorage.setItem('ligretto.play.rating', r)", json.dumps(rating))


def seated_bots_are_matched(page: Page, server: PlayServer) -> list[tuple[str, str]]:
    """The quick game opened: its bots are the ones matched to ``RATED``."""
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    seats = page.request.get(f"{server.url}/api/tables/{code}").json()["seats"]
    matched = list(matched_bots(Rating(RATED["mu"], RATED["sigma"])).bots)
    assert [(s["strategy"], s["level"]) for s in seats[1:]] == matched
    return matched


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_play_offers_the_bots_matched_to_the_rating_and_says_so(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONE, touch=True)
    keep_rating(page, server, RATED)
    page.goto(f"{server.url}/play?lang={lang}")
    line = page.locator("#bot-match")
    expect(line).to_be_visible()
    expect(line).to_contain_text(WORDS[lang])
    # The chance as the language writes a percentage ("50 %", "50%").
    expect(line).to_contain_text(re.compile(r"\d+\s?%"))
    expect(page.locator("#quick-plain")).to_be_hidden()
    line.scroll_into_view_if_needed()
    shoot(page, f"bots-at-your-level-{lang}")
    page.locator("#quick-name").fill("Anna")
    page.locator("#quick-game button[type=submit]").first.tap()
    seated_bots_are_matched(page, server)


def test_the_start_pages_quick_game_seats_the_bots_matched_to_the_rating(
    server: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE, touch=True)
    keep_rating(page, server, RATED)
    page.goto(f"{server.url}/?lang=en")
    form = page.locator("form.quick-form")
    # The rating goes along with the form (play/bot_match.js, as on /play).
    expect(form.locator("[data-rating-mu]")).to_have_value(str(RATED["mu"]))
    expect(form.locator("[data-rating-sigma]")).to_have_value(str(RATED["sigma"]))
    form.locator("#quick-name").fill("Anna")
    form.locator("button[type=submit]").first.tap()
    matched = seated_bots_are_matched(page, server)
    assert matched != quick_bots(None)  # not what a newcomer gets


def test_the_practice_ends_quick_game_seats_the_bots_matched_to_the_rating(
    server: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE, touch=True)
    keep_rating(page, server, RATED)
    start_practice(page, server, lang="en", after_countdown=False)
    follow_hints(page, tap=True)
    end = page.locator("#practice-end")
    expect(end).to_be_visible()
    # The rating goes along with the practice end's quick game (scores.js).
    expect(end.locator("[data-rating-mu]")).to_have_value(str(RATED["mu"]))
    expect(end.locator("[data-rating-sigma]")).to_have_value(str(RATED["sigma"]))
    end.locator("button[type=submit]").first.click()
    seated_bots_are_matched(page, server)


def test_a_newcomer_gets_the_medium_bots_and_no_claim(
    server: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE, touch=True)
    page.goto(f"{server.url}/play?lang=en")
    expect(page.locator("#quick-plain")).to_be_visible()
    expect(page.locator("#quick-plain")).to_contain_text("(medium)")
    expect(page.locator("#bot-match")).to_be_hidden()


def test_a_finished_game_against_bots_rates_this_browser_once(
    server: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE, touch=True)
    answer = page.request.post(
        server.url + "/api/tables",
        data={
            "seats": 3,
            "name": "Anna",
            "end": {"mode": "rounds", "rounds": 1},
            "bots": [
                {"seat": 1, "strategy": "watchful", "level": "hard"},
                {"seat": 2, "strategy": "stack-first", "level": "medium"},
            ],
        },
    ).json()
    updates: list[str] = []
    page.on("request", lambda r: updates.append(r.url) if "/api/ratings/update" in r.url else None)
    page.goto(f"{server.url}/play/{answer['code']}#t={answer['host_token']}")
    expect(page.locator("#seat-list li")).to_have_count(3)
    page.locator("#start").tap()
    # Anna plays no card: the bots end the round, or get stuck, and then
    # she agrees (R4); a deal where they get stuck failed this test.
    round_over(page, "#scores")
    page.wait_for_function("() => localStorage.getItem('ligretto.play.rating') !== null")
    kept = json.loads(page.evaluate("localStorage.getItem('ligretto.play.rating')"))
    assert kept["games"] == 1 and kept["sigma"] < 8.33
    # The game's end heard again (a reload rejoins the finished table): counted once.
    page.reload()
    expect(page.locator("#scores")).to_be_visible()
    expect(page.locator("#scores-title")).not_to_be_empty()
    page.wait_for_load_state("networkidle")  # a second update would have been sent by now
    assert len(updates) == 1
    page.goto(f"{server.url}/play?lang=en")
    expect(page.locator("#bot-match")).to_be_visible()
    again = json.loads(page.evaluate("localStorage.getItem('ligretto.play.rating')"))
    assert again == kept
