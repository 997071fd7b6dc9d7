"""Every page at 200 % text and at 200 % zoom on a 360 px phone, in de, en and nb.

WCAG 1.4.4 (text resized to 200 %) and 1.4.10 (reflow): no page is wider
than the screen, nothing lies left of it where no scrolling reaches, every
control and card can be reached and is on top where it is tapped, no text
is cut off, and no word is broken where it would have fitted whole
(``helpers/reflow.py`` says how each is measured). The pages: the start
page, online play, the rules, the accessibility page, a new group, the
lab, a Tafel game (its board, edit page and history), a group and a
member, a wrong join code; the online table in its lobby, in play (and in
the screen-reader mode), a round's scores, the practice round's end and a
replay. Screenshots: ``test-artifacts/reflow-<mode>-<lang>-<page>.png``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from helpers.browser import NewPage, PlayServer, Shoot, serving
from helpers.play import host_table, round_over, serve_play, start_practice
from helpers.reflow import MODES, large_phone, reflow_problems, turn
from ligretto.live.settings import TableSettings

LANGS = ("de", "en", "nb")


@dataclass(frozen=True)
class Saved:
    """What the Tafel and the groups hold for the pages to show."""

    game: str
    token: str
    group: str


def api(client: httpx.Client, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
    answer = client.request(method, path, **kwargs)
    assert answer.status_code < 300, answer.text
    body: dict[str, Any] = answer.json()
    return body


def played_game(client: httpx.Client, path: str, headers: dict[str, str], **fields: Any) -> str:
    """A game of four (names of several lengths) with one round entered; its id."""
    players = ["Anna", "Bestemor", "Cleo", "Dietrich"]
    game = api(client, "POST", path, json={"players": players, **fields}, headers=headers)
    game = game.get("game", game)  # a group's new game comes with the group
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    stacks = dict(zip(players, [0, 3, 5, 2], strict=True))
    api(client, "POST", f"/api/games/{game['id']}/rounds", json={"stacks": stacks}, headers=auth)
    middle = dict(zip(players, [12, 14, 5, 9], strict=True))
    api(client, "PUT", f"/api/games/{game['id']}/rounds/1", json={"middle": middle}, headers=auth)
    return f"{game['id']} {game['edit_token']}"


@pytest.fixture(scope="module")
def still(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Bots that keep still: the table stays as it is while it is measured."""
    yield from serve_play(tmp_path_factory, "reflow", 80.0)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Bots that play in a flash, and "We're stuck" offered after 2 s
    without a card to the middle: a round's end comes soon."""
    settings = TableSettings(
        countdown=0.5, between_rounds=60.0, away_after=60.0, bot_pace=0.03, stall_after=2.0
    )
    yield from serving(PlayServer(tmp_path_factory.mktemp("reflow-quick"), settings))


@pytest.fixture(scope="module")
def saved(still: PlayServer) -> Saved:
    with httpx.Client(base_url=still.url) as client:
        game, token = played_game(client, "/api/games", {}, mode="target", target=99).split()
        group = api(
            client,
            "POST",
            "/api/groups",
            json={"name": "Donnerstagsrunde", "members": ["Anna", "Bestemor", "Cleo", "Dietrich"]},
        )
        auth = {"Authorization": f"Bearer {group['token']}"}
        played_game(client, f"/api/groups/{group['id']}/games", auth, mode="rounds", rounds=1)
    return Saved(game, token, group["id"])


def check(page: Page, shoot: Shoot, name: str, found: dict[str, Any], scope: str = "body") -> None:
    """Measure the page as it is now in both modes, 200 % text and 200 %
    zoom (what lies over the rest: ``scope``); shoot it in each."""
    for mode in MODES:
        turn(page, mode)
        shot = f"reflow-{mode}-{name}"
        problems = reflow_problems(page, scope)
        if problems:
            found[shot] = problems
        shoot(page, shot)


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_reflows(
    still: PlayServer, saved: Saved, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = large_phone(new_page, "text", lang)
    pages = {
        "start": "/",
        "play": "/play",
        "rules": "/rules",
        "accessibility": "/accessibility",
        "new-group": "/groups/new",
        "lab": "/lab",
        "board": f"/g/{saved.game}",
        "history": f"/g/{saved.game}/history",
        "group": f"/groups/{saved.group}",
        "member": f"/groups/{saved.group}/members/Bestemor",
        "join": "/play/join?code=QQQQQQ",
        # Last: the edit link moves the token into a cookie and leads on.
        "edit": f"/g/{saved.game}/edit/{saved.token}",
    }
    found: dict[str, Any] = {}
    for name, path in pages.items():
        page.goto(f"{still.url}{path}")
        expect(page.locator("main")).to_be_visible()
        check(page, shoot, f"{lang}-{name}", found)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_reflows_in_every_state(
    still: PlayServer, quick: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    found: dict[str, Any] = {}
    page = large_phone(new_page, "text", lang)
    # The lobby, as the host sees it (the invite's code and QR code).
    bots = [{"seat": seat, "strategy": "greedy"} for seat in (1, 2, 3)]
    host_table(page, still, 4, bots, lang)
    check(page, shoot, f"{lang}-lobby", found)
    # In play, then in the screen-reader mode (its moves and choices).
    page.locator("#start").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#countdown")).to_be_hidden()
    check(page, shoot, f"{lang}-table", found)
    page.evaluate("localStorage.setItem('ligretto.play.reader', 'on')")
    page.reload()
    expect(page.locator("#reader-actions button").first).to_be_visible()
    check(page, shoot, f"{lang}-reader", found)
    # A round's scores (the bots end it in seconds), and its replay.
    page = large_phone(new_page, "text", lang)
    host_table(page, quick, 2, [{"seat": 1, "strategy": "greedy"}], lang)
    page.locator("#start").click()
    round_over(page, "#scores")
    check(page, shoot, f"{lang}-scores", found, "#scores")
    replay = page.locator("#scores-replay").get_attribute("href")
    assert replay is not None
    page.goto(f"{quick.url}{replay}")
    expect(page.locator("main")).to_be_visible()
    check(page, shoot, f"{lang}-replay", found)
    # The practice round's end.
    page = large_phone(new_page, "text", lang)
    start_practice(page, quick, lang=lang, after_countdown=False)
    round_over(page, "#practice-end")
    check(page, shoot, f"{lang}-practice-end", found, "#practice-end")
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_the_checks_see_what_they_look_for(still: PlayServer, new_page: NewPage) -> None:
    """A page made wide, a button pushed off the left edge, a word cut and
    one broken in a narrow column: each is named."""
    page = large_phone(new_page, "zoom", "en")
    page.goto(f"{still.url}/rules")
    # (Styles set through the DOM: the pages' CSP refuses style attributes.)
    page.evaluate(
        """() => {
      const add = (tag, text, style, parent = document.querySelector('main')) => {
        const el = document.createElement(tag);
        el.textContent = text;
        Object.assign(el.style, style);
        parent.prepend(el);
        return el;
      };
      add('div', 'wide', {width: '400px'});
      const row = add('div', '', {display: 'flex', justifyContent: 'center', width: '100%'});
      // min-width: the pages keep a button's width within its line.
      add('button', 'centred', {flex: 'none', minWidth: '300px'}, row);
      add('p', 'cut off words', {width: '3em', overflow: 'hidden', whiteSpace: 'nowrap'});
      add('p', 'Keep score', {width: '2.5em', overflowWrap: 'anywhere'});
    }"""
    )
    found = reflow_problems(page)
    said = " ".join(re.sub(r"\s+", " ", item) for items in found.values() for item in items)
    assert "the page is" in said, found
    assert "centred" in " ".join(found.get("unreachable", [])), found
    assert "cut off words" in " ".join(found.get("cut", [])), found
    assert '"Keep score"' in " ".join(found.get("broken", [])), found
