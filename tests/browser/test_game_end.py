"""The end of a game in the browser: the winner moment on the Tafel and at the online table.

Chromium at phone size (360 and 390 px) in German, English and Norwegian:
the winner is the heading, and the first button after it is the next game
("New game, same players" on the Tafel, "Play again" at the table). The
end screens pass axe and the tap-target check; with reduced motion no
animation runs. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from helpers.browser import LOCALES, PHONES, LiveServer, NewPage, PlayServer, Shoot, resize
from helpers.play import game_over, serve_play
from helpers.tap_targets import small_targets
from helpers.words import split_words

# The first button (or link drawn as one) after the element *selector*, in
# the order of the page: what a keyboard or a screen reader reaches next.
FIRST_BUTTON_AFTER = """(selector) => {
  const heading = document.querySelector(selector);
  const buttons = [...document.querySelectorAll("button, a.button, input[type=submit]")];
  const next = buttons.find((b) => !b.closest("[hidden]") && b.offsetParent !== null
    && (heading.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING));
  return next ? (next.id || next.closest("form")?.className || next.className) : null;
}"""

# Every running animation of the page (none with reduced motion).
ANIMATIONS = "() => document.getAnimations().filter((a) => a.playState === 'running').length"


def serious(page: Page, context: str | None = None) -> list[str]:
    """axe's serious and critical findings on the page (or in *context*) as it is (WCAG 2 A/AA)."""
    options = {
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
        "resultTypes": ["violations"],
    }
    results = Axe().run(page, context=context, options=options)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


ROUNDS = [([0, 2, 4], [14, 16, 10]), ([3, 0, 5], [10, 24, 9])]
"""Anna leads after round 1; Ben wins the target game of 30 with 36 after round 2."""


def won_game(page: Page, server: LiveServer, group: bool = False) -> tuple[str, str]:
    """A target game over the API that Ben wins in round 2; its edit and watch links.

    With *group*, the game is the second of a new group (Anna won the first):
    the board tells the group's line.
    """
    setup = {"players": ["Anna", "Ben", "Cleo"], "mode": "target", "target": 30}
    create = server.url + "/api/games"
    auth: dict[str, str] = {}
    if group:
        made = page.request.post(server.url + "/api/groups", data={"name": "Family"}).json()
        create = f"{server.url}/api/groups/{made['id']}/games"
        auth = {"Authorization": f"Bearer {made['token']}"}
        setup["new_members"] = setup["players"]
        first = page.request.post(create, data={**setup, "target": 10}, headers=auth).json()
        play(page, server, first["game"], ROUNDS[:1])
        setup["new_members"] = []
        body = page.request.post(create, data=setup, headers=auth).json()["game"]
    else:
        body = page.request.post(create, data=setup).json()
    play(page, server, body, ROUNDS)
    return (
        f"{server.url}/g/{body['id']}/edit#t={body['edit_token']}",
        f"{server.url}/g/{body['id']}",
    )


def play(page: Page, server: LiveServer, game: dict[str, Any], rounds: Any) -> None:
    """Enter *rounds* ((stacks, middle) by seat) into *game* over the API."""
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    url = f"{server.url}/api/games/{game['id']}/rounds"
    for number, (stacks, middle) in enumerate(rounds, start=1):
        assert page.request.post(url, data={"stacks": stacks}, headers=auth).ok
        assert page.request.put(f"{url}/{number}", data={"middle": middle}, headers=auth).ok


@pytest.mark.parametrize("width", PHONES)
@pytest.mark.parametrize("lang", LOCALES)
def test_the_tafel_names_the_winner_and_offers_the_next_game_first(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, lang: str, width: str
) -> None:
    page = new_page(PHONES[width], touch=True, locale=LOCALES[lang])
    edit, watch = won_game(page, live_server, group=True)
    page.goto(edit)
    expect(page.locator("#board-end .family-line")).to_contain_text("Ben")  # his first win
    heading = page.locator("#winner-title")
    expect(heading).to_be_visible()
    expect(heading).to_contain_text("Ben")
    expect(page.locator("#board-end .decided")).to_contain_text("2")
    assert page.evaluate(FIRST_BUTTON_AFTER, "#winner-title") == "new-same"
    assert page.locator("#board-end .new-same button").is_visible()
    assert page.locator(".new-same").count() == 1
    width_px = page.evaluate("document.documentElement.scrollWidth")
    assert width_px <= PHONES[width]["width"], f"the board is {width_px}px wide"
    assert small_targets(page) == []
    shoot(page, f"game-end-tafel-{lang}-{width}")
    assert serious(page) == [], serious(page)
    # The watch page has the moment too, without the next game's button.
    watcher = new_page(PHONES[width], touch=True, locale=LOCALES[lang])
    watcher.goto(watch)
    expect(watcher.locator("#winner-title")).to_contain_text("Ben")
    expect(watcher.locator("#board-end .decided")).to_be_visible()
    assert watcher.locator(".new-same").count() == 0
    shoot(watcher, f"game-end-tafel-watch-{lang}-{width}")


def test_with_reduced_motion_the_winner_moment_does_not_move(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page(PHONES["390"], touch=True, reduced_motion="reduce")
    edit, _ = won_game(page, live_server)
    page.goto(edit)
    expect(page.locator("#winner-title")).to_be_visible()
    assert page.evaluate(ANIMATIONS) == 0
    expect(page.locator(".confetti")).to_be_hidden()
    moving = new_page(PHONES["390"], touch=True, reduced_motion="no-preference")
    moving.goto(edit)
    assert moving.evaluate(ANIMATIONS) > 0  # the trophy's bounce, the confetti


@pytest.fixture(scope="module")
def end_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Fast bots that play a one-round game to its end without the host's help."""
    yield from serve_play(tmp_path_factory, "end-data", 0.03)


@pytest.mark.parametrize("lang", LOCALES)
def test_the_online_table_celebrates_and_offers_play_again_first(
    end_server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONES["360"], touch=True, locale=LOCALES[lang])
    game_over(page, end_server, lang)
    title = page.locator("#scores-title")
    expect(title).to_have_class(re.compile("winner-line"))
    expect(page.locator("#celebration")).to_be_visible()
    expect(page.locator("#final-ranking li")).to_have_count(4)
    expect(page.locator("#deciding-round")).to_be_visible()  # one round: round 1 decided it
    expect(page.locator("#deciding-round")).to_contain_text("1")
    for width in PHONES:
        resize(page, PHONES[width])
        assert page.evaluate(FIRST_BUTTON_AFTER, "#scores-title") == "play-again"
        assert small_targets(page) == []
        # Every column's heading whole ("Punkte", "Gesamt", never "Gesa/mt")
        # and within its cell; the names whole where they fit; the table
        # needs no scrolling sideways.
        assert split_words(page, "#scores .score-table thead th", even_too_long=True) == []
        assert split_words(page, "#scores .score-table tbody th") == []
        scroller = page.locator("#scores .table-scroll").first
        assert scroller.evaluate("el => el.scrollWidth <= el.clientWidth")
        shoot(page, f"game-end-table-{lang}-{width}")
    # The end screen (the table under it is checked by the table's own tests).
    assert serious(page, "#scores") == [], serious(page, "#scores")
