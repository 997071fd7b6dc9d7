"""A dropped connection at the online table is shown, and never swallows a card.

A person plays against a bot slowed right down (it waits). The connection
drops for 10 s, once closed from the server's side (the page's WebSocket is
routed through Playwright, which closes it and refuses new ones) and once
by the browser's offline switch, which closes nothing: the socket just goes
silent and only the page's heartbeat notices. Each time:

- the banner (``#link``, role=status) says "reconnecting" within 2 s of the
  drop by the page's clock: Playwright's clock drives the page's timers, and
  once it has run 2 s on from the drop the banner must be there. A busy
  machine makes the page's timers run late in real time, never early in its
  own, so this holds however loaded the machine is; the rest of the drop is
  run through on the same clock instead of waited for;
- the player's own row does not move (its bounding box is the same);
- a card tapped during the drop is refused visibly ("Not sent") and stays
  in its place; once the banner says the connection is back, the same tap
  plays it.

Screenshots of the banner at 390 px in de, en and nb go to test-artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

# axe-playwright-python ships neither type hints nor a py.typed marker.
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, ViewportSize, WebSocketRoute, expect

from helpers.browser import PHONE, NewPage, PlayServer, Shoot, pause_clock, resize, serving
from helpers.tap_targets import small_targets
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

pytestmark = pytest.mark.slow

PHONE_390: ViewportSize = {"width": 390, "height": 844}
DROP_MS = 10_000
SHOWN_WITHIN_MS = 2000
WORDS = {
    "en": ("reconnecting", "Not sent", "Connected again"),
    "de": ("verbinde neu", "Nicht gesendet", "Wieder verbunden"),
    "nb": ("kobler til igjen", "Ikke sendt", "Tilkoblet igjen"),
}


def one_red_pile(players: int, seed: int, options: RuleOptions) -> Round:
    """One pile, R1; seat 0 has R2 at row position 0 (it fits nowhere else)."""
    return Round.from_snapshot(
        {
            "players": players,
            "options": options.to_dict(),
            "seats": [
                {
                    "stack": ["Y10", "Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "G9"],
                    "row": [["R2"], ["B3"], ["B4"], ["B5"], ["B6"]],
                },
                {
                    "stack": ["Y10", "Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "G9"],
                    "row": [["G3"], ["G4"], ["B4"], ["B5"], ["B6"]],
                },
            ],
            "middle": [{"id": 0, "cards": [{"card": "R1", "owner": 1}]}],
        },
        seed=seed,
        fill_hand=True,
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A short countdown and a bot that waits; away_after above the drop: the
    seat is still the person's when they are back."""
    settings = TableSettings(countdown=0.5, away_after=60.0, bot_pace=50.0, dealer=one_red_pile)
    yield from serving(PlayServer(tmp_path_factory.mktemp("banner-data"), settings))


class Line:
    """The page's WebSocket through Playwright: ``cut()`` closes it from the
    server's side and refuses new ones until ``mend()``."""

    def __init__(self, page: Page) -> None:
        self.down = False
        self.open: list[WebSocketRoute] = []
        page.route_web_socket(re.compile(r".*/play/.*/ws$"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        if self.down:
            ws.close(code=1006, reason="down")
            return
        server = ws.connect_to_server()
        self.open.append(ws)
        server.on_message(lambda message: None if self.down else ws.send(message))
        ws.on_message(lambda message: None if self.down else server.send(message))

    def cut(self) -> None:
        self.down = True
        for ws in self.open:
            ws.close(code=1001, reason="gone")
        self.open.clear()

    def silence(self) -> None:
        """Nothing passes any more, yet nothing closes: a half-open socket."""
        self.down = True

    def mend(self) -> None:
        self.down = False


def start_game(page: Page, server: PlayServer, lang: str = "en") -> None:
    # The page's timers (the heartbeat, the retries) on a clock the test can
    # run forward; until it does, it keeps time with the real one.
    page.clock.install()
    page.goto(f"{server.url}/play?lang={lang}")
    page.locator("#host-name").fill("Anna")
    page.locator("#seats").fill("2")
    page.locator("#seat1").select_option("greedy")
    page.locator("#new-table button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    page.locator("#start").click()
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#countdown")).to_be_hidden()


def row_box(page: Page) -> tuple[float, float, float, float]:
    box = page.locator("#my-row").bounding_box()
    assert box is not None
    return (box["x"], box["y"], box["width"], box["height"])


def check_drop(page: Page, shoot: Shoot, name: str, lang: str, drop: Callable[[], None]) -> None:
    lost, unsent, _back = WORDS[lang]
    banner = page.locator("#link")
    card = page.locator('#my-row [data-source="row0"]')
    expect(card).to_have_attribute("data-card", "R2")
    expect(banner).to_be_hidden()
    before = row_box(page)
    drop()
    # Every timer due within 2 s of the drop has run, the heartbeat's too:
    # the banner is there now, without waiting any longer.
    page.clock.run_for(SHOWN_WITHIN_MS)
    assert banner.is_visible(), "no banner 2 s after the drop, by the page's clock"
    expect(banner).to_contain_text(lost)
    expect(banner).to_have_attribute("role", "status")
    assert row_box(page) == before, "the banner moved the player's own row"
    # A card tapped now is not sent, and the page says so; it stays put.
    card.click()
    expect(page.locator("#toast")).to_contain_text(unsent)
    expect(card).to_have_attribute("data-card", "R2")
    expect(page.locator('#middle [data-pile="0"]')).to_have_attribute("data-card", "R1")
    shoot(page, name)
    assert row_box(page) == before


def check_back(page: Page, lang: str, shoot: Shoot | None = None) -> None:
    _lost, _unsent, back = WORDS[lang]
    banner = page.locator("#link")
    expect(banner).to_contain_text(back, timeout=15_000)
    if shoot is not None:
        shoot(page, f"connection-banner-back-{lang}")
    expect(banner).to_be_hidden()
    # Back at the table: the same card plays now.
    page.locator('#my-row [data-source="row0"]').click()
    expect(page.locator('#middle [data-pile="0"]')).to_have_attribute("data-card", "R2")


def test_a_socket_closed_by_the_server_shows_the_banner_and_refuses_a_tap(
    server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE_390)
    line = Line(page)
    start_game(page, server)
    check_drop(page, shoot, "connection-banner-closed-en", "en", line.cut)
    page.clock.run_for(DROP_MS - SHOWN_WITHIN_MS)  # the rest of a 10 s drop
    line.mend()
    check_back(page, "en")


def test_a_silent_socket_is_noticed_by_the_heartbeat(
    server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    """Half-open: no close event, no offline event; only the missing pong tells."""
    page = new_page(PHONE_390)
    line = Line(page)
    start_game(page, server)
    check_drop(page, shoot, "connection-banner-silent-en", "en", line.silence)
    line.mend()
    check_back(page, "en")


def test_a_card_on_its_way_when_the_socket_goes_silent_is_reported(
    server: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    """Tapped in the moment before the heartbeat notices: the move went into
    a socket nobody reads. It gets no answer; the page says so, the card is
    back in its place, and after reconnecting the table shows it unplayed."""
    page = new_page(PHONE_390)
    line = Line(page)
    start_game(page, server)
    card = page.locator('#my-row [data-source="row0"]')
    line.silence()
    card.click()
    expect(card).to_have_class(re.compile(r"\bflying\b"))
    expect(page.locator("#link")).to_contain_text("reconnecting")
    expect(page.locator("#toast")).to_contain_text("the table shows whether your card was played")
    expect(card).not_to_have_class(re.compile(r"\bflying\b"))
    expect(card).to_have_attribute("data-card", "R2")
    shoot(page, "connection-banner-unconfirmed-en")
    line.mend()
    check_back(page, "en")


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_the_offline_switch_shows_the_banner_within_two_seconds(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    """A socket that goes silent without closing is noticed by the heartbeat."""
    page = new_page(PHONE_390)
    start_game(page, server, lang)

    def offline() -> None:
        page.context.set_offline(True)

    check_drop(page, shoot, f"connection-banner-offline-{lang}", lang, offline)
    resize(page, PHONE)  # the narrowest phone: the banner still fits
    shoot(page, f"connection-banner-offline-{lang}-360")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is {width}px wide"
    if lang == "en":
        found = [
            v["id"]
            for v in Axe().run(page).response["violations"]
            if v["impact"] in {"serious", "critical"}
        ]
        assert found == []
        assert small_targets(page) == []
        page.clock.run_for(DROP_MS - SHOWN_WITHIN_MS)  # the rest of a 10 s drop
    page.context.set_offline(False)
    check_back(page, lang, shoot)


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
def test_the_not_sent_toast_goes_once_the_connection_is_back(
    server: PlayServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    """The red "Not sent" lay over the cards after reconnecting, until its
    own 4 s ran out. The page's clock stands still from the tap on, so only
    the table's welcome can take it down."""
    lost, unsent, back = WORDS[lang]
    page = new_page(PHONE)
    start_game(page, server, lang)
    page.context.set_offline(True)  # the offline event: lost at once, no timer
    expect(page.locator("#link")).to_contain_text(lost)
    pause_clock(page)
    card = page.locator('#my-row [data-source="row0"]')
    card.click()
    toast = page.locator("#toast")
    expect(toast).to_contain_text(unsent)
    expect(toast).to_be_visible()
    page.context.set_offline(False)  # the online event: reconnects at once
    expect(page.locator("#link")).to_contain_text(back, timeout=15_000)
    expect(toast).to_be_hidden()
    expect(card).to_have_attribute("data-card", "R2")
    shoot(page, f"connection-toast-gone-{lang}")
    page.clock.resume()
    check_back(page, lang)
