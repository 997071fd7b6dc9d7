"""The Tafel pages' details: fingers, twelve colours, the turned table, Stop, early messages.

Phone 390×844 with a touch screen and a desktop, light and dark where
colours matter. Games with many rounds are created over the JSON API (the
board's forms are tested elsewhere); screenshots go to test-artifacts/
(``details-…``) for a person to look at in German, English and Norwegian.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from helpers.browser import ARTIFACTS, DESKTOP, LiveServer, NewPage, Shoot, screenshot
from helpers.tafel_pages import create_game
from helpers.tap_targets import small_targets

PHONE_390: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 768, "height": 1024}
SIZES: dict[str, ViewportSize] = {"phone": PHONE_390, "tablet": TABLET, "desktop": DESKTOP}
MINUS = "\u2212"
TWELVE = [
    "Anna",
    "Ben",
    "Cleo",
    "Dagny",
    "Emil",
    "Frida",
    "Gustav",
    "Hanna",
    "Ida",
    "Jonas",
    "Kari",
    "Lars",
]


def phone(new_page: NewPage, **options: object) -> Page:
    return new_page(PHONE_390, touch=True, **options)


def api_game(page: Page, server: LiveServer, names: list[str], rounds: int) -> str:
    """A game with *rounds* complete rounds, made over the API; its edit address."""
    body: dict[str, Any] = page.request.post(
        server.url + "/api/games", data={"players": names, "mode": "target", "target": 999}
    ).json()
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    for number in range(1, rounds + 1):
        caller = number % len(names)
        stacks = [0 if seat == caller else (seat + number) % 9 + 1 for seat in range(len(names))]
        middle = [10 - stack + (seat * number) % 7 for seat, stack in enumerate(stacks)]
        url = f"{server.url}/api/games/{body['id']}/rounds"
        assert page.request.post(url, data={"stacks": stacks}, headers=auth).ok
        assert page.request.put(f"{url}/{number}", data={"middle": middle}, headers=auth).ok
    return f"{server.url}/g/{body['id']}/edit#t={body['edit_token']}"


# --- 1. tap targets ------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_every_tafel_page_has_finger_sized_targets_in_each_language(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    page = phone(new_page)
    found: dict[str, list[str]] = {}

    def measure(name: str) -> None:
        if small := small_targets(page):
            found[name] = small

    page.goto(f"{live_server.url}/?lang={lang}")
    measure("start")
    edit = api_game(page, live_server, ["Anna", "Ben", "Cleo"], 2)
    page.goto(edit)
    expect(page.locator("#stack-0")).to_be_visible()
    measure("board: stacks")
    shoot(page, f"details-phone-{lang}-board")
    page.locator("input[name=stop][value='0']").check()
    page.locator("#stack-1").fill("3")
    page.locator("#stack-2").fill("4")
    page.locator("form[data-entry=stacks] button.primary").click()
    expect(page.locator("#middle-0")).to_be_visible()
    measure("board: middle")
    watch_url = page.locator("#watch-link").input_value()
    # "Change the stacks of round 3" stands on its own line: a finger's height.
    # (The saved-notice's "Correct it" link goes there too.)
    change = page.locator("a.block-link[href$='/rounds/3']:not(.notice a)")
    box = change.bounding_box()
    assert box and box["height"] >= 44
    change.click()
    expect(page.locator("#stack-1")).to_have_value("3")
    measure("correct round 3")
    page.locator("a.block-link").first.click()
    expect(page.locator("#middle-0")).to_be_visible()
    page.locator("a[href$='/history']").first.click()
    expect(page.locator(".history li").first).to_be_visible()
    measure("history")
    page.goto(watch_url)
    expect(page.locator("#live")).to_have_attribute("data-state", "live")
    measure("watch")
    page.goto(f"{live_server.url}/rules?lang={lang}")
    measure("rules")
    page.goto(f"{live_server.url}/play?lang={lang}")
    measure("play form")
    assert found == {}, found


def test_opponent_cards_on_the_table_are_readable(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = phone(new_page)
    bots = [{"seat": seat, "strategy": "greedy", "level": "easy"} for seat in range(1, 8)]
    answer: dict[str, Any] = page.request.post(
        live_server.url + "/api/tables", data={"seats": 8, "name": "Anna", "bots": bots}
    ).json()
    page.goto(f"{live_server.url}/play/{answer['code']}?lang=nb#t={answer['host_token']}")
    expect(page.locator("#seat-list li")).to_have_count(8)
    assert small_targets(page) == []
    page.locator("#start").click()
    # The countdown of the default table settings comes first.
    expect(page.locator("#play")).to_have_attribute("data-phase", "playing", timeout=20_000)
    # The Norwegian bar stays one line at phone width, "Runde 1" with it.
    expect(page.locator("#round-info")).to_contain_text("1", timeout=10_000)
    code = page.locator(".play-bar .table-code").bounding_box()
    info = page.locator("#round-info").bounding_box()
    bar = page.locator(".play-bar").bounding_box()
    assert code and info and bar
    assert (
        info["height"] < 30
        and abs(info["y"] + info["height"] / 2 - code["y"] - code["height"] / 2) < 4
    )
    assert bar["height"] <= 48, bar
    expect(page.locator(".opponent .card").first).to_be_visible(timeout=10_000)
    sizes = page.evaluate(
        """() => [...document.querySelectorAll(
             '.opponent .card, .opponent .opp-name, .opponent .opp-counts')]
           .filter((el) => el.getBoundingClientRect().width && el.textContent.trim())
           .map((el) => parseFloat(getComputedStyle(el).fontSize))"""
    )
    assert sizes and min(sizes) >= 12, sizes
    shoot(page, "details-phone-nb-table-8")
    screenshot(page.locator(".play-bar"), ARTIFACTS / "details-phone-nb-table-bar.png")


# --- 2. twelve players --------------------------------------------------------

SERIES = """() => [...document.querySelectorAll('svg.chart .chart-series')].map((g) => {
  const line = g.querySelector('polyline');
  const mark = g.querySelector('.chart-end');
  const shape = [...mark.classList].find((c) => c.startsWith('mark-'));
  return [getComputedStyle(line).stroke, shape, line.getAttribute('stroke-dasharray') || ''];
})"""
DOTS = """() => [...document.querySelectorAll('#players .player')].map((p) =>
  getComputedStyle(p).borderLeftColor)"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_twelve_players_have_twelve_colours_and_a_second_cue(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, scheme: str
) -> None:
    page = phone(new_page, color_scheme=scheme)
    page.goto(api_game(page, live_server, TWELVE, 4))
    lines: list[list[str]] = page.evaluate(SERIES)
    assert len(lines) == 12
    assert len({colour for colour, _, _ in lines}) == 12, lines
    # Beside the colour: a marker shape and a dash pattern, never the same pair twice.
    assert len({(shape, dash) for _, shape, dash in lines}) == 12, lines
    assert len(set(page.evaluate(DOTS))) == 12
    # The legend names every line with the same cues, the name beside it.
    legend = page.locator(".legend li")
    expect(legend).to_have_count(12)
    expect(legend.locator("svg.legend-key")).to_have_count(12)
    expect(legend.nth(11)).to_contain_text("Lars")
    keys = page.evaluate(
        """() => [...document.querySelectorAll('.legend svg.legend-key line')]
           .map((l) => getComputedStyle(l).stroke)"""
    )
    assert keys == [colour for colour, _, _ in lines]
    shoot(page, f"details-{scheme}-twelve-board")
    chart = page.locator("figure.chart-box")
    screenshot(chart, ARTIFACTS / f"details-{scheme}-twelve-chart.png")


# --- 3. the turned table ------------------------------------------------------

WHAT_IS_AT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  const cell = el?.closest('th, td');
  return cell ? `${cell.className}|${cell.tagName}` : '';
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_turned_table_keeps_names_header_and_totals_in_sight(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, size: str
) -> None:
    page = phone(new_page) if size == "phone" else new_page(DESKTOP)
    page.goto(api_game(page, live_server, TWELVE[:8], 30))
    table = page.locator("table.rounds.transposed")
    expect(table).to_be_visible()
    wrap = page.locator(".table-wrap")
    wrap.scroll_into_view_if_needed()
    area = wrap.bounding_box()
    assert area
    assert page.evaluate("(w) => w.scrollWidth > w.clientWidth", wrap.element_handle())
    # Only the table scrolls sideways, never the page (a phone would zoom out).
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]

    def sum_cells_in_sight() -> None:
        for cell in table.locator(".sum-col").all():
            box = cell.bounding_box()
            assert box and area
            assert box["x"] + box["width"] <= area["x"] + area["width"] + 1
            assert box["x"] >= area["x"]

    # Σ is in sight before any scrolling, and after scrolling half way.
    sum_cells_in_sight()
    wrap.evaluate("(w) => { w.scrollLeft = (w.scrollWidth - w.clientWidth) / 2; }")
    sum_cells_in_sight()
    # The names stay on top of the round cells and their Stop marks.
    wrap.evaluate("(w) => window.scrollTo(0, w.getBoundingClientRect().top + scrollY - 100)")
    area = wrap.bounding_box()
    for row in range(8):
        name = table.locator("tbody th[scope=row]").nth(row)
        expect(name).to_be_visible()
        box = name.bounding_box()
        assert box
        hit = page.evaluate(WHAT_IS_AT, [box["x"] + box["width"] - 3, box["y"] + box["height"] / 2])
        assert hit.endswith("|TH"), (row, hit)
    header = table.locator("thead th.player-col")
    expect(header).to_have_text("Player")
    box = header.bounding_box()
    assert box and area and box["x"] >= area["x"] - 1
    hit = page.evaluate(WHAT_IS_AT, [box["x"] + 4, box["y"] + box["height"] / 2])
    assert "player-col" in hit
    screenshot(wrap, ARTIFACTS / f"details-{size}-turned-table-scrolled.png")


# --- 4. one Ligretto Stop -----------------------------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_t2_a_second_stop_moves_the_call(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, size: str
) -> None:
    page = phone(new_page) if size == "phone" else new_page(DESKTOP)
    create_game(page, live_server, ["Anna", "Ben", "Cleo"])
    expect(page.locator("#live")).to_have_attribute("data-state", "live")  # the script runs
    page.locator("#stack-0").fill("4")
    page.get_by_label("Ben: Ligretto Stop").check()
    expect(page.locator("#stack-1")).to_have_value("0")
    page.get_by_label("Anna: Ligretto Stop").check()
    # The Stop moved: Ben's is off and his field empty again, Anna's 4 became her 0.
    expect(page.get_by_label("Ben: Ligretto Stop")).not_to_be_checked()
    expect(page.locator("#stack-1")).to_have_value("")
    expect(page.locator("#stack-0")).to_have_value("0")
    expect(page.locator("input[name=stop]:checked")).to_have_count(1)
    expect(page.locator(".entry.is-caller")).to_have_count(1)
    # Moving it back gives Anna her 4 again.
    page.get_by_label("Ben: Ligretto Stop").check()
    expect(page.locator("#stack-0")).to_have_value("4")
    page.locator("#stack-2").fill("2")
    page.get_by_role("button", name="Save stacks").click()
    expect(page.locator("#status")).to_contain_text("Round 1: waiting for the middle")
    shoot(page, f"details-{size}-stop-moved")


def test_t2_without_javascript_two_stops_are_refused_with_the_reason(
    live_server: LiveServer, new_page: NewPage
) -> None:
    plain = phone(new_page, java_script_enabled=False)
    # Without JavaScript the fragment cannot hand over the token: the older
    # link with the token in its path is how such a browser edits.
    edit = api_game(plain, live_server, ["Anna", "Ben", "Cleo"], 0)
    plain.goto(edit.replace("/edit#t=", "/edit/"))
    plain.get_by_label("Anna: Ligretto Stop").check()
    plain.get_by_label("Ben: Ligretto Stop").check()
    plain.locator("#stack-2").fill("5")
    plain.get_by_role("button", name="Save stacks").click()
    expect(plain.get_by_role("alert")).to_contain_text(
        "Two empty stacks (Anna & Ben): only one player can call Ligretto Stop."
    )
    expect(plain.locator("#stack-2")).to_have_value("5")


# --- 5. messages as soon as a number is typed ---------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_t2_t3_each_field_speaks_as_soon_as_it_is_typed(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, size: str
) -> None:
    page = phone(new_page) if size == "phone" else new_page(DESKTOP)
    create_game(page, live_server, ["Anna", "Ben", "Cleo"])
    expect(page.locator("#live")).to_have_attribute("data-state", "live")  # the script runs
    ben, ben_error = page.locator("#stack-1"), page.locator("#stack-1-error")
    ben_preview = page.locator(".entry[data-player='1'] .preview")
    # 11 is reported at once, while every other field is still empty.
    ben.fill("11")
    expect(ben_error).to_have_text("Ben: a Ligretto stack holds 0 to 10 cards.")
    expect(ben).to_have_attribute("aria-invalid", "true")
    expect(ben_preview).to_have_text("")
    expect(page.locator("#stack-0-error")).to_have_text("")
    shoot(page, f"details-{size}-stack-of-eleven")
    # −1 is out of range too, not "not a whole number".
    ben.fill("-1")
    expect(ben_error).to_have_text("Ben: a Ligretto stack holds 0 to 10 cards.")
    expect(ben_preview).to_have_text("")
    # A number that fits: the message goes, the points come.
    ben.fill("2")
    expect(ben_error).to_have_text("")
    expect(ben).not_to_have_attribute("aria-invalid", "true")
    expect(ben_preview.locator(".points")).to_have_text(f"{MINUS}4")
    # A field out of range keeps the form from being sent, with its message.
    page.get_by_label("Anna: Ligretto Stop").check()
    page.locator("#stack-2").fill("12")
    page.get_by_role("button", name="Save stacks").click()
    expect(page.get_by_text("No rounds yet.")).to_be_visible()
    assert page.locator("#stack-2").evaluate("(i) => i.validationMessage") == (
        "Cleo: a Ligretto stack holds 0 to 10 cards."
    )
    # A second typed 0 names both empty stacks at once (the server refuses them).
    page.locator("#stack-2").fill("0")
    expect(page.locator("#stack-2-error")).to_have_text(
        "Two empty stacks (Anna & Cleo): only one player can call Ligretto Stop."
    )
    page.locator("#stack-2").fill("5")
    expect(page.locator("#stack-2-error")).to_have_text("")
    page.get_by_role("button", name="Save stacks").click()
    # The middle: 0 to 40 − stack, said as soon as it is typed.
    middle = page.locator("#middle-1")
    middle.fill("39")
    expect(page.locator("#middle-1-error")).to_have_text(
        "Ben: the middle can hold 0 to 38 of their cards."
    )
    expect(page.locator(".entry[data-player='1'] .preview")).to_have_text("")
    middle.fill("12")
    expect(page.locator("#middle-1-error")).to_have_text("")
    expect(page.locator(".entry[data-player='1'] .preview .points")).to_have_text("+8")


# --- screenshots in three languages and three sizes ---------------------------


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
@pytest.mark.parametrize("size", ["phone", "tablet", "desktop"])
def test_screenshots_of_a_big_board(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, size: str, lang: str
) -> None:
    page = phone(new_page) if size == "phone" else new_page(SIZES[size])
    page.goto(api_game(page, live_server, TWELVE[:9], 6).replace("#", f"?lang={lang}#"))
    expect(page.locator("table.rounds.transposed")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], width
    # The phone's round heading stays on one line.
    heading = page.locator("#entry-title")
    box = heading.bounding_box()
    line = heading.evaluate("(h) => parseFloat(getComputedStyle(h).lineHeight) || 30")
    assert box and box["height"] < 1.8 * line
    shoot(page, f"details-{size}-{lang}-nine-players")
