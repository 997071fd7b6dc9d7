"""The Tafel in a phone's browser (Chromium at 360×740): T1–T6 end to end.

One live server and one browser for the module; each test opens its own
pages. Screenshots land in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import DESKTOP, PHONE, LiveServer, NewPage, Shoot
from helpers.tafel_pages import create_game, enter_middle, enter_stacks
from helpers.words import split_words

MINUS = "\u2212"


def totals(page: Page) -> list[str]:
    return page.locator("#players .total").all_inner_texts()


def assert_no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"  # type: ignore[index]


def test_t2_t3_a_round_stacks_first_then_middle_with_live_preview(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    create_game(page, live_server, ["Anna", "Ben", "Cleo"])
    shoot(page, "phone-new-game-board")
    # T2: one tap on Ligretto Stop sets Anna's stack to 0.
    page.get_by_label("Anna: Ligretto Stop").check()
    expect(page.locator("#stack-0")).to_have_value("0")
    # Big steppers: three taps on + for Ben; Cleo typed directly.
    plus = page.get_by_role("button", name="Stack for Ben: one more")
    for _ in range(3):
        plus.click()
    expect(page.locator("#stack-1")).to_have_value("3")
    # Enter moves on to the next player's count instead of saving half a round.
    page.locator("#stack-1").press("Enter")
    expect(page.locator("#stack-2")).to_be_focused()
    page.locator("#stack-2").fill("5")
    expect(page.locator(".entry[data-player='1'] .preview .points")).to_have_text(f"{MINUS}6")
    shoot(page, "phone-stacks-entry")
    page.get_by_role("button", name="Save stacks").click()
    expect(page.locator("#status")).to_contain_text("Round 1: waiting for the middle")
    # T3: then the middle, with the points previewed before saving (R5).
    page.locator("#middle-1").fill("14")
    expect(page.locator(".entry[data-player='1'] .preview .points")).to_have_text("+8")
    page.locator("#middle-0").fill("20")
    page.locator("#middle-2").fill("8")
    shoot(page, "phone-middle-entry")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    assert totals(page) == ["20", "8", f"{MINUS}2"]
    expect(page.locator("#players .player.leader .name")).to_have_text("Anna")
    expect(page.locator("table.rounds td.caller")).to_have_count(1)
    expect(page.locator("#players .player").first.locator(".stop-count")).to_have_text("1 × Stop")
    expect(page.locator("svg.chart polyline")).to_have_count(3)
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-board-after-round-1")
    page.emulate_media(media="print")
    shoot(page, "print-board")
    page.emulate_media(media="screen")
    # T6: correct the round from its number in the table; the totals follow.
    page.get_by_role("link", name="Correct round 1").click()
    expect(page.locator("#middle-1")).to_have_value("14")
    shoot(page, "phone-correct-round")
    page.locator("#middle-1").fill("16")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".message.ok")).to_contain_text("Round 1 corrected.")
    assert totals(page) == ["20", "10", f"{MINUS}2"]
    page.get_by_role("link", name="Change history").click()
    expect(page.locator(".history li")).to_have_count(4)
    expect(page.locator(".history li").first).to_contain_text("Round 1 corrected")
    shoot(page, "phone-history")


def test_t2_two_empty_stacks_are_refused_in_the_page(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    create_game(page, live_server, ["Anna", "Ben", "Cleo"])
    enter_stacks(page, 0, {1: 0, 2: 4})
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(
        "Two empty stacks (Anna & Ben): only one player can call Ligretto Stop."
    )
    expect(page.locator("#stack-2")).to_have_value("4")
    expect(page.locator("#stack-0")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#stack-1")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_text("No rounds yet.")).to_be_visible()
    shoot(page, "phone-two-empty-stacks")


def test_t5_rounds_game_shared_victory_after_finish_and_score(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    create_game(page, live_server, ["Anna", "Ben", "Cleo"], rounds=2)
    enter_stacks(page, 0, {1: 2, 2: 6})
    enter_middle(page, {0: 15, 1: 14, 2: 5})  # 15, 10, −7
    enter_stacks(page, 1, {0: 1, 2: 3})
    enter_middle(page, {0: 12, 1: 15, 2: 9})  # 10, 15, 3: Anna 25, Ben 25, Cleo −4
    expect(page.locator("#status")).to_contain_text("All 2 agreed rounds are played.")
    page.get_by_role("button", name="Finish").click()
    expect(page.locator("#status")).to_contain_text("The game is finished.")
    page.get_by_role("button", name="Score").click()
    status = page.locator("#status")
    expect(status).to_contain_text("Shared victory: Anna & Ben")
    expect(page.locator(".ranking li.winner")).to_have_count(2)
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-rounds-game-shared-victory")
    # The start page remembers the game (this browser only), with its outcome.
    edit_url = page.url.split("#")[0]
    page.goto(live_server.url + "/")
    game = page.locator("#my-games li").first
    expect(game.locator(".game-players")).to_have_text("Anna, Ben, Cleo")
    expect(game.locator(".game-meta")).to_contain_text("shared victory: Anna & Ben")
    shoot(page, "phone-start-with-games")
    game.get_by_role("link").click()
    expect(page).to_have_url(edit_url)


def test_t6_the_watch_page_updates_by_itself(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    keeper = new_page()
    create_game(keeper, live_server, ["Anna", "Ben"])
    watch_url = keeper.locator("#watch-link").input_value()
    assert "/edit/" not in watch_url
    watcher = new_page()
    asked: list[str] = []
    watcher.on("request", lambda request: asked.append(request.url))
    watcher.goto(watch_url)
    expect(watcher.locator("#live")).to_have_attribute("data-state", "live")
    watcher.evaluate("window.__notReloaded = true")
    expect(watcher.locator("form")).to_have_count(0)
    enter_stacks(keeper, 1, {0: 2})
    enter_middle(keeper, {0: 15, 1: 12})
    expect(watcher.locator("#players .total").first).to_have_text("11")
    assert watcher.evaluate("window.__notReloaded") is True
    expect(watcher.locator("table.rounds tbody tr")).to_have_count(1)
    # The board came in the stream, gzipped: the watch page fetched none.
    streams = [url for url in asked if "/board/events" in url]
    assert len(streams) == 1 and "z=gzip" in streams[0], asked
    assert not [url for url in asked if url.split("?")[0].endswith("/board")], asked
    shoot(watcher, "phone-watch-page")


def test_language_switch_shows_german_and_norwegian(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="DE Deutsch").click()
    expect(page.get_by_role("heading", name="Neues Spiel")).to_be_visible()
    expect(page.get_by_role("button", name="Spiel anlegen").last).to_be_visible()
    page.get_by_role("link", name="NB Norsk bokmål").click()
    expect(page.get_by_role("button", name="Opprett spill").last).to_be_visible()
    shoot(page, "phone-start-nb")
    # The choice sticks: the board of a new game speaks Norwegian too.
    for index, name in enumerate(["Kari", "Ola"]):
        page.locator("#names input[name=player]").nth(index).fill(name)
    page.get_by_role("button", name="Opprett spill").last.click()
    expect(page.get_by_role("button", name="Lagre bunkene")).to_be_visible()
    enter_stacks_labelled = page.get_by_label("Kari: Ligretto Stop")
    enter_stacks_labelled.check()
    page.locator("#stack-1").fill("3")
    page.get_by_role("button", name="Lagre bunkene").click()
    # The saved stacks lead to the middle step (a fresh page: the shot waits for it).
    page.locator("#middle-0").wait_for(timeout=30_000)
    expect(page.locator("#status")).to_contain_text("Runde 1: venter på midten")
    expect(page.locator("#stale")).to_be_hidden()
    shoot(page, "phone-board-nb")


def test_many_players_and_desktop_screenshots(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    six = new_page()
    create_game(six, live_server, ["Anna", "Benedikt", "Cleo", "Dagny", "Emil", "Friederike"])
    enter_stacks(six, 2, {0: 3, 1: 5, 3: 1, 4: 7, 5: 2})
    enter_middle(six, {0: 12, 1: 9, 2: 18, 3: 14, 4: 4, 5: 11})
    assert_no_horizontal_scroll(six)
    shoot(six, "phone-six-players")

    sixteen = new_page()
    create_game(sixteen, live_server, [f"Spieler {i + 1}" for i in range(16)], cards=True)
    enter_stacks(sixteen, 0, {seat: 2 for seat in range(1, 16)})
    enter_middle(sixteen, {seat: 10 + seat % 5 for seat in range(16)})
    assert_no_horizontal_scroll(sixteen)
    shoot(sixteen, "phone-sixteen-players")

    desktop = new_page(DESKTOP)
    desktop.goto(six.url)
    shoot(desktop, "desktop-board")
    desktop.goto(live_server.url + "/")
    shoot(desktop, "desktop-start")

    # Without JavaScript the same page works with plain fields and buttons.
    plain = new_page(PHONE, java_script_enabled=False)
    plain.goto(six.url)
    expect(plain.get_by_role("button", name="Stack for Anna: one more")).to_be_hidden()
    assert_no_horizontal_scroll(plain)
    shoot(plain, "phone-no-javascript")

    dark = new_page(PHONE, color_scheme="dark")
    dark.goto(six.url)
    shoot(dark, "phone-dark-board")


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_a_name_of_eight_letters_stays_whole_on_a_board_of_eight(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    # From seven players the board's cards stand three to a row at 360 px;
    # "Bestemor" broke there as "Bestemo/r". A name longer than any line
    # may still break, but stays inside its card.
    players = ["Bestemor", "Bestefar", "Oldemor", "Tante", "Onkel", "Kusine", "Fetter"]
    players.append("Wolfeschlegelsteinhausenbergerdorff")
    body = new_page().request.post(live_server.url + "/api/games", data={"players": players})
    game = body.json()
    for url in (
        f"{live_server.url}/g/{game['id']}?lang={lang}",
        f"{live_server.url}/g/{game['id']}/edit?lang={lang}#t={game['edit_token']}",
    ):
        page = new_page(PHONE)
        page.goto(url)
        expect(page.locator("#players .name")).to_have_count(8)
        # Every word whole but the one no line holds; 8 letters had needed
        # all 82 px of the card's line, and broke.
        split = split_words(page, "#players .name", even_too_long=True)
        assert [s for s in split if not s.startswith('"Wolfeschlegel')] == []
        assert split_words(page, "#players .name, table.rounds thead th") == []
        assert_no_horizontal_scroll(page)
    shoot(page, f"phone-eight-names-{lang}")


# How far each round's Stop mark reaches past its cell (px; the mark is the
# points' ::after, .7em right of them, so it is measured from the points).
STOP_MARK_SPILL = """() => [...document.querySelectorAll('table.rounds td.caller')].map((td) => {
  const pts = td.querySelector('.pts');
  const em = parseFloat(getComputedStyle(pts).fontSize);
  const right = pts.getBoundingClientRect().right + 0.7 * em;
  return Math.round(right - td.getBoundingClientRect().right);
})"""


def test_the_stop_mark_stays_in_its_cell_on_a_board_of_eight(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    # Two-digit points of the caller on an eight-player board at 360 px:
    # the mark reached 4-6 px into the next round's cell.
    players = ["Anna", "Bestemor", "Cleo", "Dietrich", "Eva", "Frederikke", "Gunnar", "Hilde"]
    request = new_page().request
    game = request.post(live_server.url + "/api/games", data={"players": players}).json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for n in range(1, 6):
        stacks = {p: 0 if i == n else 3 + i for i, p in enumerate(players)}
        url = f"{live_server.url}/api/games/{game['id']}/rounds"
        assert request.post(url, data={"stacks": stacks}, headers=auth).ok
        middle = {p: 10 + i for i, p in enumerate(players)}
        assert request.put(f"{url}/{n}", data={"middle": middle}, headers=auth).ok
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/g/{game['id']}")
    expect(page.locator("table.rounds td.caller")).to_have_count(5)
    assert all(spill <= 0 for spill in page.evaluate(STOP_MARK_SPILL))
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-eight-stop-marks")


def test_t6_two_scorekeepers_a_stale_entry_is_refused_with_a_reload(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    first = new_page()
    create_game(first, live_server, ["Anna", "Ben"])
    edit_link = first.locator("#edit-link").input_value()
    second = new_page()
    second.goto(edit_link)
    expect(second.locator("#live")).to_have_attribute("data-state", "live")
    enter_stacks(first, 0, {1: 4})
    # The second phone learns of it at once, and its open form is stale.
    expect(second.locator("#stale")).to_be_visible()
    expect(second.locator("#status")).to_contain_text("Round 1: waiting for the middle")
    second.locator("#stack-0").fill("2")
    second.get_by_label("Ben: Ligretto Stop").check()
    second.get_by_role("button", name="Save stacks").click()
    expect(second.get_by_role("alert")).to_contain_text("Another phone saved first.")
    shoot(second, "phone-conflict")
    # The reloaded page offers the middle of the round the first phone opened.
    second.get_by_role("link", name="Reload").first.click()
    expect(second.get_by_role("button", name="Save round 1")).to_be_visible()


def test_a_save_draws_the_board_it_leads_to_once(
    live_server: LiveServer, new_page: NewPage
) -> None:
    """The script's save is one POST and one page load: it is answered with
    where to go, not with a redirect that fetch would follow for nothing."""
    page = new_page()
    # Every board the pages ask for, from the first page on: each page asks
    # once its live stream is open (a save typed before that answer would
    # race it, and rightly get the newer board), so the test types only
    # once the page has asked.
    boards: list[tuple[str, int]] = []
    page.on(
        "response",
        lambda response: (
            boards.append((response.url, response.status))
            if response.url.endswith("/board")
            else None
        ),
    )
    create_game(page, live_server, ["Anna", "Ben"])
    edit_path = page.url.split("#")[0].split("?")[0].removeprefix(live_server.url)
    sent: list[str] = []
    page.on(
        "request",
        lambda request: (
            sent.append(f"{request.method} {request.url}")
            if request.url.removeprefix(live_server.url).startswith(edit_path)
            else None
        ),
    )

    def asked(times: int) -> list[int]:
        """Wait until this game's board was asked for ``times`` times; the answers."""
        deadline = time.monotonic() + 30
        while True:
            mine = [status for url, status in boards if url.endswith(f"{edit_path}/board")]
            if len(mine) >= times:
                return mine
            assert time.monotonic() < deadline, f"the board was asked for {mine}, not {times}x"
            page.wait_for_timeout(50)  # Playwright hands over the answers meanwhile

    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    assert len(asked(1)) == 1
    enter_stacks(page, 0, {1: 4})
    expect(page.locator("#status")).to_contain_text("Round 1: waiting for the middle")
    assert len(asked(2)) == 2
    enter_middle(page, {0: 12, 1: 9})
    expect(page.locator(".message.ok")).to_contain_text("Round 1 saved.")
    # Nor is the board drawn again for the fragment: each page asks once,
    # when its live stream opens, and already shows that version; its own
    # save, heard while the answer is on its way, is not fetched at all.
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    answers = asked(3)  # the page the save loaded asked once, as each page does
    assert len(answers) == 3 and set(answers) == {304}, answers
    posts = [line for line in sent if line.startswith("POST ")]
    pages = [line for line in sent if line.split("?")[0] == f"GET {live_server.url}{edit_path}"]
    assert [line.split("?")[0] for line in posts] == [
        f"POST {live_server.url}{edit_path}/stacks",
        f"POST {live_server.url}{edit_path}/middle",
    ], sent
    # One load of the board per save: after the stacks, after the middle.
    assert len(pages) == 2, sent
    assert "opened=1" in pages[0] and "saved=1" in pages[1], sent
