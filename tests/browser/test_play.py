"""Online play in Chromium: a person and three bots play a round to its end.

The person's moves are made on the page the way a player makes them: by
clicking a card that fits (and a pile when several fit) or turning three
hand cards. Bots are the expert level with their delays shortened by the
table's test setting. Screenshots (phone and desktop) go to test-artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import DESKTOP, PHONE, NewPage, PlayServer, Shoot, serving
from helpers.play import open_two_seat_table, serve_staged, wait_until_it_fits
from helpers.play_moves import follow_hints, play_until
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round


def row_storage_position(players: int, seed: int, options: RuleOptions) -> Round:
    """With row storage (R6): the stack top B5 fits no pile but lies on G9, Y8
    or Y6 in the row; R2 at row position 0 fits the only pile, R1."""
    return Round.from_snapshot(
        {
            "players": players,
            "options": {**options.to_dict(), "row_storage": True},
            "seats": [
                {
                    "stack": ["Y10", "Y9", "Y7", "G10", "B5"],
                    "row": [["R2"], ["G9"], ["Y8"], ["G3"], ["Y6"]],
                },
                {
                    "stack": ["Y10", "Y9", "Y8", "Y7", "G9"],
                    "row": [["B3"], ["B4"], ["B6"], ["B7"], ["B8"]],
                },
            ],
            "middle": [{"id": 0, "cards": [{"card": "R1", "owner": 1}]}],
        },
        seed=seed,
        fill_hand=True,
    )


@pytest.fixture(scope="module")
def play_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serving(PlayServer(tmp_path_factory.mktemp("play-data")))


def open_table(page: Page, server: PlayServer, *, rounds: int = 1) -> str:
    page.goto(server.url + "/play")
    page.locator("#host-name").fill("Anna")
    page.locator("#seats").fill("4")
    for seat, strategy in ((1, "watchful"), (2, "stack-first"), (3, "greedy")):
        page.locator(f"#seat{seat}").select_option(strategy)
        page.locator(f"#level{seat}").select_option("expert")
    page.locator("input[name=mode][value=rounds]").check()
    page.locator("#rounds").fill(str(rounds))
    page.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    expect(page.locator("#seat-list li")).to_have_count(4)
    return code


def play_until_round_over(page: Page, shoot: Shoot, name: str) -> int:
    """Play like a quick player until the scores appear; a screenshot (and
    the table's width checked) at the twelfth move."""

    def look(moves: int) -> None:
        if moves == 12:
            shoot(page, name)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], f"the table is {width}px wide"  # type: ignore[index]

    return play_until(page, page.locator("#scores").is_visible, after_move=look)


def test_a_person_and_three_bots_play_a_round_and_it_lands_on_the_tafel(
    play_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    page.goto(play_server.url + "/play")
    shoot(page, "play-phone-new-table")
    code = open_table(page, play_server)
    shoot(page, "play-phone-lobby")
    # A second person watches from a laptop.
    watcher = new_page(DESKTOP)
    watcher.goto(f"{play_server.url}/play/{code}")
    expect(watcher.locator("#connection")).to_contain_text("watching")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#my-row .card")).to_have_count(3)  # R2: three with four players
    moves = play_until_round_over(page, shoot, "play-phone-round")
    assert moves > 0
    shoot(watcher, "play-desktop-watcher")
    scores = page.locator("#scores")
    expect(scores.locator("#score-rows tr")).to_have_count(4)
    # The game's end names the winner (or the shared victory) as its heading.
    expect(page.locator("#scores-title")).to_contain_text(re.compile("wins with|Shared victory"))
    expect(page.locator("#play-again")).to_be_visible()
    shoot(page, "play-phone-scores")
    shown = scores.locator("#score-rows tr").all_inner_texts()
    totals = [row.split("\t")[-1].strip() for row in shown]
    names = [row.split("\t")[0].replace("★", "").strip() for row in shown]
    # The round is on the table's Tafel game, one click away.
    link = page.locator("#scores-board")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None and href.startswith("/g/")
    board = new_page(PHONE)
    board.goto(play_server.url + href)
    # The page names bots in its language ("Bot 2 (sharp)"); the Tafel has
    # them as "Bot 2" (no strategy jargon, the same word in every language).
    seated = board.request.get(f"{play_server.url}/api/tables/{code}").json()["seats"]
    assert names[0] == "Anna" and [n.split(" (")[0] for n in names[1:]] == [
        "Bot 2",
        "Bot 3",
        "Bot 4",
    ]
    players = [s["name"].split(" (")[0] if s["kind"] == "bot" else s["name"] for s in seated]
    for player in players:
        expect(board.locator("main")).to_contain_text(player)
    shoot(board, "play-phone-tafel-board")
    # The board's game holds exactly the round shown at the table.
    game = board.request.get(play_server.url + "/api/games/" + href.removeprefix("/g/")).json()
    assert game["players"] == players
    assert [str(game["totals"][n]).replace("-", "\u2212") for n in players] == totals
    assert len(game["rounds"]) == 1 and game["status"] == "finished"
    # Play again: the host is offered a new game, the watcher waits for it.
    expect(watcher.locator("#play-again-wait")).to_be_visible()
    expect(watcher.locator("#play-again")).to_be_hidden()
    again = page.locator("#play-again")
    expect(again).to_be_visible()
    again.click()
    expect(scores).to_be_hidden()
    expect(page.locator("#board-link")).not_to_have_attribute("href", href)
    expect(watcher.locator("#scores")).to_be_hidden()


def test_a_quick_game_against_three_bots_is_one_tap_from_the_start_page(
    play_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    page.goto(play_server.url + "/play")
    shoot(page, "play-phone-quick-game")
    page.goto(play_server.url + "/")
    page.locator("#quick-name").fill("Anna")
    page.get_by_role("button", name="Quick game against 3 bots").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#seat-list li")).to_have_count(4)
    expect(page.locator("#seat-list")).to_contain_text("Anna")
    # The person lands as host and the countdown starts once the table is on
    # the screen, as after "Play again" (docs/online-play.md).
    expect(page.locator("#play")).to_have_attribute("data-phase", re.compile("countdown|playing"))
    expect(page.locator("#my-row .card")).to_have_count(3)


def test_the_table_on_a_desktop_with_keyboard_play(
    play_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(DESKTOP)
    open_table(page, play_server)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#countdown")).to_be_visible()
    expect(page.locator("#countdown")).to_be_hidden()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    hand = page.locator("#my-hand .count")
    before = int(hand.inner_text())
    page.keyboard.press("Space")  # turn three hand cards (R3)
    expect(hand).to_have_text(str(before - 3))
    expect(page.locator("#my-discard .card:not(.empty)")).to_have_count(1)
    shoot(page, "play-desktop-table")


@pytest.fixture(scope="module")
def staged_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serve_staged(tmp_path_factory)


def test_a_card_that_fits_two_piles_asks_which_and_keys_choose(
    staged_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(DESKTOP)
    open_two_seat_table(page, staged_server, "greedy")  # slowed right down: it waits
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    wait_until_it_fits(page, "row0")
    page.keyboard.press("1")  # row position 0: R2 fits on both red piles
    targets = page.locator("#middle .card.target")
    expect(targets).to_have_count(2)
    expect(page.locator("#chooser-hint")).to_be_visible()
    shoot(page, "play-desktop-choose-pile")
    page.keyboard.press("Escape")
    expect(targets).to_have_count(0)
    page.keyboard.press("1")
    page.keyboard.press("2")  # the second highlighted pile: p1
    expect(page.locator('#middle [data-pile="1"]')).to_have_attribute("data-card", "R2")
    expect(page.locator('#middle [data-pile="0"]')).to_have_attribute("data-card", "R1")
    # A card that fits nowhere is refused on the page without a move.
    page.keyboard.press("3")
    expect(page.locator("#toast")).to_contain_text("fits nowhere")


def test_a_card_dragged_onto_a_pile_is_played_there(
    staged_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(DESKTOP)
    open_two_seat_table(page, staged_server, "greedy")  # slowed right down: it waits
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    wait_until_it_fits(page, "row0")
    card = page.locator('#my-row [data-source="row0"]')
    pile = page.locator('#middle [data-pile="0"]')
    start = card.bounding_box()
    end = pile.bounding_box()
    assert start is not None and end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 30, start["y"] - 30, steps=4)
    expect(page.locator(".drag-ghost")).to_be_visible()
    expect(page.locator("#middle .card.target")).to_have_count(2)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    shoot(page, "play-desktop-drag")
    page.mouse.up()
    expect(pile).to_have_attribute("data-card", "R2")
    expect(page.locator('#middle [data-pile="1"]')).to_have_attribute("data-card", "R1")
    expect(page.locator(".drag-ghost")).to_have_count(0)
    # Let go beside every pile: the card stays where it is.
    card = page.locator('#my-row [data-source="row1"]')
    box = card.bounding_box()
    assert box is not None
    before = card.get_attribute("data-card")
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + 10, box["y"] - 60, steps=4)
    page.mouse.up()
    expect(card).to_have_attribute("data-card", before or "")


def test_the_practice_round_is_played_to_its_end_by_following_the_hints(
    play_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    page.goto(play_server.url + "/")
    page.get_by_role("button", name="Practice round with hints").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#play")).to_have_attribute("data-practice", "1")
    expect(page.locator("#seat-list li")).to_have_count(2)
    hint = page.locator("#hint")
    expect(hint).to_be_visible()
    end = page.locator("#practice-end")
    said: set[str] = set()
    shots: list[bool] = []

    def first_shot() -> None:
        if not shots:
            shoot(page, "play-phone-practice")
            shots.append(True)

    follow_hints(page, heard=said.add, after_move=first_shot)
    # The deal is random: the round ends with a Ligretto Stop or, rarely, with
    # nobody able to play any more (R4); either way it was played to its end.
    expect(end).to_contain_text(re.compile(r"Ligretto Stop|Nobody could play any more"))
    expect(page.locator("#scores")).to_be_hidden()  # the practice round's own end instead
    shoot(page, "play-phone-practice-end")
    # The hints came from the legal actions: plays and turning three.
    assert any("fits: tap it" in text for text in said), said
    assert any("turn three" in text for text in said), said


def test_row_storage_targets_are_tapped_and_a_pile_tap_plays_what_fits_it(
    tmp_path: Path, new_page: NewPage
) -> None:
    settings = TableSettings(
        countdown=0.5, away_after=30.0, bot_pace=50.0, dealer=row_storage_position
    )
    server = PlayServer(tmp_path, settings)
    server.start()
    try:
        page = new_page(PHONE)
        open_two_seat_table(page, server, "greedy")  # slowed right down: it waits
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
        wait_until_it_fits(page, "stack")
        page.locator('#mine [data-source="stack"]').click()
        targets = page.locator("#my-row .card.target")
        expect(targets).to_have_count(3)  # onto G9, Y8 or Y6, not R2 or G3
        page.locator('#my-row [data-source="row2"]').click()
        row2 = page.locator('#my-row [data-source="row2"]')
        expect(row2).to_have_attribute("data-card", "B5")
        expect(row2).to_have_class(re.compile(r"\bdeep\b"))
        expect(page.locator('#mine [data-source="stack"]')).to_have_attribute("data-card", "G10")
        # No card chosen: a tap on the pile plays the own card that fits it.
        page.locator('#middle [data-pile="0"]').click()
        expect(page.locator('#middle [data-pile="0"]')).to_have_attribute("data-card", "R2")
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("lang", "start", "stack"),
    [("de", "Spiel starten", "Stapel"), ("nb", "Start spillet", "Bunke")],
)
def test_the_table_speaks_german_and_norwegian(
    play_server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str, start: str, stack: str
) -> None:
    page = new_page(PHONE)
    page.goto(f"{play_server.url}/play?lang={lang}")
    page.locator("#host-name").fill("Kari")
    page.locator("#new-table button[type=submit]").click()
    expect(page.locator("#start")).to_have_text(start)
    page.locator("#start").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(page.locator(".stack-place .place-label")).to_contain_text(stack)
    expect(page.locator("#countdown")).to_be_hidden()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is {width}px wide"
    shoot(page, f"play-phone-{lang}")


def test_the_seat_moves_to_another_device_with_its_link(
    staged_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    phone = new_page(PHONE)
    open_two_seat_table(phone, staged_server, "greedy")  # slowed right down: it waits
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#play")).to_have_attribute("data-phase", "playing")
    stack = phone.locator("#my-stack .card").first.get_attribute("data-card")
    assert stack
    phone.get_by_role("button", name="Other device").click()
    dialog = phone.locator("#seat-move")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Whoever has this link plays your seat.")
    expect(phone.locator("#seat-qr svg")).to_be_visible()
    link = phone.locator("#seat-link").input_value()
    assert re.search(r"/play/[A-Z0-9]{6}#seat=[A-Za-z0-9_-]{20,}$", link), link
    shoot(phone, "play-phone-seat-link")
    phone.get_by_role("button", name="Close").click()
    laptop = new_page(DESKTOP)  # another browser: nothing in its localStorage
    laptop.goto(link)
    expect(laptop.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(laptop.locator("#my-stack .card").first).to_have_attribute("data-card", stack)
    expect(laptop.locator("#my-name")).to_contain_text("Anna")
    assert "#" not in laptop.url  # the token left the address bar
    expect(phone.locator("#taken-over")).to_be_visible()
    expect(phone.locator("#seat-move-open")).to_be_hidden()
    expect(phone.locator("#mine .can")).to_have_count(0)  # nothing is offered here now
    laptop.keyboard.press("1")
    laptop.keyboard.press("2")  # R2 onto pile 1, from the laptop
    expect(laptop.locator('#middle [data-pile="1"]')).to_have_attribute("data-card", "R2")


def test_every_module_loads_at_its_versioned_address(
    play_server: PlayServer, new_page: NewPage
) -> None:
    """The import map in base.html gives each imported module its ``?v=`` like the
    entry scripts; a module missing there would come unversioned, perhaps stale."""
    page = new_page(DESKTOP)
    scripts: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_two_seat_table(page, play_server, "open")
    expect(page.locator("#seat-list li")).to_have_count(2)
    page.goto(play_server.url + "/")  # start.js imports games.js
    paths = {urlsplit(url).path for url in scripts}
    assert {"/static/play/table.js", "/static/play/state.js", "/static/js/games.js"} <= paths
    assert [url for url in scripts if "?v=" not in url] == []
    assert errors == []
