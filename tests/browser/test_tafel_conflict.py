"""Two phones, one round: a conflict settled with a safe default and a confirmation.

Chromium at phone size against a live server, two browser contexts: one
phone enters round 1 offline while the other enters round 1 online. Back
online, the first phone's conflict screen says that both phones entered
round 1 and recommends keeping one version (never both, which would count
one real round twice). Each of the three choices leads to the totals it
names, the server holds exactly the rounds it says, and the board confirms
what it kept.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LiveServer, NewPage, Shoot
from helpers.tafel_phones import create_game, enter_round, wait_until_kept_offline

# The Tafel's service worker is what these tests are about.
pytestmark = pytest.mark.service_worker


def server_rounds(page: Page, base: str, game: str) -> list[Any]:
    rounds = page.request.get(f"{base}/api/games/{game}").json()["rounds"]
    return [(r["stacks"], r["middle"]) for r in rounds]


MINE = ({"Anna": 0, "Ben": 4}, {"Anna": 14, "Ben": 16})  # Anna +14, Ben +8
THEIRS = ({"Anna": 0, "Ben": 5}, {"Anna": 20, "Ben": 11})  # Anna +20, Ben +1

CHOICES = {
    # choice: (button, totals, rounds on the server, confirmation)
    "mine": (
        "Keep mine (replace theirs)",
        ["14", "8"],
        [MINE],
        "Kept your round 1. The other phone's round 1 was discarded.",
    ),
    "theirs": (
        "Keep theirs (discard mine)",
        ["20", "1"],
        [THEIRS],
        "Kept the other phone's round 1. Your round 1 was discarded.",
    ),
    "both": (
        "Keep both: add mine after theirs",
        ["34", "9"],
        [THEIRS, MINE],
        "Kept the other phone's round 1. Yours follows as round 2.",
    ),
}


@pytest.mark.parametrize("choice", list(CHOICES))
def test_the_same_round_on_two_phones_recommends_one_and_each_choice_does_what_it_says(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, choice: str
) -> None:
    label, totals, kept, confirmation = CHOICES[choice]
    page = new_page()
    edit_link = create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    enter_round(page, 0, {1: 4}, {0: 14, 1: 16})
    expect(page.locator("table.rounds tbody tr.unsent")).to_have_count(1)
    expect(page.locator(".unsent-line")).to_have_text(
        "Saved on this phone. It is sent when the connection is back."
    )
    # The second phone, online, enters its own round 1 meanwhile.
    second = new_page()
    second.goto(edit_link)
    enter_round(second, 0, {1: 5}, {0: 20, 1: 11})
    expect(second.locator(".message.ok")).to_contain_text("Round 1 saved.")

    page.context.set_offline(False)
    panel = page.locator("#sync")
    expect(panel).to_contain_text("Another phone changed this game", timeout=15_000)
    expect(panel).to_contain_text(
        "Both phones entered round 1. If they are the same real round, keep only one version"
    )
    expect(panel.locator(".conflict-side").first).to_contain_text("Anna +20, Ben +1")
    expect(panel.locator(".conflict-side.mine")).to_contain_text("Anna +14, Ben +8")
    # Online now: the board no longer says it waits for the connection.
    expect(page.locator(".unsent-line")).to_contain_text("not sent: another phone changed")
    # Three choices; the recommended one keeps one version, never both.
    buttons = panel.locator("[data-sync]")
    expect(buttons).to_have_count(3)
    expect(panel.locator("button.primary")).to_have_count(1)
    expect(panel.locator("button.primary")).to_have_text("Keep mine (replace theirs)")
    expect(panel.locator('[data-sync="keep-both"]')).not_to_have_class(re.compile(r"\bprimary\b"))
    if choice == "mine":
        shoot(page, "phone-conflict-same-round")

    panel.get_by_role("button", name=label).click()
    expect(page.locator("#sync .message.ok")).to_have_text(confirmation, timeout=15_000)
    expect(page.locator("#players .total")).to_have_text(totals)
    expect(page.locator("table.rounds tbody tr")).to_have_count(len(kept))
    expect(page.locator("table.rounds tbody tr.unsent")).to_have_count(0)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    assert server_rounds(page, live_server.url, game) == kept
    # The other phone follows: the same board.
    expect(second.locator("#players .total")).to_have_text(totals, timeout=10_000)
    # Said once: the next visit of the board does not repeat it.
    page.reload()
    expect(page.locator("#players .total")).to_have_text(totals)
    expect(page.locator("#sync .message.ok")).to_have_count(0)


def test_keep_mine_with_only_its_stacks_takes_the_place_of_their_whole_round(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page()
    edit_link = create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    page.locator("input[name=stop][value='1']").check()
    page.locator("#stack-0").fill("6")
    page.locator("form[data-entry=stacks] button.primary").click()
    expect(page.locator("#middle-0")).to_be_visible()
    second = new_page()
    second.goto(edit_link)
    enter_round(second, 0, {1: 5}, {0: 20, 1: 11})
    expect(second.locator(".message.ok")).to_contain_text("Round 1 saved.")

    page.context.set_offline(False)
    panel = page.locator("#sync")
    expect(panel).to_contain_text("Both phones entered round 1.", timeout=15_000)
    expect(panel.locator(".conflict-side.mine")).to_contain_text("Anna: stack 6, Ben: stack 0")
    # Offline again while deciding: the page says where the choice goes.
    note = panel.locator("[data-conflict-offline]")
    expect(note).to_be_hidden()
    page.context.set_offline(True)
    expect(note).to_be_visible()
    expect(note).to_have_text(
        "This phone is offline now: your choice is kept on it and sent when the connection is back."
    )
    page.context.set_offline(False)
    expect(note).to_be_hidden()
    panel.get_by_role("button", name="Keep mine (replace theirs)").click()
    expect(page.locator("#sync .message.ok")).to_have_text(
        "Kept your round 1. The other phone's round 1 was discarded.", timeout=15_000
    )
    # Their round went, mine waits for its middle: one round 1, not two.
    assert server_rounds(page, live_server.url, game) == [({"Anna": 6, "Ben": 0}, None)]
    expect(page.locator("#middle-0")).to_be_visible()
    expect(page.locator("#players .total")).to_have_text(["0", "0"])
