"""The front door: the start page's four doors, the header's links, joining by code or QR.

On a phone (360 and 390 px), a tablet and a laptop, in German, English and
Norwegian: the first screen offers keeping score, playing online, the
groups and the rules, and one tap leads to /play; a code typed in lower
case with a space finds its table; the lobby's QR code is the join link,
and the link seats a friend. The start page and the lobby pass axe and
the tap-target check. Screenshots go to test-artifacts/ (``door-*.png``).
"""

from __future__ import annotations

import re

import httpx
import pytest

# axe-playwright-python ships neither type hints nor a py.typed marker.
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import FloatRect, Page, ViewportSize, expect

from helpers.browser import ARTIFACTS, DESKTOP, PHONE, LiveServer, NewPage, Shoot, screenshot
from helpers.tafel_pages import create_game
from helpers.tap_targets import MIN_SIZE, small_targets
from ligretto.web.qr import qr_svg_document

PHONE_390: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 768, "height": 1024}
SIZES: dict[str, ViewportSize] = {
    "phone": PHONE,
    "phone390": PHONE_390,
    "tablet": TABLET,
    "desktop": DESKTOP,
}
TOUCH = {"phone": True, "phone390": True, "tablet": True, "desktop": False}
LANGUAGES = ("de", "en", "nb")
# The four doors and the header's links, in each language.
DOORS = {
    "de": ("Punkte zählen", "Online spielen", "Unsere Gruppen", "Regeln lernen"),
    "en": ("Keep score", "Play online", "Our groups", "Learn the rules"),
    "nb": ("Før poeng", "Spill på nett", "Våre grupper", "Lær reglene"),
}
HEADER = {
    "de": ("Spielen", "Gruppen", "Regeln"),
    "en": ("Play", "Groups", "Rules"),
    "nb": ("Spill", "Grupper", "Regler"),
}
JOIN = {"de": "Beitreten", "en": "Join", "nb": "Bli med"}
AXE = Axe()
BLOCKING = {"serious", "critical"}
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


def audit(page: Page, name: str, found: dict[str, str]) -> None:
    """axe's serious and critical violations, and on a touch screen the small tap targets."""
    results = AXE.run(page, options=AXE_OPTIONS)
    violations = [
        v for v in results.response["violations"] if v["impact"] in {"serious", "critical"}
    ]
    if violations:
        results.response["violations"] = violations
        found[name] = results.generate_report()
    if page.evaluate("matchMedia('(pointer: coarse)').matches") and (small := small_targets(page)):
        found[f"{name}: tap targets below {MIN_SIZE} px"] = "\n".join(small)


def open_lobby(page: Page, server: LiveServer, language: str = "en") -> str:
    """A table with Anna as host and seat 2 open for a person; its code."""
    page.goto(f"{server.url}/play?lang={language}")
    page.locator("#host-name").fill("Anna")
    page.locator("#seat1").select_option("open")
    page.locator("#new-table button[type=submit].primary").click()
    expect(page.locator("#lobby")).to_be_visible()
    code = page.locator("#play").get_attribute("data-code")
    assert code and re.fullmatch(r"[A-Z0-9]{6}", code)
    return code


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_screen_offers_the_four_doors_and_play_is_one_tap(
    live_server: LiveServer, new_page: NewPage, size: str, language: str
) -> None:
    viewport = SIZES[size]
    page = new_page(viewport, touch=TOUCH[size])
    page.goto(f"{live_server.url}/?lang={language}")
    # Every door on the first screen, none behind the new-game form.
    form = page.locator("#new-game").bounding_box()
    assert form
    for label in DOORS[language]:
        door = page.locator(".door-tile", has_text=label)
        box = door.bounding_box()
        assert box, label
        assert box["y"] + box["height"] <= viewport["height"], f"{label} below the first screen"
        assert box["y"] < form["y"], f"{label} after the form"
        assert box["width"] >= MIN_SIZE and box["height"] >= MIN_SIZE
    join = page.locator("#join-code").bounding_box()
    assert join and join["y"] < form["y"]
    # The header links Play, Groups and Rules.
    header = page.locator(".site-header")
    for label in HEADER[language]:
        expect(header.get_by_role("link", name=label, exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    screenshot(page, ARTIFACTS / f"door-home-{size}-{language}.png")  # the first screen
    # One tap: play online.
    page.locator(".door-tile", has_text=DOORS[language][1]).click()
    expect(page).to_have_url(re.compile(r"/play$"))
    expect(page.locator("#quick-game")).to_be_visible()
    expect(page.locator(".site-header .play-link")).to_have_attribute("aria-current", "page")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_code_typed_in_lower_case_with_a_space_joins_the_table(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    host = new_page(PHONE_390, touch=True)
    code = open_lobby(host, live_server, language)
    friend = new_page(PHONE_390, touch=True)
    friend.goto(f"{live_server.url}/?lang={language}")
    friend.locator("#join-code").fill(f"{code[:3].lower()} {code[3:].lower()}")
    friend.get_by_role("button", name=JOIN[language], exact=True).click()
    expect(friend).to_have_url(f"{live_server.url}/play/{code}")
    expect(friend.locator("#join-form")).to_be_visible()
    friend.locator("#join-name").fill("Ben")
    friend.locator("#join-form button[type=submit]").click()
    expect(host.locator("#seat-list")).to_contain_text("Ben")
    # An unknown code: said in words, the code kept to be fixed, nothing opened.
    friend.goto(f"{live_server.url}/play?lang={language}")
    friend.locator("#join-code").fill("zz zz zz")
    friend.get_by_role("button", name=JOIN[language], exact=True).click()
    expect(friend.locator("#join-code-error")).to_contain_text("ZZZZZZ")
    expect(friend.locator("#join-code")).to_have_value("zz zz zz")
    shoot(friend, f"door-join-unknown-{language}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_lobbys_qr_code_is_the_join_link_and_seats_a_friend(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, size: str
) -> None:
    host = new_page(SIZES[size], touch=TOUCH[size])
    code = open_lobby(host, live_server)
    qr = host.locator("#invite-qr")
    expect(qr).to_be_visible()
    url = qr.evaluate("img => new URL(img.dataset.url, location.href).href")
    assert url == f"{live_server.url}/play/{code}"
    # What the image shows is the QR code of exactly that link.
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
    svg = host.evaluate("src => fetch(src).then(r => r.text())", qr.get_attribute("src"))
    assert svg == qr_svg_document(url)
    # Large enough to scan from across the table; beside the code.
    box = qr.bounding_box()
    assert box and box["width"] >= (280 if size == "phone" else 300)
    expect(host.locator(".invite-code")).to_contain_text(code)
    shoot(host, f"door-lobby-{size}")
    # A friend's camera opens the link: the lobby with a seat to take.
    friend = new_page(PHONE)
    friend.goto(url)
    friend.locator("#join-name").fill("Cleo")
    friend.locator("#join-form button[type=submit]").click()
    expect(host.locator("#seat-list")).to_contain_text("Cleo")


def on_first_screen(page: Page, selector: str) -> FloatRect:
    """The box of ``selector`` when all of it lies on the first screen
    (the page not scrolled); fails naming it otherwise."""
    assert page.evaluate("scrollY") == 0
    viewport = page.viewport_size
    box = page.locator(selector).bounding_box()
    assert box and viewport, selector
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"]
        and box["y"] + box["height"] <= viewport["height"]
    )
    assert inside, f"{selector} at {box}, beyond {viewport}"
    return box


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_lobbys_code_and_qr_code_are_on_the_first_screen(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    # A host of four seats (two of them bots) holds a 360×740 phone up for
    # friends to scan: the code and the QR code need no scrolling.
    host = new_page(PHONE, touch=True)
    answer = host.request.post(
        f"{live_server.url}/api/tables",
        data={
            "seats": 4,
            "name": "Anna",
            "bots": [{"seat": 1, "strategy": "greedy"}, {"seat": 2, "strategy": "watchful"}],
        },
    ).json()
    code = answer["code"]
    host.goto(f"{live_server.url}/play/{code}?lang={language}#t={answer['host_token']}")
    expect(host.locator("#seat-list li")).to_have_count(4)
    expect(host.locator("#host-tools")).to_be_visible()
    qr = on_first_screen(host, "#invite-qr")
    assert qr["width"] >= 280  # still scanned from across the table
    on_first_screen(host, ".invite-code")
    expect(host.locator(".invite-code")).to_contain_text(code)
    # Beneath the heading of the seats, which the seats follow.
    title, seats = (
        host.locator("#lobby-title").bounding_box(),
        host.locator("#seat-list").bounding_box(),
    )
    assert title and seats and title["y"] < qr["y"] < seats["y"]
    shoot(host, f"door-lobby-first-screen-{language}")
    # A friend who opened the link and has yet to sit down sees the form
    # to take a seat first.
    friend = new_page(PHONE, touch=True)
    friend.goto(f"{live_server.url}/play/{code}?lang={language}")
    expect(friend.locator("#join-form")).to_be_visible()
    form = on_first_screen(friend, "#join-form")
    invite = friend.locator("#invite").bounding_box()
    assert invite and form["y"] < invite["y"]


def test_a_known_game_is_one_tap_from_a_new_game_with_its_players(
    live_server: LiveServer, new_page: NewPage
) -> None:
    page = new_page(PHONE)
    create_game(page, live_server, ["Anna", "Ben", "Cleo", "Dora", "Emil"], rounds=5)
    first = page.url
    page.wait_for_function("() => localStorage.getItem('ligretto.games')")  # the board remembers it
    page.goto(live_server.url + "/?lang=en")
    games = page.locator("#my-games-panel")
    games_box, form_box = games.bounding_box(), page.locator("#new-game").bounding_box()
    assert games_box and form_box and games_box["y"] < form_box["y"]  # the games before the form
    games.get_by_role("button", name=re.compile("^New game, same players")).click()
    # One tap: a new game's board, with the same players in their seats and
    # the same way of ending, and no round yet.
    page.wait_for_url(re.compile(r"/g/[^/]+/edit"))
    assert page.url.split("#")[0] != first.split("#")[0]
    game_id = page.url.split("/g/")[1].split("/")[0]
    game = httpx.get(f"{live_server.url}/api/games/{game_id}").json()
    assert game["players"] == ["Anna", "Ben", "Cleo", "Dora", "Emil"]
    assert (game["mode"], game["agreed_rounds"], game["rounds_count"]) == ("rounds", 5, 0)


def test_without_the_server_the_known_game_fills_the_form_instead(
    live_server: LiveServer, new_page: NewPage
) -> None:
    # The service worker would answer from its cache past the blocked route.
    page = new_page(PHONE, service_workers="block")
    create_game(page, live_server, ["Anna", "Ben", "Cleo"], rounds=5)
    page.wait_for_function("() => localStorage.getItem('ligretto.games')")
    page.goto(live_server.url + "/?lang=en")
    page.route("**/api/games/*", lambda route: route.abort())
    page.locator("#my-games-panel").get_by_role(
        "button", name=re.compile("^New game, same players")
    ).click()
    names = page.locator("#names input[name=player]")
    expect(names).to_have_count(3)
    assert [names.nth(i).input_value() for i in range(3)] == ["Anna", "Ben", "Cleo"]
    expect(page.locator("input[name=mode][value=rounds]")).to_be_checked()
    expect(page.get_by_role("button", name="Create game").last).to_be_focused()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_start_page_and_the_lobby_pass_axe_and_the_tap_targets(
    live_server: LiveServer, new_page: NewPage, scheme: str
) -> None:
    found: dict[str, str] = {}
    for language in LANGUAGES:
        page = new_page(PHONE, color_scheme=scheme)
        page.goto(f"{live_server.url}/?lang={language}")
        audit(page, f"start ({language})", found)
        page.goto(f"{live_server.url}/play/join?code=nope&lang={language}")
        audit(page, f"join refused ({language})", found)
        open_lobby(page, live_server, language)
        audit(page, f"lobby ({language})", found)
    reports = [f"== {name} ({scheme}) ==\n{report}" for name, report in found.items()]
    assert not found, "\n\n".join(reports)
