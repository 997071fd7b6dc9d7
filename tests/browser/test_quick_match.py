"""Quick match in the browser (issue 47): from /play one tap finds a table,
the page shows the wait counting down and can cancel it (the seat is given back)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot, serving
from ligretto.live.settings import TableSettings

# A long wait: the countdown is still running when the test looks.
SETTINGS = TableSettings(countdown=0.5, away_after=60.0, bot_pace=80.0, match_wait=300.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serving(PlayServer(tmp_path_factory.mktemp("quick-match"), SETTINGS))


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_the_wait_is_counted_down_and_can_be_cancelled(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONE, touch=True)
    page.goto(f"{server.url}/play?lang={lang}")
    page.locator("#quick-name").fill("Anna")
    page.locator("#quick-match").tap()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    wait = page.locator("#match-wait")
    expect(wait).to_be_visible()
    expect(page.locator("#seat-list")).to_contain_text("Anna")
    expect(page.locator("#match-left")).to_contain_text(re.compile(r"\b(2\d\d|300) s\b"))
    shoot(page, f"quick-match-{lang}-waiting")
    code = page.url.rsplit("/", 1)[1]
    page.locator("#match-cancel").tap()
    # Cancel gives the seat back: the match does not fill around Anna's
    # empty seat, and /play says she left.
    expect(page).to_have_url(re.compile(r"/play\?left=1$"))
    expect(page.locator("#left-note")).to_be_visible()
    seats = page.request.get(f"{server.url}/api/tables/{code}").json()["seats"]
    assert "Anna" not in [seat["name"] for seat in seats]
