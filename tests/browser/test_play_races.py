"""Races for a pile in Chromium (R3): a chosen card waits while the others
play on; the faster card wins a pile, and the slower page is told by whom
and by how much, in its language.

Ben's page runs a moment behind (the server's messages to it are held back,
``helpers/play_moves.HeldBack``), so his card loses the race for a pile to
Anna's. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers.browser import DESKTOP, PHONE, NewPage, PlayServer, Shoot
from helpers.play import open_two_seat_table, serve_staged, wait_until_it_fits
from helpers.play_moves import HeldBack
from helpers.press import held_press
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round


def two_red_piles_and_busy_bots(players: int, seed: int, options: RuleOptions) -> Round:
    """Piles 0 and 1 are both R1 and seat 0 has R2 at row position 0; two bot
    seats hold no open card that fits, so they turn three again and again.
    The bots' own R2 lies at the bottom of their stacks, out of reach: were it
    in a hand, a bot would turn it up and play it first, and the race for the
    pile would decide the test instead of the chooser."""
    return Round.from_snapshot(
        {
            "players": players,
            "options": options.to_dict(),
            "seats": [
                {
                    "stack": ["Y10", "Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "G9"],
                    "row": [["R2"], ["B3"], ["B4"], ["B5"]],
                },
                {
                    "stack": ["R2", "G9", "G8", "G7", "G6", "G5", "G4", "G3", "G2", "B9"],
                    "row": [["Y6"], ["Y7"], ["B6"], ["B7"]],
                },
                {
                    "stack": ["R2", "B9", "B8", "B7", "B6", "B5", "B4", "B3", "B2", "G9"],
                    "row": [["Y6"], ["Y7"], ["G6"], ["G7"]],
                },
            ],
            "middle": [
                {"id": 0, "cards": [{"card": "R1", "owner": 1}]},
                {"id": 1, "cards": [{"card": "R1", "owner": 0}]},
            ],
        },
        seed=seed,
        fill_hand=True,
    )


@pytest.fixture(scope="module")
def staged_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serve_staged(tmp_path_factory)


def test_a_chosen_card_waits_while_the_others_play_on(tmp_path: Path, new_page: NewPage) -> None:
    """The pile choice stays open through other players' moves (the issue's
    first bug: every table update used to close it), and a tap held through
    a redraw still counts."""
    settings = TableSettings(
        countdown=0.5, away_after=30.0, bot_pace=0.25, dealer=two_red_piles_and_busy_bots
    )
    server = PlayServer(tmp_path, settings)
    server.start()
    try:
        page = new_page(DESKTOP)
        moves = {"others": 0}

        def count(frame: str | bytes) -> None:
            message = json.loads(frame)
            if message["type"] == "events" and message["seat"] != 0:
                moves["others"] += 1

        page.on("websocket", lambda ws: ws.on("framereceived", count))
        answer = page.request.post(
            server.url + "/api/tables",
            data={
                "seats": 3,
                "name": "Anna",
                "bots": [
                    {"seat": 1, "strategy": "greedy", "level": "expert"},
                    {"seat": 2, "strategy": "stack-first", "level": "expert"},
                ],
            },
        ).json()
        page.goto(f"{server.url}/play/{answer['code']}#t={answer['host_token']}")
        page.locator("#start").click()
        expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
        wait_until_it_fits(page, "row0")
        # The press is held while a bot's move redraws the card (its parts
        # painted anew); the release still picks it. R2: both red piles fit.
        card = page.locator('#my-row [data-source="row0"]')
        with held_press(page, card, watched=card):
            pass  # the bots' next move repaints it
        expect(page.locator("#middle .card.target")).to_have_count(2)
        seen = moves["others"]
        deadline = time.monotonic() + 20
        while moves["others"] < seen + 3:
            assert time.monotonic() < deadline, "the bots made no moves"
            page.wait_for_timeout(100)
        # Still chosen after three moves of others, its piles still lit.
        expect(page.locator('#my-row [data-source="row0"]')).to_have_class(
            re.compile(r"\bchosen\b")
        )
        expect(page.locator("#chooser-hint")).to_be_visible()
        targets = page.locator("#middle .card.target").count()
        assert targets >= 1
        page.locator('#middle [data-pile="1"]').click()
        # No bot can reach an R2 (see the dealer): the R2 on pile 1 is ours.
        expect(page.locator('#middle [data-pile="1"][data-card="R2"]')).to_be_visible()
        expect(page.locator('#my-row [data-source="row0"]')).not_to_have_attribute(
            "data-card", "R2"
        )
    finally:
        server.stop()


def test_a_card_that_lost_the_race_flies_back_and_says_too_slow(
    staged_server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    anna = new_page(DESKTOP)
    open_two_seat_table(anna, staged_server, "open")
    # Ben's messages from the server can be held back: his page then shows
    # the table as it was a moment ago, as a slow connection would.
    ben = new_page(PHONE)
    line = HeldBack(ben)
    # Ben plays in the screen-reader mode: the lost race is said once.
    ben.add_init_script("localStorage.setItem('ligretto.play.reader', 'on')")
    ben.goto(anna.url)
    ben.locator("#join-name").fill("Ben")
    ben.get_by_role("button", name="Take a seat").click()
    expect(anna.locator("#seat-list")).to_contain_text("Ben")
    anna.get_by_role("button", name="Start the game").click()
    for page in (anna, ben):
        expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    line.hold()
    anna.keyboard.press("1")
    anna.keyboard.press("2")  # Anna's R2 onto pile 1
    expect(anna.locator('#middle [data-pile="1"]')).to_have_attribute("data-card", "R2")
    ben.keyboard.press("1")  # Ben still sees pile 1 as R1 and wants it too
    expect(ben.locator("#middle .card.target")).to_have_count(2)
    ben.keyboard.press("2")
    expect(ben.locator("#toast")).to_contain_text("Anna was")  # R3: who was faster
    # ...and Anna hears that she won it, and against whom.
    expect(anna.locator("#toast")).to_contain_text(re.compile(r"You were \d+ ms faster than Ben"))
    expect(ben.locator("#toast")).to_have_attribute("role", "alert")  # spoken at once
    expect(ben.locator('#my-row [data-source="row0"]')).to_have_attribute("data-card", "R2")
    # ...and only there: the announcer (at most once per 1.5 s, busy while
    # a sentence waits) does not repeat it after the alert.
    expect(ben.locator("#announce")).not_to_have_attribute("aria-busy", "true")
    assert "Anna was" not in (ben.locator("#announce").text_content() or "")
    shoot(ben, "play-phone-race-lost")
    # His card is still his: onto the other red pile it goes.
    ben.keyboard.press("1")
    expect(ben.locator('#middle [data-pile="0"]')).to_have_attribute("data-card", "R2")


RACE_WORDS = {
    "en": (r"Anna was \d+ ms faster\.", "Races for a pile", r"Round trip: \d+ ms"),
    "de": (r"Anna war \d+ ms schneller\.", "Wettläufe um einen Farbstapel", r"Antwortzeit: \d+ ms"),
    "nb": (r"Anna var \d+ ms raskere\.", "Kappløp om en byggebunke", r"Svartid: \d+ ms"),
}
RACE_TIE = {
    "en": "You and Anna played in the same millisecond; yours came first.",
    "de": "Du und Anna habt in derselben Millisekunde gespielt; deine Karte war zuerst dran.",
    "nb": "Du og Anna spilte i samme millisekund; ditt kort kom først.",
}
RACE_WON = {
    "en": "You were 12 ms faster than Anna.",
    "de": "Du warst 12 ms schneller als Anna.",
    "nb": "Du var 12 ms raskere enn Anna.",
}


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_a_lost_race_says_who_was_faster_and_the_scores_count_races(
    staged_server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    """Ben's page runs a moment behind (its messages are held back), so his
    card loses the race for pile 1 to Anna's (R3): his page names her and
    the margin the server measured. The score screen's race table is then
    drawn from a ``round_over`` handed to his page, and "Connection" shows
    his round trip."""
    race, races_title, round_trip = RACE_WORDS[lang]
    anna = new_page(DESKTOP)
    open_two_seat_table(anna, staged_server, "open")
    ben = new_page(PHONE)
    line = HeldBack(ben)
    ben.goto(f"{anna.url}?lang={lang}")
    ben.locator("#join-name").fill("Ben")
    ben.locator("#join-form button[type=submit]").click()
    expect(anna.locator("#seat-list")).to_contain_text("Ben")
    anna.get_by_role("button", name="Start the game").click()
    for page in (anna, ben):
        expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    line.hold()
    anna.keyboard.press("1")
    anna.keyboard.press("2")  # Anna's R2 onto pile 1
    expect(anna.locator('#middle [data-pile="1"]')).to_have_attribute("data-card", "R2")
    ben.keyboard.press("1")
    expect(ben.locator("#middle .card.target")).to_have_count(2)
    ben.keyboard.press("2")  # Ben's R2 onto pile 1 as well: a lost race
    expect(ben.locator("#toast")).to_have_text(re.compile(race))
    shoot(ben, f"play-phone-race-margin-{lang}")
    # "Connection" (under "?" on a phone): the round trip, once a pong is back.
    ben.locator("#help").click()
    ben.locator("#rtt-toggle").click()
    expect(ben.locator("#rtt-line")).to_have_text(re.compile(round_trip))
    expect(ben.locator("#rtt-toggle")).to_have_attribute("aria-pressed", "true")
    expect(ben.locator("#toast")).to_be_hidden()
    shoot(ben, f"play-phone-round-trip-{lang}")
    # A race Ben won, as the server tells its winner: in his language.
    won = {"v": 1, "type": "race_won", "round_no": 1, "loser": 0, "name": "Anna", "margin_ms": 12}
    line.sockets[-1].send(json.dumps(won))
    toast = ben.locator("#toast")
    expect(toast).to_have_text(RACE_WON[lang])
    # One short sentence on one line or two, not squeezed into half the screen.
    box = toast.bounding_box()
    assert box is not None and box["height"] < 75, box  # three lines before
    shoot(ben, f"play-phone-race-won-{lang}")
    # The same millisecond is a tie that arrival order broke, not "0 ms faster".
    line.sockets[-1].send(json.dumps({**won, "margin_ms": 0}))
    expect(toast).to_have_text(RACE_TIE[lang])
    shoot(ben, f"play-phone-race-tie-{lang}")
    # The score screen as the server would send it after this round.
    over = {
        "v": 1,
        "type": "round_over",
        "round_no": 1,
        "ended_by": "stop",
        "caller": 0,
        "stacks": [0, 7],
        "middle": [9, 3],
        "points": [9, -11],
        "totals": [9, -11],
        "game_over": False,
        "winners": [],
        "next_round_at": None,
        "races": {"won": [1, 0], "lost": [0, 1]},
        "game_races": {"won": [1, 0], "lost": [0, 1]},
    }
    line.sockets[-1].send(json.dumps(over))
    scores = ben.locator("#scores")
    expect(scores).to_be_visible()
    expect(ben.locator("#scores-races")).to_contain_text(races_title)
    rows = ben.locator("#race-rows tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("1")
    expect(rows.nth(1).locator("td").nth(1)).to_have_text("1")
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("0 / 1")
    width = ben.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the score screen is {width}px wide"
    shoot(ben, f"play-phone-race-scores-{lang}")
