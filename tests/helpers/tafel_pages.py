"""Filling in the Tafel's forms in a browser, for the page and accessibility tests."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from helpers.browser import LiveServer


def create_game(
    page: Page,
    server: LiveServer,
    names: list[str],
    *,
    rounds: int | None = None,
    cards: bool = False,
) -> None:
    page.goto(server.url + "/")
    if cards:
        page.get_by_label("Played with ordinary playing cards (up to 16 players)").check()
    rows = page.locator("#names input[name=player]")
    while rows.count() < len(names):
        page.get_by_role("button", name="Add player").click()
    for index, name in enumerate(names):
        rows.nth(index).fill(name)
    if rounds is not None:
        page.locator("input[name=mode][value=rounds]").check()
        page.locator("#rounds").fill(str(rounds))
    page.get_by_role("button", name="Create game").last.click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+/edit\b"))
    # The board's script has run (it marks the live stream open): a tap
    # before that would reach no handler (T2's Stop box filling in the 0).
    expect(page.locator("#live")).to_have_attribute("data-state", "live")


def enter_stacks(page: Page, caller: int | None, stacks: dict[int, int]) -> None:
    if caller is not None:
        page.locator(f"input[name=stop][value='{caller}']").check()
    for seat, count in stacks.items():
        page.locator(f"#stack-{seat}").fill(str(count))
    page.get_by_role("button", name="Save stacks").click()


def enter_middle(page: Page, middle: dict[int, int]) -> None:
    # The middle step follows the saved stacks; the save may still be on its way.
    page.locator("#middle-0").wait_for(timeout=30_000)
    for seat, count in middle.items():
        page.locator(f"#middle-{seat}").fill(str(count))
    page.get_by_role("button", name=re.compile(r"^Save round \d+$")).click()
    page.wait_for_url(re.compile(r"[?&]saved=\d+"))  # the board after the save
