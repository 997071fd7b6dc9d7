"""A person leaves the table in the browser (docs/online-play.md, "Leaving
the table"): "Leave the table" asks once more, the page goes back to /play
and says so; in the lobby the seat is free again, during the game the
others read that a bot plays for the one who left; a host who leaves hands
the table to the next person."""

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
    "en": ("Leave the table", "Leave the table for good?", "You left the table."),
    "de": ("Tisch verlassen", "Den Tisch wirklich verlassen?", "Du hast den Tisch verlassen."),
    "nb": ("Forlat bordet", "Forlate bordet for godt?", "Du har forlatt bordet."),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Still bots: the round is still being played when Ben leaves."""
    yield from serve_play(tmp_path_factory, "leave-data", 80.0)


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
    expect(ben.locator("#seat-list .me")).to_contain_text("Ben")
    return host, ben


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_in_the_lobby_ben_leaves_and_his_seat_is_free(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    host, ben = table_with_ben(new_page, server, lang)
    leave_word, ask, said = WORDS[lang]
    leave = ben.locator("#leave-lobby")
    expect(leave).to_have_text(leave_word)
    leave.tap()
    expect(leave).to_have_text(ask)  # asked once more: one tap is no slip
    leave.scroll_into_view_if_needed()
    shoot(ben, f"leave-table-lobby-{lang}")
    expect(host.locator("#seat-list")).to_contain_text("Ben")  # nothing sent yet
    leave.tap()
    expect(ben).to_have_url(re.compile(r"/play\?left=1$"))
    expect(ben.locator("#left-note")).to_have_text(said)
    shoot(ben, f"leave-table-left-{lang}")
    expect(host.locator("#seat-list")).not_to_contain_text("Ben")
    expect(host.locator("#seat-list .kind-empty")).to_have_count(1)


def test_during_the_game_ben_leaves_and_the_host_reads_that_a_bot_plays_for_him(
    server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    host, ben = table_with_ben(new_page, server, "en")
    host.locator("#start").tap()
    expect(ben.locator("#play")).to_have_attribute("data-phase", "playing")
    leave = ben.locator("#leave-game")
    if not leave.is_visible():  # on a phone, with the tools behind "?"
        ben.locator("#help").tap()
    expect(leave).to_be_visible()
    leave.tap()
    expect(leave).to_have_text(WORDS["en"][1])
    leave.scroll_into_view_if_needed()
    shoot(ben, "leave-table-game-en")
    leave.tap()
    expect(ben).to_have_url(re.compile(r"/play\?left=1$"))
    players = host.locator("#host-players")
    if not players.is_visible():
        host.locator("#help").tap()
    players.locator("summary").tap()
    expect(players.locator(".seat-item")).to_contain_text("Ben")
    expect(players.locator(".seat-item")).to_contain_text("left the table – a bot plays")
    expect(players.locator("[data-remove-kind]")).to_have_count(0)  # gone already: no Remove
    # The host alone with a bot is not offered to leave (nobody takes the table over).
    expect(host.locator("#leave-game")).to_be_hidden()


def test_a_host_who_leaves_hands_the_table_to_ben(
    server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    host, ben = table_with_ben(new_page, server, "en")
    expect(ben.locator("#host-tools")).to_be_hidden()
    leave = host.locator("#leave-lobby")
    leave.tap()
    leave.tap()
    expect(host).to_have_url(re.compile(r"/play\?left=1$"))
    expect(ben.locator("#toast")).to_contain_text("you host this table now")
    expect(ben.locator("#host-tools")).to_be_visible()
    shoot(ben, "leave-table-new-host-en")
    ben.locator("#start").tap()  # the host's own button works for Ben now
    expect(ben.locator("#play")).to_have_attribute("data-phase", re.compile("countdown|playing"))
