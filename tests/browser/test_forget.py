"""A phone passed round the table: "Forget" leaves nothing of the game on it.

The start page's ✕ on a game used to take it off the list only: its edit
token stayed in localStorage and in the HttpOnly edit cookie, what was
typed in its drafts, rounds not yet sent in IndexedDB, and the service
worker's copies of its edit page and state in the cache. Now all of it
goes; the next person at the phone finds no way back into the game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LiveServer, NewPage
from helpers.tafel_phones import (
    create_game,
    open_once_online,
    save_stacks,
    wait_until_kept_offline,
)

# The Tafel's service worker is what these tests are about.
pytestmark = pytest.mark.service_worker

KEPT = """async (id) => {
  const found = [];
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key.includes(id) || (storage.getItem(key) || "").includes(id)) found.push(key);
    }
  }
  const cache = await caches.open("tafel-v1");
  for (const request of await cache.keys()) if (request.url.includes(id)) found.push(request.url);
  const waiting = await new Promise((resolve) => {
    const open = indexedDB.open("ligretto", 1);
    open.onupgradeneeded = () => open.result
      .createObjectStore("outbox", { keyPath: "id", autoIncrement: true })
      .createIndex("game", "game");
    open.onsuccess = () => {
      const get = open.result.transaction("outbox").objectStore("outbox").index("game").getAll(id);
      get.onsuccess = () => { resolve(get.result.length); open.result.close(); };
    };
  });
  if (waiting) found.push(`outbox: ${waiting}`);
  return found;
}"""


def _kept(page: Page, game: str) -> list[str]:
    found: list[str] = page.evaluate(KEPT, game)
    return found


def _cookies(page: Page, game: str) -> list[dict[str, Any]]:
    return [c for c in page.context.cookies() if game in c["name"]]  # type: ignore[misc]


def test_forget_leaves_nothing_of_the_game_on_the_phone(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page()
    link = create_game(page, live_server.url, ["Anna", "Ben"])
    game, token = page.url.split("/")[4], link.split("#t=")[1]
    wait_until_kept_offline(page)
    page.context.set_offline(True)  # a round that waits on the phone to be sent
    save_stacks(page, 0, {1: 3})
    expect(page.locator("table.rounds tbody tr.unsent")).to_have_count(1)
    page.locator(".stepper input").first.fill("7")  # a draft of the middle, typed
    before = _kept(page, game)
    assert "ligretto.tokens" in before and any("draft" in key for key in before), before
    assert any(key.startswith("outbox") for key in before), before
    assert any(key.startswith("http") for key in before), before  # the service worker's copies
    assert _cookies(page, game)
    page.context.set_offline(False)
    open_once_online(page, f"{live_server.url}/", "#my-games")
    item = page.locator("#my-games li").filter(has=page.locator(".game-forget"))
    expect(item).to_have_count(1)
    page.on("dialog", lambda dialog: dialog.accept())  # rounds not yet sent: asked first
    item.locator(".game-forget").click()
    expect(page.locator("#my-games li.game-item, #my-games li:has(.game-forget)")).to_have_count(0)
    for _ in range(50):
        if not _kept(page, game) and not _cookies(page, game):
            break
        page.wait_for_timeout(100)
    assert _kept(page, game) == []
    assert _cookies(page, game) == []
    # the edit page knows this phone no more: nowhere does the token show up
    page.goto(f"{live_server.url}/g/{game}/edit")
    expect(page).to_have_url(re.compile(rf"/g/{game}/edit"))
    assert token not in page.content()
