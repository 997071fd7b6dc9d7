"""Online play in a browser: a module's server, the practice start, bot tables, staged deals."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Literal

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from helpers.browser import PlayServer, serving
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

Submit = Literal["click", "enter", "keys"]
"""How the start form is sent: a click (or tap), Enter on its focused
button, or the keyboard alone (typed name, focused button, Enter)."""


def serve_play(
    tmp_path_factory: pytest.TempPathFactory, folder: str, bot_pace: float
) -> Iterator[PlayServer]:
    """A module's table server: a half-second countdown, a long wait between
    rounds and before a seat counts as away, bots at ``bot_pace`` times their
    expert reaction time (80.0 keeps them still, 0.03 ends a round in seconds)."""
    settings = TableSettings(countdown=0.5, between_rounds=30.0, away_after=60.0, bot_pace=bot_pace)
    yield from serving(PlayServer(tmp_path_factory.mktemp(folder), settings))


def start_practice(
    page: Page,
    server: PlayServer,
    *,
    name: str = "Anna",
    lang: str | None = None,
    submit: Submit = "click",
    after_countdown: bool = True,
) -> None:
    """From the start page to a practice table in play, under ``name``.

    ``lang`` asks for the page's language in the address (otherwise the
    browser's locale decides); ``after_countdown`` waits until "Ligretto!"
    has flashed and faded (0.7 s), so that the table is read once it is gone.
    """
    page.goto(f"{server.url}/play" + (f"?lang={lang}" if lang is not None else ""))
    field = page.locator("#quick-name")
    button = page.locator("button[formaction='/play/practice']")
    if submit == "keys":
        field.focus()
        page.keyboard.type(name)
        button.focus()
        page.keyboard.press("Enter")
    else:
        field.fill(name)
        if submit == "enter":
            button.press("Enter")
        else:
            button.click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    if after_countdown:
        expect(page.locator("#countdown")).to_be_hidden()


def host_table(
    page: Page,
    server: PlayServer,
    seats: int,
    bots: list[dict[str, Any]],
    lang: str | None = None,
    name: str = "Anna",
) -> None:
    """Anna (or ``name``) hosts a table of ``seats`` with ``bots`` (through the
    API) and opens its lobby, in ``lang`` if given; return once every seat is listed."""
    answer: dict[str, Any] = page.request.post(
        server.url + "/api/tables", data={"seats": seats, "name": name, "bots": bots}
    ).json()
    query = f"?lang={lang}" if lang is not None else ""
    page.goto(f"{server.url}/play/{answer['code']}{query}#t={answer['host_token']}")
    expect(page.locator("#seat-list li")).to_have_count(seats)


def sit_down_against_a_bot(page: Page, server: PlayServer, lang: str = "en") -> None:
    """Host a two-seat table against a greedy bot and start it (a tap on a
    touch screen, as on the device); return once the countdown has gone."""
    host_table(page, server, 2, [{"seat": 1, "strategy": "greedy"}], lang)
    start = page.locator("#start")
    if page.evaluate("matchMedia('(pointer: coarse)').matches"):
        start.tap()
    else:
        start.click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#countdown")).to_be_hidden()


def tools_in_view(page: Page) -> bool:
    """Wait until the table shows its tools, or the help button they sit
    behind on a phone; say whether the tools themselves are in view.

    ``is_visible`` alone answers at once: asked while the lobby still gives
    way to the table, it saw neither, and a test went for the help button a
    laptop does not show."""
    expect(page.locator("#reader-toggle, #help").filter(visible=True).first).to_be_visible()
    return page.locator("#reader-toggle").is_visible()


def game_over(page: Page, server: PlayServer, lang: str) -> None:
    """Open a one-round table of the host and three bots; wait for the game's end."""
    page.goto(f"{server.url}/play?lang={lang}")
    page.locator("#host-name").fill("Anna")
    page.locator("#seats").fill("4")
    page.locator("input[name=mode][value=rounds]").check()
    page.locator("#rounds").fill("1")
    page.locator("#new-table button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}"))
    expect(page.locator("#seat-list li")).to_have_count(4)
    page.locator("#start").click()
    expect(page.locator("#scores")).to_be_visible(timeout=180_000)


def two_red_piles(players: int, seed: int, options: RuleOptions) -> Round:
    """Piles 0 and 1 are both R1; both seats have R2 at row position 0 (R3)."""
    stack = ["Y10", "Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "G9"]
    return Round.from_snapshot(
        {
            "players": players,
            "options": options.to_dict(),
            "seats": [
                {"stack": stack, "row": [["R2"], ["B3"], ["B4"], ["B5"], ["B6"]]},
                {"stack": stack, "row": [["R2"], ["G3"], ["B4"], ["B5"], ["B6"]]},
            ],
            "middle": [
                {"id": 0, "cards": [{"card": "R1", "owner": 1}]},
                {"id": 1, "cards": [{"card": "R1", "owner": 0}]},
            ],
        },
        seed=seed,
        fill_hand=True,
    )


def wait_for_piles(page: Page, piles: int = 2) -> None:
    """Wait until the middle holds at least ``piles`` piles: play has begun
    and moves were made (a busy machine makes them come later, not fewer)."""
    page.wait_for_function(
        "(n) => document.querySelectorAll('#middle [data-pile]').length >= n",
        arg=piles,
        timeout=60_000,
    )


def dealt_with_piles(piles: int) -> Callable[[int, int, RuleOptions], Round]:
    """A dealer (``TableSettings.dealer``) whose rounds open mid-play: the
    seats' first legal actions in turn (R3: plays first, else turn three)
    until the middle holds *piles* open piles (a closed one, R3, is shown
    apart). The same position every time for
    a seed, whatever the machine's speed: a test that looks at a table with
    piles checks the layout of that table, not of whatever the bots reached."""

    def deal(players: int, seed: int, options: RuleOptions) -> Round:
        # A deal whose play closes piles before enough are open is passed
        # over for the next seed's: still the same position for a seed.
        for tried in range(seed, seed + 50):
            rnd = Round.deal(players, tried, options)
            for turn in range(100 * players):
                if sum(not pile.closed for pile in rnd.view().middle) >= piles:
                    return rnd
                action = rnd.first_action(turn % players)
                if action is not None:
                    rnd.apply(turn % players, action)
        raise AssertionError(f"no {piles} open piles in 50 deals from seed {seed}")

    return deal


def serve_staged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A module's server whose rounds open on :func:`two_red_piles`, its bots slowed right down."""
    settings = TableSettings(countdown=0.5, away_after=30.0, bot_pace=50.0, dealer=two_red_piles)
    yield from serving(PlayServer(tmp_path_factory.mktemp("staged-data"), settings))


def open_two_seat_table(page: Page, server: PlayServer, second_seat: str) -> None:
    """Anna opens a table of two; the second seat is ``open`` or a bot strategy."""
    page.goto(server.url + "/play")
    page.locator("#host-name").fill("Anna")
    page.locator("#seats").fill("2")
    page.locator("#seat1").select_option(second_seat)
    page.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))


def wait_until_it_fits(page: Page, source: str) -> None:
    """Wait until the own card at ``source`` carries the "fits" mark: the
    page has drawn the view that lists its moves. The phase turns to
    "playing" with the table's message; on a slow machine the seat's view,
    with its moves, may come a moment later, and a tap before it finds
    nothing to do."""
    expect(page.locator(f'#mine [data-source="{source}"]')).to_have_class(re.compile(r"\bcan\b"))


def round_over(page: Page, end: str) -> None:
    """Wait for the round's end (``end`` shows), agreeing that the table is
    stuck when the bots and the idle person can go no further (R4)."""
    for _ in range(600):
        if page.locator(end).is_visible():
            return
        stuck = page.locator("#stuck-agree")
        if stuck.is_visible() and stuck.is_enabled():
            try:
                stuck.click(timeout=2000)
            except PlaywrightError:
                # A card reached the middle (or the round ended) between the
                # look and the click, and the offer went away: look again.
                continue
        page.wait_for_timeout(200)
    expect(page.locator(end)).to_be_visible()
