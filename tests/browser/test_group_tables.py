"""A group's host opens an online table from the group page (issue 16):
the button leads to the table form with the group picked, a quick game
starts, and the group lists the table's game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot, serving


@pytest.fixture(scope="module")
def group_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serving(PlayServer(tmp_path_factory.mktemp("group-play-data")))


def test_the_group_button_leads_to_a_table_whose_game_joins_the_group(
    group_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    created = page.request.post(
        group_server.url + "/api/groups", data={"name": "Thursday table", "members": ["Anna"]}
    ).json()
    page.goto(created["edit_url"])
    button = page.get_by_role("button", name="Play online with this group")
    button.scroll_into_view_if_needed()
    shoot(page, "group-phone-play-online-button")
    button.click()
    # The form, the group picked; its token has left the address.
    expect(page).to_have_url(re.compile(r"/play$"))
    note = page.locator("#group-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Recording into group Thursday table")
    expect(page.locator("#quick-game input[name=group]")).to_have_value(created["id"])
    expect(page.locator("#quick-game input[name=group_token]")).to_have_value(created["token"])
    shoot(page, "play-phone-form-with-group")
    page.locator("#quick-name").fill("Anna")
    page.get_by_role("button", name="Quick game against 3 bots").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    # The first round is dealt: the table's game is open and in the group.
    expect(page.locator("#my-row .card")).to_have_count(3)
    game = None
    for _ in range(100):
        game = page.request.get(f"{group_server.url}/api/tables/{code}").json()["tafel_game"]
        if game:
            break
        page.wait_for_timeout(100)
    assert game, "the table's Tafel game never opened"
    group_page = new_page(PHONE)
    group_page.goto(f"{group_server.url}/groups/{created['id']}?season=all#history")
    history = group_page.locator("#history .game-history li")
    expect(history).to_have_count(1)
    expect(history.first.locator("a")).to_have_attribute("href", re.compile(rf"/g/{game}$"))
    expect(history.first).to_contain_text("Anna")
    shoot(group_page, "group-phone-online-game-listed")
