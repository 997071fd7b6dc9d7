"""What the screen-reader mode says, and when, measured on the page's clock.

Every announcement is recorded with the time the page's clock showed when
it was made, every message from the table with the time it arrived. The
page's timers run on Playwright's clock, which the tests move forward in
steps (never faster than real time, so the connection's heartbeat keeps
its footing): how late an announcement comes is a property of the page's
logic, measured on the page's clock, whatever else the machine does.

- Over a quick game's round at the default level ("piles I can use") the
  announcements are short (median at most 12 words, none over 40), never
  the whole of the player's own cards unasked, and none comes more than
  3 s after the change it reports (each names it in ``data-reports``).
- The level says whose plays are news.
- "Where am I?" (W, or its button) says the whole table at once.
- Before "Ligretto!" no move is offered; the countdown says each number
  once; a refusal is said in the page's language.
"""

from __future__ import annotations

import contextlib
import re
import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot, pause_clock, serving
from helpers.live_client import Person
from helpers.play import host_table
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

# Every message from the table with its arrival on the page's clock, every
# text the announcer and the countdown take with the time they took it (and
# the cards the player's own places showed then). Installed before the
# page's own scripts, so the socket's listener here runs before the page's.
RECORD = """(() => {
  localStorage.setItem("ligretto.play.reader", "on");
  window.arrivals = {};
  window.heard = [];
  window.counted = [];
  const note = (key) => { if (!(key in window.arrivals)) window.arrivals[key] = Date.now(); };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        let m;
        try { m = JSON.parse(event.data); } catch { return; }
        if (m.type === "events" || m.type === "view") note(`seq:${m.seq}`);
        if (m.type === "round_over") note(`round:${m.round_no}`);
        if (m.type === "table" && m.table.phase === "playing") note(`go:${m.table.round_no}`);
      });
    }
  };
  const mine = () => [...document.querySelectorAll("#mine [data-card]")]
    .map((el) => (el.getAttribute("aria-label") || "").split(": ").pop());
  const watch = (id, log, entry) => {
    const el = document.getElementById(id);
    new MutationObserver(() => log.push(entry(el)))
      .observe(el, {childList: true, characterData: true, subtree: true});
  };
  document.addEventListener("DOMContentLoaded", () => {
    watch("announce", window.heard, (el) => ({
      at: Date.now(), text: el.textContent, reports: el.dataset.reports || "", mine: mine(),
    }));
    watch("countdown", window.counted, (el) => el.textContent);
  });
})()"""

STEP_MS = 100
"""How far the page's clock moves in one step."""


def run(page: Page, ms: int) -> None:
    """Move the page's clock ``ms`` forward, step by step, never ahead of real time."""
    for _ in range(ms // STEP_MS):
        page.clock.run_for(STEP_MS)
        page.wait_for_timeout(STEP_MS)


def heard(page: Page) -> list[dict[str, Any]]:
    return [entry for entry in page.evaluate("window.heard") if entry["text"].strip()]


def run_until_heard(page: Page, text: str, limit_ms: int = 20_000) -> list[dict[str, Any]]:
    """Move the page's clock until the announcer has said ``text``."""
    for _ in range(limit_ms // STEP_MS):
        said = heard(page)
        if any(text in entry["text"] for entry in said):
            return said
        page.clock.run_for(STEP_MS)
        page.wait_for_timeout(STEP_MS)
    raise AssertionError(f"never said {text!r}: {heard(page)} {page.evaluate('Date.now()')}")


# ---------------------------------------------------------------- a quick game's round

ROUND_MS = 90_000
"""The longest stretch of the page's clock a round is followed for."""
WORDS_MEDIAN = 12
WORDS_MAX = 40
LATE_MS = 3000


@pytest.fixture(scope="module")
def busy_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Three bots at twice their medium pace: a busier table than any real one."""
    settings = TableSettings(countdown=1.0, between_rounds=60.0, away_after=60.0, bot_pace=0.5)
    yield from serving(PlayServer(tmp_path_factory.mktemp("reader-pace"), settings))


MOVES = {"en": "Your moves", "de": "Deine Züge"}
PREFERENCE = {
    "en": ["from the stack", "from row", "from the discard", "Fill row", "Turn three", "Pick up"],
    "de": ["vom Stapel", "aus der Reihe", "von der Ablage", "auffüllen", "umdrehen", "aufnehm"],
}


def press_a_move(page: Page, lang: str) -> None:
    """Anna's next move as a player of the screen-reader mode finds it: the
    named buttons of "Your moves", the stack first (R7)."""
    group = page.get_by_role("group", name=MOVES[lang], exact=True)
    names = re.findall(r'button "([^"]*)"', group.aria_snapshot())
    for words in PREFERENCE[lang]:
        chosen = next((name for name in names if words in name), None)
        if chosen is not None:
            # The moves may change under the key: then the next step tries again.
            with contextlib.suppress(PlaywrightError):
                group.get_by_role("button", name=chosen, exact=True).press("Enter", timeout=1000)
            return


def words(text: str) -> int:
    return len(text.split())


def whole_state(entry: dict[str, Any]) -> bool:
    """The announcement names every card of the player's own places."""
    cards = [name for name in entry["mine"] if name]
    return len(cards) >= 3 and all(
        re.search(rf"{re.escape(name)}(?!\d)", entry["text"]) for name in cards
    )


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_default_level_keeps_up_with_speech(
    busy_table: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = new_page(PHONE)
    page.clock.install()
    page.add_init_script(RECORD)
    page.goto(f"{busy_table.url}/play?lang={lang}")
    page.locator("#quick-name").fill("Anna")
    page.locator("#quick-game button[type=submit]").first.click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    expect(page.locator("#play")).to_have_attribute("data-phase", re.compile("countdown|playing"))
    pause_clock(page)
    scores = page.locator("#scores")
    elapsed = 0
    while elapsed < ROUND_MS and not scores.is_visible():
        page.clock.run_for(STEP_MS)
        elapsed += STEP_MS
        if elapsed % 500 == 0:
            press_a_move(page, lang)
        page.wait_for_timeout(STEP_MS)  # the page's clock never runs ahead of real time
    run(page, 500)  # the round's end is said
    shoot(page, f"reader-pace-{lang}")
    said = heard(page)
    arrivals: dict[str, float] = page.evaluate("window.arrivals")
    counts = [words(entry["text"]) for entry in said]
    print(  # the figures, for the changelog (pytest -s)
        f"\n{lang}: {len(said)} announcements over {elapsed / 1000:.1f} s of the page's clock,"
        f" words median {statistics.median(counts) if counts else 0},"
        f" max {max(counts, default=0)}, total {sum(counts)}"
    )
    assert len(said) >= 5, said
    assert statistics.median(counts) <= WORDS_MEDIAN, [e["text"] for e in said]
    assert max(counts) <= WORDS_MAX, [e["text"] for e in said if words(e["text"]) > WORDS_MAX]
    assert not [e["text"] for e in said if whole_state(e)]
    late = []
    for entry in said:
        reported = arrivals.get(entry["reports"])
        assert reported is not None, f"names no change it reports: {entry}"
        if entry["at"] - reported > LATE_MS:
            late.append((entry["at"] - reported, entry["text"]))
    assert not late, late


# ---------------------------------------------------------------- the levels


def opening_piles(players: int, seed: int, options: RuleOptions) -> Round:
    """Ben can open a yellow and a green pile; Anna holds a yellow 2 and no
    green 2: the yellow pile is one she can use, the green one is not."""
    stack = ["B10", "B9", "B8", "B7", "B6", "B5", "B4", "R10", "R9", "R8"]
    return Round.from_snapshot(
        {
            "players": players,
            "options": options.to_dict(),
            "seats": [
                {"stack": stack, "row": [["Y2"], ["R5"], ["R6"], ["R7"], ["B3"]]},
                {"stack": stack, "row": [["Y1"], ["G1"], ["R5"], ["R6"], ["R7"]]},
            ],
            "middle": [],
        },
        seed=seed,
        fill_hand=True,
    )


@pytest.fixture(scope="module")
def two_people(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    settings = TableSettings(
        countdown=0.5, between_rounds=60.0, away_after=60.0, bot_pace=80.0, dealer=opening_piles
    )
    yield from serving(PlayServer(tmp_path_factory.mktemp("reader-levels"), settings))


def ben_plays(ben: Person, action: str) -> None:
    """Ben's move, sent again while the table still waits for "Ligretto!"."""
    for ref in range(1, 40):
        ben.send("move", action=action, ref=ref)
        while (message := ben.receive(5.0)) is not None:
            if message["type"] == "events" and message.get("seat") == ben.seat:
                return
            if message["type"] == "refused":
                break
        ben.receive(0.2)
    raise AssertionError(f"Ben could not play {action}")


def anna_and_ben(page: Page, server: PlayServer) -> Person:
    """Anna's page at a table with Ben (a client of the test), started;
    the page's clock paused once the countdown has gone."""
    created: dict[str, Any] = page.request.post(
        server.url + "/api/tables", data={"seats": 2, "name": "Anna", "bots": []}
    ).json()
    page.clock.install()
    page.add_init_script(RECORD)
    page.goto(f"{server.url}/play/{created['code']}#t={created['host_token']}")
    ben = Person(created["ws_url"], "Ben")
    assert ben.join(name="Ben")["type"] == "welcome"
    page.locator("#start").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#countdown")).to_be_hidden()
    pause_clock(page)
    return ben


LEVELS = {"mine": "my cards only", "usable": "piles I can use", "all": "everything"}


@pytest.mark.parametrize("level", list(LEVELS))
def test_the_level_says_whose_plays_are_news(
    two_people: PlayServer, new_page: NewPage, level: str
) -> None:
    page = new_page({"width": 1280, "height": 800})
    ben = anna_and_ben(page, two_people)
    try:
        announce = page.get_by_role("group", name="Announce")
        expect(announce.get_by_role("radio", name="piles I can use")).to_be_checked()
        announce.get_by_role("radio", name=LEVELS[level]).check()
        ben.wait_for_phase("playing")
        ben_plays(ben, "play Y1 row0 new")
        ben_plays(ben, "play G1 row1 new")
    finally:
        ben.close()
    middle = page.get_by_role("region", name="The middle")
    expect(middle.get_by_role("img", name="Pile 1: yellow 1")).to_be_visible()
    expect(middle.get_by_role("img", name="Pile 2: green 1")).to_be_visible()
    run(page, 3000)  # the time Anna takes to hear it
    # Her own play is always news, and what came up in her row.
    page.get_by_role("button", name="Play yellow 2 from row 1 on pile 1").click()
    run_until_heard(page, "You: yellow 2 on pile 1.")
    texts = " ".join(e["text"] for e in run_until_heard(page, "Stack: "))
    yellow = "Ben: yellow 1 on pile 1." in texts
    green = "Ben: green 1 on pile 2." in texts
    expected = {"mine": (False, False), "usable": (True, False), "all": (True, True)}[level]
    assert (yellow, green) == expected, texts
    # What came up in her row, in a few words (R3: the stack fills the gap).
    assert re.search(r"Row 1: \w+ \d+\.", texts), texts
    assert "Row: " not in texts  # never the whole row unasked


# ---------------------------------------------------------------- where am I?


@pytest.mark.parametrize(("lang", "ask"), [("en", "key"), ("de", "button")])
def test_where_am_i_says_the_whole_table_on_request(
    two_people: PlayServer, new_page: NewPage, shoot: Shoot, lang: str, ask: str
) -> None:
    page = new_page({"width": 1280, "height": 800}, locale={"en": "en-GB", "de": "de-DE"}[lang])
    ben = anna_and_ben(page, two_people)
    ben.close()
    status = page.locator("#announce")
    if ask == "key":
        page.keyboard.press("w")
    else:
        page.get_by_role("button", name="Wo bin ich?").click()
    said = {
        "en": "Stack: red 8, 10 cards. Row: yellow 2, red 5, red 6, red 7, blue 3. Discard: empty.",
        "de": "Stapel: rot 8, 10 Karten. Reihe: gelb 2, rot 5, rot 6, rot 7, blau 3. Ablage: leer.",
    }[lang]
    expect(status).to_contain_text(said)
    expect(status).to_contain_text(
        {"en": "Others' stacks: Ben 10. Nothing fits", "de": "Stapel der anderen: Ben 10."}[lang]
    )
    expect(status).to_have_attribute("data-reports", "ask")
    shoot(page, f"reader-where-{lang}")


# ---------------------------------------------------------------- before "Ligretto!"


@pytest.fixture(scope="module")
def slow_start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A three-second countdown and a bot that waits."""
    settings = TableSettings(countdown=3.0, between_rounds=60.0, away_after=60.0, bot_pace=80.0)
    yield from serving(PlayServer(tmp_path_factory.mktemp("reader-start"), settings))


def test_no_move_before_ligretto_and_each_number_said_once(
    slow_start: PlayServer, new_page: NewPage
) -> None:
    page = new_page({"width": 1280, "height": 800})
    page.clock.install()
    page.add_init_script(RECORD)
    host_table(page, slow_start, 2, [{"seat": 1, "strategy": "greedy"}], "en")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "countdown")
    pause_clock(page)
    moves = page.get_by_role("group", name="Your moves", exact=True)
    expect(page.locator("#countdown")).to_be_visible()
    assert moves.get_by_role("button").count() == 0
    page.keyboard.press("s")  # the stack's key: nothing to send yet
    expect(page.locator("#toast")).to_be_hidden()
    run(page, 4000)
    # The assertive region took each number once, then "Ligretto!".
    counted: list[str] = page.evaluate("window.counted")
    assert counted[-1] == "Ligretto!", counted
    assert counted == list(dict.fromkeys(counted)), counted
    assert [int(n) for n in counted[:-1]] == sorted((int(n) for n in counted[:-1]), reverse=True)
    expect(moves.get_by_role("button").first).to_be_visible()


@pytest.fixture(scope="module")
def never_starts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A countdown no test waits out: the table refuses every move (not_started)."""
    settings = TableSettings(countdown=600.0, between_rounds=60.0, away_after=60.0, bot_pace=80.0)
    yield from serving(PlayServer(tmp_path_factory.mktemp("reader-never"), settings))


def test_a_refusal_is_said_in_the_pages_language(
    never_starts: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    """A page whose clock runs ahead of the table's thinks "Ligretto!" has
    come; the table refuses its move, and the page says why in German."""
    page = new_page(PHONE, locale="de-DE")
    page.clock.install()
    host_table(page, never_starts, 2, [{"seat": 1, "strategy": "greedy"}], "de")
    page.get_by_role("button", name="Spiel starten").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "countdown")
    page.clock.fast_forward("11:00")  # the page's clock past the table's "Ligretto!"
    card = page.locator("#mine .card.can").first
    card.click()
    toast = page.locator("#toast")
    expect(toast).to_have_text("Nicht erlaubt. Warte auf „Ligretto!“")
    shoot(page, "refused-not-started-de")
