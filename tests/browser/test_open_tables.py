"""Strangers at one table (issue 47): on a phone (360 px) one person opens a
public table, another finds it under "Open tables" on /play and joins it
with one tap, in each language; the table then leaves the list. The list
on an open /play page follows the lobby's stream: a table opened public
elsewhere comes, and goes when made private, without a reload."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot
from helpers.play import serve_play
from helpers.press import held_press

#: "Join" and the seat list's word for a free chair, as each language says them.
WORDS = {
    "en": ("Join", "Open tables"),
    "de": ("Beitreten", "Offene Tische"),
    "nb": ("Bli med", "Åpne bord"),
}


def open_public(other: httpx.Client, name: str, seats: int, **more: object) -> dict[str, str]:
    """A public table opened over the API by ``name``: its code and host token."""
    opened = other.post("/api/tables", json={"name": name, "seats": seats, "public": True, **more})
    assert opened.status_code == 201, opened.text
    answer: dict[str, str] = opened.json()
    return answer


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


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_the_open_list_follows_the_lobby_without_a_reload(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    _join_word, heading = WORDS[lang]
    page = new_page(PHONE, touch=True)
    page.goto(f"{server.url}/play?lang={lang}")
    expect(page.locator("#open-tables-title")).to_have_text(heading)
    # The page follows the stream (it polls only when the stream fails).
    expect(page.locator("#open-tables")).to_have_attribute("data-feed", "stream")
    page.evaluate("window.__notReloaded = true")  # gone if the page loads again
    with httpx.Client(base_url=server.url, timeout=20, trust_env=False) as other:
        table = open_public(other, "Cleo", 3, language=lang)
        row = page.locator(f"#open-table-list li[data-code='{table['code']}']")
        expect(row).to_contain_text("Cleo")
        row.scroll_into_view_if_needed()
        shoot(page, f"open-tables-{lang}-live")
        private = other.put(
            f"/api/tables/{table['code']}/public",
            json={"public": False},
            headers={"Authorization": f"Bearer {table['host_token']}"},
        )
        assert private.status_code == 200
        expect(row).to_have_count(0)
    # Still the same page: nothing was loaded again.
    assert page.evaluate("window.__notReloaded") is True


def test_without_the_stream_the_list_is_read_every_few_seconds(
    server: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE, touch=True)
    # A proxy that refuses the stream (or a client that holds too many).
    page.route(
        "**/api/lobby/events",
        lambda route: route.fulfill(
            status=429,
            content_type="application/json",
            body='{"detail": "too many", "code": "too_many_streams"}',
        ),
    )
    page.goto(f"{server.url}/play?lang=en")
    expect(page.locator("#open-tables")).to_have_attribute("data-feed", "poll")
    with httpx.Client(base_url=server.url, timeout=20, trust_env=False) as other:
        code = open_public(other, "Dora", 3)["code"]
    # The next read (every 4 s) brings it: a deadline, not a measure of speed.
    row = page.locator(f"#open-table-list li[data-code='{code}']")
    expect(row).to_contain_text("Dora", timeout=30_000)


def test_a_join_pressed_while_the_list_changes_still_joins(
    server: PlayServer, new_page: NewPage
) -> None:
    """The list is drawn anew when another table comes; a Join held through
    that keeps its element and still joins (a press and a release on two
    different elements would make no click)."""
    page = new_page(PHONE)
    page.goto(f"{server.url}/play?lang=en")
    expect(page.locator("#open-tables")).to_have_attribute("data-feed", "stream")
    with httpx.Client(base_url=server.url, timeout=20, trust_env=False) as other:
        code = open_public(other, "Eva", 2)["code"]
        join = page.locator(f"#open-table-list li[data-code='{code}']").get_by_role("link")
        join.scroll_into_view_if_needed()
        page.locator("#quick-name").fill("Finn")
        with held_press(page, join, watched=page.locator("#open-table-list")):
            open_public(other, "Gus", 3)
    expect(page).to_have_url(re.compile(rf"/play/{code}$"))
    expect(page.locator("#seat-list")).to_contain_text("Finn")
