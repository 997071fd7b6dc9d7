"""Strangers at one table (issue 47): on a phone (360 px) one person opens a
public table, another finds it under "Open tables" on /play and joins it
with one tap, in each language; the table then leaves the list."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot
from helpers.play import serve_play

#: "Join" and the seat list's word for a free chair, as each language says them.
WORDS = {
    "en": ("Join", "Open tables"),
    "de": ("Beitreten", "Offene Tische"),
    "nb": ("Bli med", "Åpne bord"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    # Bots keep still: the tables wait in their lobby.
    yield from serve_play(tmp_path_factory, "open-tables", bot_pace=80.0)


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_a_public_table_is_joined_from_the_list_with_one_tap(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    join_word, heading = WORDS[lang]
    host = new_page(PHONE, touch=True)
    host.goto(f"{server.url}/play?lang={lang}")
    host.locator("#host-name").fill("Anna")
    host.locator("#seats").fill("2")
    host.locator("#seat1").select_option("open")  # seat 2 waits for a person
    host.locator("#public").check()
    host.locator("#new-table button[type=submit]").tap()
    expect(host).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    code = host.url.rsplit("/", 1)[1]
    expect(host.locator("#public-state")).to_be_visible()
    shoot(host, f"open-tables-{lang}-host-public")

    guest = new_page(PHONE, touch=True)
    guest.goto(f"{server.url}/play?lang={lang}")
    expect(guest.locator("#open-tables-title")).to_have_text(heading)
    row = guest.locator(f"#open-table-list li[data-code='{code}']")
    expect(row).to_contain_text("Anna")
    guest.locator("#quick-name").fill("Ben")
    row.scroll_into_view_if_needed()
    shoot(guest, f"open-tables-{lang}-list")
    row.get_by_role("link", name=join_word).tap()
    expect(guest).to_have_url(re.compile(rf"/play/{code}$"))
    expect(guest.locator("#seat-list")).to_contain_text("Ben")
    expect(host.locator("#seat-list")).to_contain_text("Ben")
    shoot(guest, f"open-tables-{lang}-joined")

    # Full now: the list no longer offers it (the page's own refresh).
    other = new_page(PHONE, touch=True)
    other.goto(f"{server.url}/play?lang={lang}")
    expect(other.locator(f"#open-table-list li[data-code='{code}']")).to_have_count(0)
