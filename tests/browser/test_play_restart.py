"""The table page survives a server restart (issue 11): a person plays a few
cards against a bot, ``ligretto serve`` is stopped (SIGTERM) and started
again on the same port and data, and the open page reconnects by itself —
no reload — shows "Resuming…" in the countdown, and play goes on. The
screenshot of the resume countdown is ``test-artifacts/play-resuming.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers.browser import PHONE, NewPage, Shoot
from helpers.live_client import api
from helpers.logged_server import LoggedServer, running
from helpers.play_moves import play_moves

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoggedServer]:
    yield from running(tmp_path)


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
    play_moves(page, 4)
    page.evaluate("window.beforeRestart = true")  # gone if the page reloads

    server.stop()
    server.start()

    countdown = page.locator("#countdown")
    expect(countdown).to_contain_text("Resuming", timeout=20_000)
    shoot(page, "play-resuming")
    assert page.evaluate("window.beforeRestart === true")  # the same page, not reloaded
    expect(countdown).to_be_hidden(timeout=10_000)
    play_moves(page, 3)  # play goes on after the restart
    status, info = api("GET", f"{server.url}/api/tables/{created['code']}")
    assert status == 200, info
    assert (info["phase"], info["resuming"], info["round_no"]) == ("playing", False, 1)
    assert info["seats"][0]["connected"] is True
