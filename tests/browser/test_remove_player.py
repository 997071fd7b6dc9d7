"""The host removes a player in the browser (docs/online-play.md,
"Removing a player"): before the start from the seat list, during the
game from "Players"; the removed person's page goes back to /play and says
why, and cannot sit down at the table again from that browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot
from helpers.play import serve_play

pytestmark = pytest.mark.browser

WORDS = {
    "en": ("Remove Ben?", "The host removed you from the table."),
    "de": ("Ben entfernen?", "Der Gastgeber hat dich vom Tisch entfernt."),
    "nb": ("Fjerne Ben?", "Verten har fjernet deg fra bordet."),
}
GONE = {
    "en": "removed by the host – a bot plays",
    "de": "vom Gastgeber entfernt – ein Bot spielt",
    "nb": "fjernet av verten – en robot spiller",
}
KEPT_OUT = {
    "en": "The host removed you from this table",
    "de": "Der Gastgeber hat dich von diesem Tisch entfernt",
    "nb": "Verten har fjernet deg fra dette bordet",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Still bots: the round is still being played when the host removes Ben."""
    yield from serve_play(tmp_path_factory, "remove-data", 80.0)


def table_with_ben(new_page: NewPage, server: PlayServer, lang: str) -> tuple[Page, Page]:
    """Anna hosts a table of three (a bot in seat 3); Ben sits down by name."""
    host = new_page(PHONE, touch=True)
    answer: dict[str, Any] = host.request.post(
        server.url + "/api/tables",
        data={"seats": 3, "name": "Anna", "bots": [{"seat": 2, "strategy": "greedy"}]},
    ).json()
    host.goto(f"{server.url}/play/{answer['code']}?lang={lang}#t={answer['host_token']}")
    ben = new_page(PHONE, touch=True)
    ben.goto(f"{server.url}/play/{answer['code']}?lang={lang}#n=Ben")
    expect(host.locator("#seat-list")).to_contain_text("Ben")
    return host, ben


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_in_the_lobby_the_host_removes_ben_and_his_seat_is_free(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    host, ben = table_with_ben(new_page, server, lang)
    ask, said = WORDS[lang]
    remove = host.locator("#seat-list [data-remove-kind=person]")
    expect(remove).to_have_count(1)  # Ben's; not the host's own, not the bot's
    remove.tap()
    expect(remove).to_have_text(ask)  # asked once more: one tap is no slip
    shoot(host, f"remove-player-lobby-{lang}")
    remove.tap()
    expect(ben).to_have_url(re.compile(r"/play\?removed=1$"))
    expect(ben.locator("#removed-note")).to_have_text(said)
    shoot(ben, f"remove-player-removed-{lang}")
    expect(host.locator("#seat-list")).not_to_contain_text("Ben")
    expect(host.locator("#seat-list .kind-empty")).to_have_count(1)
    # Back to the table under another name, from the same browser: kept out.
    code = host.url.split("/play/", 1)[1].split("?", 1)[0].split("#", 1)[0]
    ben.goto(f"{server.url}/play/{code}?lang={lang}#n=Benny")
    expect(ben.locator("#toast")).to_contain_text(KEPT_OUT[lang])
    # Watching, and told so for as long as the page is open: no form to sit down.
    expect(ben.locator("#connection")).to_contain_text(KEPT_OUT[lang])
    expect(ben.locator("#join-form")).to_be_hidden()
    shoot(ben, f"remove-player-kept-out-{lang}")
    expect(host.locator("#seat-list")).not_to_contain_text("Benny")
    expect(host.locator("#seat-list .kind-empty")).to_have_count(1)


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_during_the_game_the_host_removes_ben_and_a_bot_plays_for_him(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    host, ben = table_with_ben(new_page, server, lang)
    host.locator("#start").tap()
    expect(host.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(ben.locator("#play")).to_have_attribute("data-phase", "playing")
    players = host.locator("#host-players")
    if not players.is_visible():  # on a phone, with the tools behind "?"
        host.locator("#help").tap()
    expect(players).to_be_visible()
    players.locator("summary").tap()
    remove = players.locator("[data-remove-kind=person]")
    expect(remove).to_have_count(1)
    remove.tap()
    expect(remove).to_have_text(WORDS[lang][0])
    players.scroll_into_view_if_needed()
    shoot(host, f"remove-player-game-{lang}")
    remove.tap()
    expect(ben).to_have_url(re.compile(r"/play\?removed=1$"))
    expect(ben.locator("#removed-note")).to_have_text(WORDS[lang][1])
    # The seats are fixed once the game started: Ben's stays, played by a
    # bot, and says he was removed (not "away" as if he were coming back).
    expect(players.locator(".seat-item")).to_contain_text(GONE[lang])
    shoot(host, f"remove-player-gone-{lang}")
    expect(players.locator(".seat-item")).to_contain_text("Ben")
