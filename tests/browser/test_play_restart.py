"""The table page survives a server restart (issue 11): a person plays a few
cards against a bot, ``ligretto serve`` is stopped (SIGTERM) and started
again on the same port and data, and the open page reconnects by itself —
no reload — shows "Resuming…" in the countdown, and play goes on. The
screenshot of the resume countdown is ``test-artifacts/play-resuming.png``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import PHONE, NewPage, Shoot
from helpers.live_client import api
from helpers.logged_server import LoggedServer, running

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoggedServer]:
    yield from running(tmp_path)


def play_cards(page: Page, moves: int) -> None:
    """Click playable cards (or turn three) like a quick player, ``moves`` times."""
    done = 0
    deadline = time.monotonic() + 30
    while done < moves:
        assert time.monotonic() < deadline, f"only {done} moves in 30 s"
        if page.locator("#countdown").is_visible():
            page.wait_for_timeout(100)
            continue
        before = page.locator("#mine").inner_html()
        card = page.locator("#mine button.card.can:not(.flying):not([data-source=hand])")
        try:
            if card.count():
                card.first.click(timeout=1000)
                target = page.locator("#middle .card.target")
                if target.count():
                    target.first.click(timeout=1000)
            else:
                page.keyboard.press("Space")  # turn three (R3)
        except Exception:  # the view changed under the click: look again
            continue
        try:  # the table answered: the person's own cards changed
            page.wait_for_function(
                "before => document.querySelector('#mine').innerHTML !== before",
                arg=before,
                timeout=3000,
            )
        except Exception:
            continue
        done += 1


def test_the_table_page_reconnects_and_resumes_after_a_restart(
    server: LoggedServer, new_page: NewPage, shoot: Shoot
) -> None:
    status, created = api(
        "POST",
        f"{server.url}/api/tables",
        {
            "seats": 2,
            "name": "Anna",
            "end": {"mode": "rounds", "rounds": 2},
            "bots": [{"seat": 1, "strategy": "stack-first", "level": "easy"}],
        },
    )
    assert status == 201, created
    page = new_page(PHONE)
    page.goto(f"{created['page_url']}#t={created['host_token']}")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#my-row .card").first).to_be_visible()
    play_cards(page, 4)
    page.evaluate("window.beforeRestart = true")  # gone if the page reloads

    server.stop()
    server.start()

    countdown = page.locator("#countdown")
    expect(countdown).to_contain_text("Resuming", timeout=20_000)
    shoot(page, "play-resuming")
    assert page.evaluate("window.beforeRestart === true")  # the same page, not reloaded
    expect(countdown).to_be_hidden(timeout=10_000)
    play_cards(page, 3)  # play goes on after the restart
    status, info = api("GET", f"{server.url}/api/tables/{created['code']}")
    assert status == 200, info
    assert (info["phase"], info["resuming"], info["round_no"]) == ("playing", False, 1)
    assert info["seats"][0]["connected"] is True
