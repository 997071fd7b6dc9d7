"""The offline board is the server's board: drawn on the phone from the same pieces.

Chromium at phone size against a live server. A game gets rounds over the
API, the edit page goes offline and more rounds are entered there; the
board the phone draws (status, cards or the final ranking, the rounds
table, turned from seven players, its legend, the entry form) is compared,
element by element and word by word, with the board the server draws once
the rounds have landed. Only what says "not sent yet" and the chart of
running totals (drawn by the server alone) are left out. The service
worker keeps every module of the offline board after one visit.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from helpers.browser import ARTIFACTS, LiveServer, NewPage, Shoot, screenshot
from helpers.tafel_phones import open_once_online, wait_until_kept_offline
from ligretto.web.rendering import STATIC_DIR

# The Tafel's service worker is what these tests are about.
pytestmark = pytest.mark.service_worker

PHONE_390: ViewportSize = {"width": 390, "height": 844}

# The board as a tree of (tag, attributes, children), text collapsed; the
# marks of rounds not sent yet, the chart, scripts and the form's version
# (the phone's forms carry none; nor does its board) are left out; a
# field counts with its value as shown.
SNAPSHOT = """
(selectors) => {
  const skipped = "script, template, .unsent-badge, .unsent-line, #chart-heading, .chart-box";
  function attributes(el) {
    const out = [];
    for (const { name, value } of el.attributes) {
      if (name === "data-local" || name === "data-version") continue;
      // A field's value and tick as the page shows them (typed, drawn or served).
      if (el.tagName === "INPUT" && (name === "value" || name === "checked")) continue;
      let v = value;
      if (name === "class") {
        v = value.split(/\\s+/).filter((c) => c && c !== "unsent").sort().join(" ");
        if (!v) continue;
      }
      out.push(`${name}=${v}`);
    }
    if (el.tagName === "INPUT" && el.name !== "version") out.push(`value=${el.value}`);
    if (el.type === "checkbox") out.push(`checked=${el.checked}`);
    return out.sort();
  }
  function walk(el) {
    const children = [];
    let text = "";
    const flush = () => {
      const s = text.replace(/\\s+/g, " ").trim();
      if (s) children.push(s);
      text = "";
    };
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) text += node.nodeValue;
      else if (node.nodeType === Node.ELEMENT_NODE && !node.matches(skipped)) {
        flush();
        children.push(walk(node));
      }
    }
    flush();
    return [el.tagName.toLowerCase(), attributes(el), children];
  }
  return Object.fromEntries(selectors.map((s) => [s, walk(document.querySelector(s))]));
}
"""
PARTS = ["#board-top", "#board-rest", "#entry"]


def first_difference(drawn: Any, served: Any, path: str = "") -> str | None:
    """Where two snapshots part first (for a readable failure), or None."""
    if isinstance(drawn, list) and isinstance(served, list):
        for index, (a, b) in enumerate(zip(drawn, served, strict=False)):
            if found := first_difference(a, b, f"{path}/{index}"):
                return found
        if len(drawn) != len(served):
            return f"{path}: {len(drawn)} parts drawn, {len(served)} served: {drawn} / {served}"
        return None
    return None if drawn == served else f"{path}: drawn {drawn!r}, served {served!r}"


def api_game(page: Page, server: LiveServer, setup: dict[str, Any], rounds: list[Any]) -> str:
    """A game made over the API with complete *rounds* ((stacks, middle) by seat); its edit link."""
    body: dict[str, Any] = page.request.post(server.url + "/api/games", data=setup).json()
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    url = f"{server.url}/api/games/{body['id']}/rounds"
    for number, (stacks, middle) in enumerate(rounds, start=1):
        assert page.request.post(url, data={"stacks": stacks}, headers=auth).ok
        assert page.request.put(f"{url}/{number}", data={"middle": middle}, headers=auth).ok
    return f"{server.url}/g/{body['id']}/edit#t={body['edit_token']}"


def enter(page: Page, stacks: list[int], middle: list[int] | None) -> None:
    """A round through the entry form: its stacks, then (unless None) its middle."""
    for seat, count in enumerate(stacks):
        if count == 0:
            page.locator(f"input[name=stop][value='{seat}']").check()
        else:
            page.locator(f"#stack-{seat}").fill(str(count))
    page.locator("form[data-entry=stacks] button.primary").click()
    expect(page.locator("#middle-0")).to_be_visible()
    if middle is not None:
        for seat, count in enumerate(middle):
            page.locator(f"#middle-{seat}").fill(str(count))
        page.locator("form[data-entry=middle] button.primary").click()
        expect(page.locator("form[data-entry=middle]")).to_have_count(0)


def go_offline(page: Page, edit_link: str) -> None:
    """Open the edit page, let the service worker keep it, and lose the network."""
    page.goto(edit_link)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_attribute("data-state", "offline")


def back_online(page: Page) -> None:
    """The network returns: what waited is sent and the server's board is shown."""
    page.context.set_offline(False)
    expect(page.locator(".message.ok.notice")).to_be_visible(timeout=15_000)
    expect(page.locator(".unsent-badge")).to_have_count(0)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")


Entered = tuple[list[int], list[int] | None]
"""A round by seat: its stacks, and its middle (None: it waits for it)."""

SEVEN = ["Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz", "Gerd"]
SEVEN_ROUNDS: list[Entered] = [
    ([0, 3, 5, 2, 4, 6, 1], [15, 10, 8, 9, 12, 7, 11]),
    ([4, 0, 2, 3, 5, 1, 6], [9, 16, 11, 8, 7, 12, 10]),
]
ROUNDS_GAME = {"players": ["Anna", "Ben", "Cleo", "Dana"], "mode": "rounds", "rounds": 3}
ROUNDS_PLAYED: list[Entered] = [([0, 3, 5, 2], [15, 10, 8, 9])]
ROUNDS_OFFLINE: list[Entered] = [([3, 0, 4, 6], [9, 14, 7, 5]), ([1, 2, 0, 5], None)]

# (the game, its rounds over the API, the rounds entered offline, the language)
CASES: dict[str, tuple[dict[str, Any], list[Entered], list[Entered], str]] = {
    # Seven players: the turned table; a round waits for its middle.
    "seven-players-turned": (
        {"players": SEVEN, "target": 999},
        SEVEN_ROUNDS[:1],
        [SEVEN_ROUNDS[1], ([2, 5, 0, 4, 3, 6, 1], None)],
        "en-GB",
    ),
    # A target reached offline: the final ranking with its trophy.
    "target-reached-ranking": (
        {"players": ["Anna", "Ben", "Cleo"], "target": 30},
        [([0, 3, 5], [15, 10, 8])],
        [([0, 2, 4], [20, 12, 9])],
        "en-GB",
    ),
    # Agreed rounds with playing cards and the row as storage: rounds left, the variant.
    "rounds-left-variant": (
        {**ROUNDS_GAME, "deck": "cards", "row_storage": True},
        ROUNDS_PLAYED,
        ROUNDS_OFFLINE,
        "en-GB",
    ),
    # The same in German and in Norwegian: the board's sentences and plurals.
    "rounds-left-german": (ROUNDS_GAME, ROUNDS_PLAYED, ROUNDS_OFFLINE, "de-DE"),
    "rounds-left-norwegian": (ROUNDS_GAME, ROUNDS_PLAYED[:0], ROUNDS_OFFLINE[:1], "nb-NO"),
}


@pytest.mark.parametrize("case", CASES)
def test_the_offline_board_equals_the_servers_board(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, case: str
) -> None:
    setup, online, offline, locale = CASES[case]
    page = new_page(PHONE_390, touch=True, locale=locale)
    go_offline(page, api_game(page, live_server, {"mode": "target", **setup}, online))
    for stacks, middle in offline:
        enter(page, stacks, middle)
    expect(page.locator(".unsent-badge")).to_have_count(len(offline))
    drawn = page.evaluate(SNAPSHOT, PARTS)
    shoot(page, f"phone-offline-board-{case}")
    back_online(page)
    served = page.evaluate(SNAPSHOT, PARTS)
    shoot(page, f"phone-served-board-{case}")
    for part in PARTS:
        assert first_difference(drawn[part], served[part]) is None, part
        assert drawn[part] == served[part]


def test_a_correction_drawn_offline_equals_the_servers_correction_page(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE_390, touch=True)
    go_offline(page, api_game(page, live_server, {"players": SEVEN}, SEVEN_ROUNDS))
    page.locator("a.round-link").nth(1).click()  # the last round: with its removal
    expect(page.locator("#entry-title")).to_have_text("Correct round 2")
    parts = ["form[data-entry=correct]", "section:has(> details form[data-entry=remove])"]
    drawn = page.evaluate(SNAPSHOT, parts)
    shoot(page, "phone-offline-correction")
    page.context.set_offline(False)
    open_once_online(page, page.url, "h1:text-is('Correct round 2')")
    served = page.evaluate(SNAPSHOT, parts)
    for part in parts:
        assert first_difference(drawn[part], served[part]) is None, part
        assert drawn[part] == served[part]


def test_a_round_to_check_offline_shows_the_servers_message(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page(PHONE_390, touch=True)
    go_offline(page, api_game(page, live_server, {"players": ["Anna", "Ben"]}, []))
    enter(page, [0, 3], None)
    page.locator("#middle-0").fill("14")
    page.locator("#middle-1").fill("2")  # fewer than 10 − 3: T3 asks to check it
    page.get_by_role("button", name="Save round 1").last.click()
    message = page.locator("form[data-entry=middle] #entry-errors.message.warn")
    expect(message).to_contain_text("Please check this round.")
    expect(message).to_contain_text("Every card that left a Ligretto stack")
    expect(message.locator("li")).to_have_text(["Ben"])
    message.get_by_role("button", name="Save anyway").click()
    expect(page.locator("form[data-entry=middle]")).to_have_count(0)
    expect(page.locator("#players .total")).to_have_text(["14", "\u22124"])


def test_every_offline_module_is_kept_by_the_service_worker(
    live_server: LiveServer, new_page: NewPage
) -> None:
    modules = sorted(path.name for path in STATIC_DIR.glob("js/offline/*.js"))
    assert modules
    page = new_page(PHONE_390, touch=True)
    page.goto(api_game(page, live_server, {"players": ["Anna", "Ben"]}, []))
    wait_until_kept_offline(page)
    script = """async (names) => {
      const cache = await caches.open("tafel-v1");
      const kept = (await cache.keys()).map((request) => new URL(request.url));
      return names.filter((name) => !kept.some(
        (url) => url.pathname === "/static/js/offline/" + name && url.searchParams.has("v")));
    }"""
    missing = modules
    for _ in range(50):
        missing = page.evaluate(script, modules)
        if not missing:
            break
        page.wait_for_timeout(100)
    assert missing == []
    # Offline after this one visit, the board still takes a round.
    page.context.set_offline(True)
    page.reload()
    enter(page, [0, 3], [14, 12])
    expect(page.locator("#live")).to_have_text("1 round waiting to be sent · offline")
    expect(page.locator("#players .total")).to_have_text(["14", "6"])
    page.evaluate("window.scrollTo(0, 0)")  # what the phone shows first: the board's top
    screenshot(page, ARTIFACTS / "phone-390-offline-board.png")
