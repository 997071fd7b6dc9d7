"""A Tafel game on phones that may go offline: the steps the conflict,
offline and undo tests share (language-independent selectors, so a test may
run its page in any of the three languages)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def create_game(page: Page, base: str, names: list[str]) -> str:
    """Create a game of *names* on the start page; its edit link once the board is live."""
    page.goto(base + "/")
    rows = page.locator("#names input[name=player]")
    for index, name in enumerate(names):
        rows.nth(index).fill(name)
    page.get_by_role("button", name="Create game").last.click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+/edit\b"))
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    return page.locator("#edit-link").input_value()


def wait_until_kept_offline(page: Page) -> None:
    """Wait until the service worker holds this page and the game's state."""
    script = """async () => {
      await navigator.serviceWorker.ready;
      const cache = await caches.open("tafel-v1");
      const id = location.pathname.split("/")[2];
      return Boolean(await cache.match(location.origin + location.pathname))
        && Boolean(await cache.match(location.origin + "/api/games/" + id));
    }"""
    for _ in range(100):
        if page.evaluate(script):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker did not keep the board")


def open_once_online(page: Page, url: str, ready: str) -> None:
    """Open *url* after the network came back, until the server's page (*ready*) shows.

    ``set_offline(False)`` reaches the page before it reaches the service
    worker; a navigation in between is answered by the worker's offline
    copy ("Offline", or the kept board). A phone at the table would reload:
    so does this, up to 20 times, checking each time for the page's mark.
    """
    for _ in range(20):
        page.goto(url)
        if page.locator(ready).count():
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"{url} did not come from the server: {ready} not found")


def save_stacks(page: Page, caller: int, stacks: dict[int, int]) -> None:
    """Tick who called Ligretto Stop, type the stacks, save: the middle step shows (T2)."""
    page.locator(f"input[name=stop][value='{caller}']").check()
    for seat, count in stacks.items():
        page.locator(f"#stack-{seat}").fill(str(count))
    page.locator("form[data-entry=stacks] button.primary").click()
    expect(page.locator("#middle-0")).to_be_visible(timeout=10_000)


def enter_round(page: Page, caller: int, stacks: dict[int, int], middle: dict[int, int]) -> None:
    """Both steps of a round: stacks, then the middle."""
    save_stacks(page, caller, stacks)
    for seat, count in middle.items():
        page.locator(f"#middle-{seat}").fill(str(count))
    page.locator("form[data-entry=middle] button.primary").click()
