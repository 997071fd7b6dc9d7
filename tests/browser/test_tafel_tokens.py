"""The edit token stays on the phone: never in a server's log, never in a Referer.

A whole evening through every page of the Tafel, in Chromium against the
real ``ligretto serve`` with its access log: create, stacks, middle, a
correction, the history, the watch page, a second scorekeeper's link,
removing a round, finishing, scoring, the start page's list. Every request
the browser makes is recorded with its ``Referer``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Request, expect

from helpers.browser import NewPage, Shoot
from helpers.logged_server import LoggedServer, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    folder = tmp_path_factory.mktemp("tafel-logged")
    yield from running(folder)


def test_a_whole_game_never_sends_the_edit_token_in_an_address_or_referer(
    server: LoggedServer, new_page: NewPage, shoot: Shoot
) -> None:
    sent: list[tuple[str, str]] = []

    def record(request: Request) -> None:
        sent.append((request.url, request.headers.get("referer", "")))

    page = new_page()
    page.on("request", record)
    page.goto(server.url + "/")
    for index, name in enumerate(["Anna", "Ben", "Cleo"]):
        page.locator("#names input[name=player]").nth(index).fill(name)
    page.locator("input[name=mode][value=rounds]").check()
    page.locator("#rounds").fill("2")
    page.get_by_role("button", name="Create game").last.click()
    expect(page.locator("#share-title")).to_be_visible()
    # The page takes the token out of the address bar at once: it is kept on the phone.
    expect(page).not_to_have_url(re.compile("#t="))
    edit_link = page.locator("#edit-link").input_value()
    token = edit_link.split("#t=")[1]
    assert len(token) >= 20
    assert token not in page.url

    for number, caller, stacks, middle in (
        (1, 0, {1: 2, 2: 6}, {0: 15, 1: 14, 2: 5}),
        (2, 1, {0: 1, 2: 3}, {0: 12, 1: 15, 2: 9}),
    ):
        page.locator(f"input[name=stop][value='{caller}']").check()
        for seat, count in stacks.items():
            page.locator(f"#stack-{seat}").fill(str(count))
        page.get_by_role("button", name="Save stacks").click()
        for seat, count in middle.items():
            page.locator(f"#middle-{seat}").fill(str(count))
        page.get_by_role("button", name=re.compile(r"^Save round \d+$")).click()
        # The whole sentence: the board before it already says "Round 2:
        # stacks saved.", and a click sent before the round's own board
        # came would race the save's answer.
        expect(page.locator(".message.ok")).to_contain_text(f"Round {number} saved.")
    page.get_by_role("link", name="Correct round 1").click()
    page.locator("#middle-1").fill("16")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 1 corrected.")
    page.get_by_role("link", name="Change history").click()
    expect(page.locator(".history li").first).to_contain_text("Round 1 corrected")
    page.get_by_role("link", name="Back to the board").click()
    page.get_by_role("link", name="Correct or remove the last round").click()
    page.get_by_text("Remove this round from the board").click()
    page.get_by_role("button", name="Remove round 2").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 2 removed.")
    page.locator("input[name=stop][value='2']").check()
    page.locator("#stack-0").fill("4")
    page.locator("#stack-1").fill("5")
    page.get_by_role("button", name="Save stacks").click()
    for seat, count in {0: 8, 1: 9, 2: 13}.items():
        page.locator(f"#middle-{seat}").fill(str(count))
    page.get_by_role("button", name="Save round 2").click()
    page.get_by_role("button", name="Finish").click()
    page.get_by_role("button", name="Score").click()
    expect(page.locator(".ranking li")).to_have_count(3)

    # Watchers, a second scorekeeper and the start page.
    watcher = new_page()
    watcher.on("request", record)
    watcher.goto(page.locator("#watch-link").input_value())
    expect(watcher.locator("#live")).to_have_attribute("data-state", "live")
    watcher.get_by_role("link", name="Change history").click()
    second = new_page()
    second.on("request", record)
    second.goto(edit_link)
    expect(second.locator("#no-token")).to_be_hidden()
    assert second.locator("#edit-link").input_value() == edit_link
    expect(second.locator("#live")).to_have_attribute("data-state", "live")
    page.goto(server.url + "/")
    # The board's first refresh, asked once its live stream is open, is
    # among what is checked.
    with page.expect_request(lambda request: "/board" in request.url):
        page.locator("#my-games li").first.get_by_role("link").click()
    expect(page.locator(".ranking li")).to_have_count(3)

    assert len(sent) > 40
    for url, referer in sent:
        assert token not in url, url
        assert token not in referer, (url, referer)
    log = server.log()
    assert "POST /g/" in log and "/edit/stacks" in log  # the log is the access log
    assert token not in log

    # An old link with the token in its path is answered once, and moved
    # out of the address at once: the browser never asks for it again.
    before = len(sent)
    old = new_page()
    old.on("request", record)
    game = re.search(r"/g/([\w-]+)/", edit_link)
    assert game
    old.goto(f"{server.url}/g/{game.group(1)}/edit/{token}")
    expect(old.locator("#no-token")).to_be_hidden()
    assert token not in old.url
    later = [url for url, _ in sent[before:] if token in url]
    assert len(later) == 1  # the old link itself, nothing after it
    # Even that one request leaves no token in the access log.
    assert token not in server.log()
    assert f"GET /g/{game.group(1)}/edit/[token] HTTP/1.1" in server.log()
