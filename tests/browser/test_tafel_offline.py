"""Scoring without a network: the Tafel's edit page at a table where the signal comes and goes.

Chromium at phone size against a live server. Rounds entered offline are
kept on the phone, shown at once as "not sent yet", survive a reload while
offline, and land in order when the connection returns; another phone's
round meanwhile becomes a conflict that the scorekeeper settles without
losing either round. The same with the server stopped and started again
instead of the browser going offline. The phone's rules (rules.js) pass the
shared test vectors generated from the Python domain.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import ARTIFACTS, LiveServer, NewPage, Shoot, screenshot
from helpers.logged_server import LoggedServer, running
from helpers.tafel_phones import create_game, enter_round, save_stacks, wait_until_kept_offline
from helpers.tafel_vectors import VECTORS

# The Tafel's service worker is what these tests are about.
pytestmark = pytest.mark.service_worker

RUN_VECTORS = """
async (vectors) => {
  const R = await import("/static/js/rules.js");
  const results = [];
  for (const v of vectors) {
    const game = {
      players: v.game.players, mode: v.game.mode,
      target: v.game.mode === "target" ? (v.game.target ?? 99) : null,
      agreed_rounds: v.game.agreed_rounds ?? null, row_storage: v.game.row_storage ?? false,
      closed: false, scored: false, rounds: [],
    };
    const got = [];
    for (const step of v.steps) {
      try {
        if (step.op === "open") R.openRound(game, step.stacks);
        else if (step.op === "complete") {
          R.completeRound(game, step.n, step.middle, step.confirm ?? false);
        } else if (step.op === "correct") {
          R.correctRound(game, step.n, {
            stacks: step.stacks ?? null,
            middle: step.middle ?? null,
            confirm: step.confirm ?? false,
          });
        }
        else if (step.op === "remove") R.removeLastRound(game, step.n ?? null);
        else if (step.op === "finish") R.finish(game);
        else if (step.op === "score") R.score(game);
      } catch (error) {
        if (!(error instanceof R.RuleError)) throw error;
        got.push({ error: error.code });
        continue;
      }
      const d = R.derive(game);
      got.push({
        error: null, totals: d.totals, ranks: d.ranks, running: d.running, status: d.status,
        winners: d.winners, decided_after: d.decidedAfter, pending: d.pending,
        accepts_new_round: d.acceptsNewRound, complete_rounds: d.completeRounds,
        closed: game.closed, scored: game.scored,
        points: game.rounds.map(
          (r) => (r.middle ? r.middle.map((m, s) => R.points(m, r.stacks[s])) : null)),
      });
    }
    results.push(got);
  }
  return results;
}
"""


def unsent_rows(page: Page) -> Any:
    return page.locator("table.rounds tbody tr.unsent")


def test_the_shared_rule_vectors_pass_in_the_pages_javascript(
    live_server: LiveServer, new_page: NewPage
) -> None:
    vectors = json.loads(VECTORS.read_text())
    page = new_page()
    page.goto(live_server.url + "/")
    results = page.evaluate(RUN_VECTORS, vectors)
    for vector, got in zip(vectors, results, strict=True):
        assert got == vector["expect"], vector["name"]
    assert sum(len(v["steps"]) for v in vectors) > 200


def test_two_rounds_offline_survive_a_reload_and_land_in_order(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    create_game(page, live_server.url, ["Anna", "Ben", "Cleo"])
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_text("offline")
    enter_round(page, 0, {1: 2, 2: 6}, {0: 15, 1: 14, 2: 5})  # 15, 10, −7
    expect(page.locator("#live")).to_have_text("1 round waiting to be sent · offline")
    enter_round(page, 1, {0: 1, 2: 3}, {0: 12, 1: 15, 2: 9})  # 10, 15, 3
    expect(page.locator("#live")).to_have_text("2 rounds waiting to be sent · offline")
    expect(unsent_rows(page)).to_have_count(2)
    expect(page.locator("#players .total")).to_have_text(["25", "25", "\u22124"])
    expect(page.locator("#status")).to_contain_text("Anna & Ben share the lead.")
    expect(page.get_by_role("button", name="Save stacks")).to_be_visible()  # round 3 next
    # Typed but not saved: a draft survives the reload too.
    page.locator("#stack-2").fill("7")
    shoot(page, "phone-offline-two-rounds-waiting")
    page.reload()
    expect(unsent_rows(page)).to_have_count(2)
    expect(unsent_rows(page).first).to_contain_text("not sent yet")
    expect(page.locator("#players .total")).to_have_text(["25", "25", "\u22124"])
    expect(page.locator("#stack-2")).to_have_value("7")
    expect(page.locator("#live")).to_have_text("2 rounds waiting to be sent · offline")
    shoot(page, "phone-offline-after-reload")
    # What the phone shows scrolled down: the indicator stays in view.
    screenshot(page, ARTIFACTS / "phone-offline-viewport.png")

    page.context.set_offline(False)
    expect(page.locator(".message.ok")).to_contain_text("Round 2 saved.", timeout=15_000)
    expect(unsent_rows(page)).to_have_count(0)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    expect(page.locator("#players .total")).to_have_text(["25", "25", "\u22124"])
    expect(page.locator("#stack-2")).to_have_value("7")  # the draft of round 3 stays
    watcher = new_page()
    watcher.goto(page.locator("#watch-link").input_value())
    expect(watcher.locator("table.rounds tbody tr")).to_have_count(2)
    expect(watcher.locator("#players .total")).to_have_text(["25", "25", "\u22124"])
    history = watcher.request.get(f"{live_server.url}/api/games/{page.url.split('/')[4]}/history")
    actions = [entry["action"] for entry in history.json()]
    assert actions[-4:] == ["open_round", "complete_round", "open_round", "complete_round"]


def test_a_round_from_another_phone_meanwhile_is_a_conflict_settled_without_loss(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    edit_link = create_game(page, live_server.url, ["Anna", "Ben"])
    enter_round(page, 0, {1: 3}, {0: 14, 1: 12})  # online: 14, 6
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    enter_round(page, 1, {0: 4}, {0: 9, 1: 16})  # offline: 1, 16
    expect(unsent_rows(page)).to_have_count(1)
    # Meanwhile a second scorekeeper enters round 2 online.
    second = new_page()
    second.goto(edit_link)
    enter_round(second, 0, {1: 5}, {0: 20, 1: 11})  # 20, 1
    expect(second.locator(".message.ok")).to_contain_text("Round 2 saved.")

    page.context.set_offline(False)
    panel = page.locator("#sync")
    expect(panel).to_contain_text("Another phone changed this game", timeout=15_000)
    expect(page.locator("#live")).to_have_text("conflict: please decide")
    expect(panel.locator(".conflict-side").first).to_contain_text("Anna +20, Ben +1")
    expect(panel.locator(".conflict-side.mine")).to_contain_text("Anna +1, Ben +16")
    shoot(page, "phone-offline-conflict")
    # Both phones entered a round 2: the page recommends keeping one of
    # them; keeping both is there, for a table that really played both.
    expect(panel).to_contain_text("Both phones entered round 2.")
    expect(panel.locator("button.primary")).to_have_text("Keep mine (replace theirs)")
    page.get_by_role("button", name="Keep both: add mine after theirs").click()
    expect(page.locator(".message.ok.notice")).to_contain_text("Round 3 saved.", timeout=15_000)
    expect(page.locator("#sync .message.ok")).to_have_text(
        "Kept the other phone's round 2. Yours follows as round 3."
    )
    expect(page.locator("table.rounds tbody tr")).to_have_count(3)
    expect(page.locator("#players .total")).to_have_text(["35", "23"])  # 14+20+1, 6+1+16
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    shoot(page, "phone-offline-conflict-settled")


@pytest.fixture
def stoppable(tmp_path: Path) -> Iterator[LoggedServer]:
    yield from running(tmp_path)


def test_the_server_stopped_and_started_again_loses_nothing(
    stoppable: LoggedServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    edit_link = create_game(page, stoppable.url, ["Anna", "Ben"])
    wait_until_kept_offline(page)
    stoppable.stop()
    expect(page.locator("#live")).to_have_text("offline", timeout=10_000)
    enter_round(page, 0, {1: 2}, {0: 15, 1: 13})  # 15, 9
    expect(page.locator("#live")).to_have_text("1 round waiting to be sent · offline")
    expect(unsent_rows(page)).to_have_count(1)
    page.reload()  # the server is still down: the phone's copy answers
    expect(unsent_rows(page)).to_have_count(1, timeout=10_000)
    expect(page.locator("#players .total")).to_have_text(["15", "9"], timeout=10_000)
    shoot(page, "phone-server-down-round-waiting")
    stoppable.start()
    # The live connection comes back by itself and sends what waits.
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.", timeout=20_000)
    expect(unsent_rows(page)).to_have_count(0)
    other = new_page()
    other.goto(edit_link)
    expect(other.locator("#players .total")).to_have_text(["15", "9"])


def test_undo_after_a_save_takes_it_back_and_the_watch_page_follows(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    create_game(page, live_server.url, ["Anna", "Ben"])
    watcher = new_page()
    watcher.goto(page.locator("#watch-link").input_value())
    enter_round(page, 0, {1: 3}, {0: 14, 1: 12})  # 14, 6
    bar = page.locator("form[data-undo].toast")
    expect(bar).to_contain_text("Round 1 saved.")
    expect(watcher.locator("#players .total")).to_have_text(["14", "6"])
    shoot(page, "phone-undo-bar")
    bar.get_by_role("button", name="Undo").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 1: last change undone.")
    expect(page.locator("#middle-0")).to_be_visible()  # waiting for the middle again
    expect(page.locator("#players .total")).to_have_text(["0", "0"])
    expect(watcher.locator("#players .total")).to_have_text(["0", "0"])
    expect(watcher.locator("#status")).to_contain_text("Round 1: waiting for the middle")
    # The bar goes by itself after a few seconds; there is no Undo of the Undo.
    expect(page.locator("form[data-undo]")).to_have_count(0)


def test_corrections_and_removals_offline_wait_and_land_in_order(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    create_game(page, live_server.url, ["Anna", "Ben"])
    enter_round(page, 0, {1: 3}, {0: 14, 1: 12})  # 14, 6
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    enter_round(page, 1, {0: 2}, {0: 10, 1: 15})  # 6, 15
    expect(page.locator(".message.ok")).to_contain_text("Round 2 saved.")
    wait_until_kept_offline(page)
    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_text("offline")
    # Round 1's correction page was never opened: the kept board draws it.
    page.locator("table.rounds tbody tr").first.get_by_role("link").click()
    expect(page.locator("#entry-title")).to_have_text("Correct round 1")
    expect(page.locator("#middle-1")).to_have_value("12")
    page.locator("#middle-1").fill("16")  # Ben: 16 − 6 = 10
    page.get_by_role("button", name="Save round 1").last.click()
    expect(page.locator("#live")).to_have_text("1 round waiting to be sent · offline")
    expect(page.locator("#players .total")).to_have_text(["20", "25"])
    expect(unsent_rows(page)).to_have_count(1)
    # Then round 2 goes, also offline.
    page.locator("table.rounds tbody tr").nth(1).get_by_role("link").click()
    expect(page.locator("#entry-title")).to_have_text("Correct round 2")
    # As on the correction page, the removal is behind its summary.
    page.get_by_text("Remove this round from the board").click()
    page.get_by_role("button", name="Remove round 2").click()
    expect(page.locator("table.rounds tbody tr")).to_have_count(1)
    expect(page.locator("#players .total")).to_have_text(["14", "10"])
    expect(page.locator("#live")).to_have_text("2 rounds waiting to be sent · offline")
    # An entry just kept can be undone while it waits: the removal comes back.
    page.locator(".undo-bar.toast").get_by_role("button", name="Undo").click()
    expect(page.locator("table.rounds tbody tr")).to_have_count(2)
    expect(page.locator("#players .total")).to_have_text(["20", "25"])
    page.locator("table.rounds tbody tr").nth(1).get_by_role("link").click()
    # As on the correction page, the removal is behind its summary.
    page.get_by_text("Remove this round from the board").click()
    page.get_by_role("button", name="Remove round 2").click()
    expect(page.locator("#players .total")).to_have_text(["14", "10"])
    shoot(page, "phone-offline-correction-and-removal")
    page.context.set_offline(False)
    expect(page.locator(".message.ok")).to_contain_text("Round 2 removed.", timeout=15_000)
    expect(unsent_rows(page)).to_have_count(0)
    expect(page.locator("#players .total")).to_have_text(["14", "10"])
    game = page.url.split("/")[4]
    history = page.request.get(f"{live_server.url}/api/games/{game}/history").json()
    assert [h["action"] for h in history[-2:]] == ["correct_round", "remove_round"]


def test_a_page_not_kept_answers_offline_without_the_browsers_error_page(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page()
    create_game(page, live_server.url, ["Anna", "Ben"])
    wait_until_kept_offline(page)
    page.evaluate("""async () => {
      for (let i = 0; i < 50; i++) {
        if (await (await caches.open("tafel-v1")).match(location.origin + "/offline")) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }""")
    page.context.set_offline(True)
    page.goto(page.url.split("?")[0].split("#")[0] + "/history")
    expect(page.locator("h1")).to_have_text("Offline")
    page.get_by_role("link", name="Back to the board").click()
    expect(page.locator("#live")).to_have_text("offline")


def test_a_round_whose_answer_was_lost_is_sent_again_and_saved_once(
    live_server: LiveServer, new_page: NewPage
) -> None:
    # Without the service worker, so that the test can lose the server's answer.
    page = new_page(service_workers="block")
    create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    page.context.set_offline(True)
    enter_round(page, 0, {1: 3}, {0: 14, 1: 12})
    expect(unsent_rows(page)).to_have_count(1)
    lost: list[str] = []
    keys: list[str | None] = []
    replayed: list[str | None] = []

    def lose_the_answer(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        answer = route.fetch()  # the round lands on the server …
        if not lost:
            lost.append(route.request.url)
            route.abort()  # … and the answer never comes back
            return
        replayed.append(answer.headers.get("idempotent-replayed"))
        route.fulfill(response=answer)

    page.route(f"**/api/games/{game}/rounds", lose_the_answer)
    page.context.set_offline(False)
    for _ in range(150):
        if lost:
            break
        page.wait_for_timeout(100)
    assert lost
    # The next try (the page's own, a little later, or the connection's
    # return, whichever comes first) is answered as the first one was.
    page.context.set_offline(True)
    page.context.set_offline(False)
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.", timeout=15_000)
    expect(page.locator("#sync")).not_to_contain_text("Another phone changed this game")
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    assert replayed == ["true"]
    rounds = page.request.get(f"{live_server.url}/api/games/{game}").json()["rounds"]
    assert [(r["stacks"], r["middle"]) for r in rounds] == [
        ({"Anna": 0, "Ben": 3}, {"Anna": 14, "Ben": 12})
    ]


def test_a_sending_the_network_broke_is_tried_again_by_itself(
    live_server: LiveServer, new_page: NewPage
) -> None:
    # The browser online all along (no "online" event, the live stream stays
    # open) while the server cannot be reached for a moment, as when it
    # restarts: the save is kept on the phone, its first sending fails on
    # the way, and the page tries again by itself a little later.
    page = new_page(service_workers="block")
    create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    tries: list[str] = []

    def fail_once(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        tries.append(route.request.url)
        if len(tries) == 1:
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route("**/edit/stacks", lambda route: route.abort("connectionrefused"))
    page.route(f"**/api/games/{game}/rounds", fail_once)
    save_stacks(page, 0, {1: 3})
    expect(page.locator(".message.ok")).to_contain_text("Round 1: stacks saved.", timeout=15_000)
    assert len(tries) == 2, tries
    rounds = page.request.get(f"{live_server.url}/api/games/{game}").json()["rounds"]
    assert [r["stacks"] for r in rounds] == [{"Anna": 0, "Ben": 3}]


def test_a_sending_answered_not_now_is_sent_again_after_its_retry_after(
    live_server: LiveServer, new_page: NewPage
) -> None:
    # A server over the bounds of stored Idempotency-Keys (429) or busy (503)
    # changed nothing and says when to come back: the kept round waits that
    # long and is sent again, instead of being shown as refused.
    page = new_page(service_workers="block")
    create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    tries: list[str] = []

    def not_now_once(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        tries.append(route.request.headers.get("idempotency-key", ""))
        if len(tries) == 1:
            route.fulfill(
                status=429,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body=json.dumps({"detail": "not now", "code": "idempotency_key_rate"}),
            )
        else:
            route.continue_()

    page.route("**/edit/stacks", lambda route: route.abort("connectionrefused"))
    page.route(f"**/api/games/{game}/rounds", not_now_once)
    save_stacks(page, 0, {1: 3})
    expect(page.locator(".message.ok")).to_contain_text("Round 1: stacks saved.", timeout=15_000)
    assert len(tries) == 2 and tries[0] == tries[1] != "", tries  # the same key again
    rounds = page.request.get(f"{live_server.url}/api/games/{game}").json()["rounds"]
    assert [r["stacks"] for r in rounds] == [{"Anna": 0, "Ben": 3}]


def test_another_phones_round_shown_live_before_the_sync_is_still_their_side(
    live_server: LiveServer, new_page: NewPage
) -> None:
    # Without the service worker, so that the test can hold the phone's sending.
    page = new_page(service_workers="block")
    edit_link = create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    enter_round(page, 0, {1: 3}, {0: 14, 1: 12})  # online: 14, 6
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    page.context.set_offline(True)
    enter_round(page, 1, {0: 4}, {0: 9, 1: 16})  # offline: 1, 16
    expect(unsent_rows(page)).to_have_count(1)
    held: list[Any] = []

    def hold(route: Any) -> None:
        if route.request.method == "POST":
            held.append(route)  # answered below, once the live update is in
        else:
            route.continue_()

    page.route(f"**/api/games/{game}/rounds", hold)
    page.context.set_offline(False)
    for _ in range(150):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the phone did not send what waits"
    # Meanwhile a second scorekeeper enters round 2 online, and the live
    # update brings it to this page before the sending is answered.
    second = new_page()
    second.goto(edit_link)
    enter_round(second, 0, {1: 5}, {0: 20, 1: 11})  # 20, 1
    expect(second.locator(".message.ok")).to_contain_text("Round 2 saved.")
    page.wait_for_function(
        "() => JSON.parse(document.getElementById('game-state').textContent).rounds.length === 2",
        timeout=15_000,
    )
    expect(unsent_rows(page)).to_have_count(1)  # the phone's round 2 still waits, as it was
    expect(page.locator("#players .total")).to_have_text(["15", "22"])  # 14+1, 6+16
    held.pop().continue_()
    panel = page.locator("#sync")
    expect(panel).to_contain_text("Another phone changed this game", timeout=15_000)
    expect(panel.locator(".conflict-side").first).to_contain_text("Anna +20, Ben +1")
    expect(panel.locator(".conflict-side.mine")).to_contain_text("Anna +1, Ben +16")
    page.unroute(f"**/api/games/{game}/rounds")
    page.get_by_role("button", name="Keep both: add mine after theirs").click()
    expect(page.locator(".message.ok.notice")).to_contain_text("Round 3 saved.", timeout=15_000)
    expect(page.locator("#players .total")).to_have_text(["35", "23"])  # 14+20+1, 6+1+16
    rounds = page.request.get(f"{live_server.url}/api/games/{game}").json()["rounds"]
    assert [r["middle"] for r in rounds] == [
        {"Anna": 14, "Ben": 12},
        {"Anna": 20, "Ben": 11},
        {"Anna": 9, "Ben": 16},
    ]


def test_a_conflict_is_not_drawn_from_the_phones_kept_copy_of_the_game(
    live_server: LiveServer, new_page: NewPage
) -> None:
    # Without the service worker, so that the test can answer with the kept copy
    # itself, as the service worker does when the network fails on the way.
    page = new_page(service_workers="block")
    edit_link = create_game(page, live_server.url, ["Anna", "Ben"])
    game = page.url.split("/")[4]
    enter_round(page, 0, {1: 3}, {0: 14, 1: 12})  # online: 14, 6
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    kept = page.request.get(f"{live_server.url}/api/games/{game}").text()
    page.context.set_offline(True)
    enter_round(page, 1, {0: 4}, {0: 9, 1: 16})  # offline: 1, 16
    expect(unsent_rows(page)).to_have_count(1)
    second = new_page()
    second.goto(edit_link)
    enter_round(second, 0, {1: 5}, {0: 20, 1: 11})  # 20, 1
    expect(second.locator(".message.ok")).to_contain_text("Round 2 saved.")
    answered: list[str] = []

    def kept_copy_once(route: Any) -> None:
        if not answered:
            answered.append(route.request.url)
            route.fulfill(status=200, content_type="application/json", body=kept)
        else:
            route.continue_()

    page.route(f"**/api/games/{game}", kept_copy_once)
    page.context.set_offline(False)
    panel = page.locator("#sync")
    expect(panel).to_contain_text("Another phone changed this game", timeout=15_000)
    assert answered
    expect(panel.locator(".conflict-side").first).to_contain_text("Anna +20, Ben +1")
    expect(panel.locator(".conflict-side.mine")).to_contain_text("Anna +1, Ben +16")
