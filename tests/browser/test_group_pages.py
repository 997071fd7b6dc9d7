"""A group on a phone (Chromium at 360×740): create it, play two short games, read the league.

Screenshots land in test-artifacts/ (light and dark) for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LiveServer
from helpers.tafel_pages import enter_middle, enter_stacks

pytestmark = pytest.mark.browser

NewPage = Callable[..., Page]
Shoot = Callable[[Page, str], Path]


def assert_no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"  # type: ignore[index]


def play_one_round_game(
    page: Page,
    group_url: str,
    players: list[str],
    caller: int,
    stacks: dict[int, int],
    middle: dict[int, int],
) -> None:
    page.goto(group_url)
    for name in players:
        page.locator("#play").get_by_label(name, exact=True).check()
    page.locator("#play input[name=mode][value=rounds]").check()
    page.locator("#group-rounds").fill("1")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+/edit\b"))
    enter_stacks(page, caller, stacks)
    enter_middle(page, middle)


def test_a_group_plays_two_games_and_shows_its_league_on_a_phone(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="New group").click()
    page.get_by_label("Name of the group").fill("Thursday table")
    page.get_by_label("Members, one name per line").fill("Anna\nBen\nCleo")
    shoot(page, "phone-group-new")
    page.get_by_role("button", name="Create group").click()
    expect(page).to_have_url(re.compile(r"/groups/[\w-]+/edit$"))  # the token left the address
    group_url = page.url
    token = page.evaluate("JSON.parse(localStorage.getItem('ligretto.group-tokens'))")
    assert list(token) == [group_url.split("/")[-2]]
    expect(page.locator("#group-edit-link")).to_have_value(re.compile(r"/edit#t=[\w-]+$"))
    play_one_round_game(page, group_url, ["Anna", "Ben"], 0, {1: 4}, {0: 20, 1: 10})
    play_one_round_game(page, group_url, ["Ben", "Cleo"], 0, {1: 3}, {0: 22, 1: 8})
    page.goto(group_url + "?season=all")
    rows = page.locator("table.league tbody th")
    expect(rows).to_have_text(["Anna", "Ben", "Cleo"])
    expect(page.locator(".game-history li")).to_have_count(2)
    expect(page.locator("#league svg.chart polyline")).to_have_count(3)
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-group-league")
    page.locator("table.league").get_by_role("link", name="Ben").click()
    expect(page.get_by_role("heading", name="Ben", exact=True)).to_be_visible()
    expect(page.locator("svg.chart")).to_have_count(2)
    expect(page.locator("dl.numbers")).to_contain_text("Wins")
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-group-member")
    dark = new_page(color_scheme="dark", locale="de-DE")
    dark.goto(page.url + "?lang=de")
    expect(dark.get_by_role("heading", name="Direkter Vergleich")).to_be_visible()
    assert_no_horizontal_scroll(dark)
    shoot(dark, "phone-group-member-dark-de")
    dark.goto(group_url.replace("/edit", "") + "?season=all&lang=nb")
    expect(dark.get_by_role("heading", name=re.compile("Tabell"))).to_be_visible()
    assert_no_horizontal_scroll(dark)
    shoot(dark, "phone-group-league-dark-nb")
