"""A group's game on a phone (360×740): seating order, one colour per member, long names.

Screenshots land in test-artifacts/ (de, en, nb) for a person to look at.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import LiveServer, NewPage, Shoot
from helpers.tafel_pages import enter_middle, enter_stacks
from ligretto.tafel.limits import MAX_NAME_LENGTH

LONG_NAME = "Oma Gerda Wilhelmine von Hohenstein-Ahrweiler"[:MAX_NAME_LENGTH]


def create_group(page: Page, server: LiveServer, members: list[str]) -> str:
    """The group's edit page address, after creating it with *members*."""
    page.goto(server.url + "/groups/new")
    page.get_by_label("Name of the group").fill("Thursday table")
    page.get_by_label("Members, one name per line").fill("\n".join(members))
    page.get_by_role("button", name="Create group").click()
    expect(page).to_have_url(re.compile(r"/groups/[\w-]+/edit$"))
    return page.url


def start_game(page: Page, group_url: str, ticked: list[str]) -> None:
    """Tick *ticked* in this order (the seating order) and start a game of one round."""
    page.goto(group_url)
    for name in ticked:
        page.locator("#play").get_by_label(name, exact=True).check()
    page.locator("#play input[name=mode][value=rounds]").check()
    page.locator("#group-rounds").fill("1")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+/edit\b"))


def series_stroke(page: Page, name: str) -> str:
    """The computed stroke of *name*'s line in the page's first chart that has one."""
    stroke: str = page.evaluate(
        """(name) => {
            for (const g of document.querySelectorAll("svg.chart g.chart-series")) {
                if (g.querySelector("title").textContent.startsWith(name + ":")) {
                    return getComputedStyle(g.querySelector("polyline")).stroke;
                }
            }
            return null;
        }""",
        name,
    )
    assert stroke, f"no line of {name}"
    return stroke


def card_colour(page: Page, name: str) -> str:
    card = page.locator(".player").filter(has=page.locator(".name", has_text=name))
    colour: str = card.evaluate("(el) => getComputedStyle(el).borderLeftColor")
    return colour


def test_the_ticked_order_is_the_seating_order_and_a_member_keeps_one_colour(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    group_url = create_group(page, live_server, ["Anna", "Ben", "Cleo", "Kari"])
    page.goto(group_url)
    play = page.locator("#play")
    for name in ["Kari", "Anna", "Cleo"]:
        play.get_by_label(name, exact=True).check()
    numbers = {
        name: play.locator(".member-pick", has_text=name).locator("[data-seat-number]")
        for name in ["Anna", "Ben", "Cleo", "Kari"]
    }
    expect(numbers["Kari"]).to_have_text("1")
    expect(numbers["Anna"]).to_have_text("2")
    expect(numbers["Cleo"]).to_have_text("3")
    expect(numbers["Ben"]).to_have_text("")
    expect(play.locator("[data-seating-line]")).to_have_text(
        "Seating order: 1 Kari · 2 Anna · 3 Cleo"
    )
    # Unticking moves the ones after up a seat.
    play.get_by_label("Anna", exact=True).uncheck()
    expect(numbers["Cleo"]).to_have_text("2")
    play.get_by_label("Anna", exact=True).check()
    expect(numbers["Anna"]).to_have_text("3")
    shoot(page, "phone-group-seating")

    page.locator("#play input[name=mode][value=rounds]").check()
    page.locator("#group-rounds").fill("1")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+/edit\b"))
    expect(page.locator(".player .name")).to_have_text(["Kari", "Cleo", "Anna"])
    enter_stacks(page, 0, {1: 4, 2: 6})
    enter_middle(page, {0: 20, 1: 10, 2: 8})
    board = {name: card_colour(page, name) for name in ["Kari", "Cleo", "Anna"]}
    assert len(set(board.values())) == 3
    # Kari sits first, yet has the colour of the fourth member, not of the first seat.
    expect(page.locator(".player").first).to_have_class(re.compile(r"\bseat-3\b"))
    for name, colour in board.items():
        assert series_stroke(page, name) == colour

    page.goto(group_url + "?season=all")
    for name, colour in board.items():
        assert series_stroke(page, name) == colour, name

    page.goto(group_url.replace("/edit", "") + f"/members/{quote('Kari')}")
    mu = page.locator("svg.chart .chart-mu").evaluate("(el) => getComputedStyle(el).stroke")
    assert mu == board["Kari"]


TEXTS_OUTSIDE = """() => {
    const outside = [];
    for (const svg of document.querySelectorAll("svg.chart")) {
        const box = svg.viewBox.baseVal;
        for (const text of svg.querySelectorAll("text")) {
            const b = text.getBBox();
            if (b.x < box.x - 0.5 || b.y < box.y - 0.5
                || b.x + b.width > box.x + box.width + 0.5
                || b.y + b.height > box.y + box.height + 0.5) {
                outside.push(`${text.textContent} ${b.x},${b.y} ${b.width}x${b.height}`);
            }
        }
    }
    return outside;
}"""

CUT_NAMES = """() => [...document.querySelectorAll(".player")].flatMap((card) => {
    const name = card.querySelector(".name");
    const style = getComputedStyle(name);
    const cut = style.textOverflow === "ellipsis" && style.overflow !== "visible"
        || name.scrollWidth > name.clientWidth
        || name.getBoundingClientRect().right > card.getBoundingClientRect().right;
    return cut ? [name.textContent] : [];
})"""


def chart_count(page: Page) -> int:
    count: int = page.locator("svg.chart").count()
    return count


@pytest.mark.parametrize("language", ["en", "de", "nb"])
def test_long_names_are_readable_on_the_cards_and_inside_the_charts(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    """T1: a name of the longest length is whole on the card and in every chart at 360 px."""
    assert len(LONG_NAME) == MAX_NAME_LENGTH
    page = new_page()
    group_url = create_group(page, live_server, [LONG_NAME, "Oma Gerda", "Ben"])
    start_game(page, group_url, [LONG_NAME, "Oma Gerda", "Ben"])
    enter_stacks(page, 0, {1: 4, 2: 6})
    enter_middle(page, {0: 20, 1: 10, 2: 8})
    board_url = page.url.split("?")[0]
    short = new_page()
    short_group = create_group(short, live_server, ["Oma Gerda", "Kari"])
    start_game(short, short_group, ["Oma Gerda", "Kari"])
    enter_stacks(short, 1, {0: 3})
    enter_middle(short, {0: 12, 1: 18})
    pages = [
        (page, board_url, "board-long"),
        (page, group_url + "?season=all", "league-long"),
        (page, group_url.replace("/edit", "") + f"/members/{quote(LONG_NAME)}", "member-long"),
        (short, short.url.split("?")[0], "board-short"),
        (short, short_group + "?season=all", "league-short"),
    ]
    for tab, url, name in pages:
        tab.goto(f"{url}?lang={language}" if "?" not in url else f"{url}&lang={language}")
        assert chart_count(tab) >= 1, name
        assert tab.evaluate(TEXTS_OUTSIDE) == [], name
        assert tab.evaluate(CUT_NAMES) == [], name
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{name} is {width}px wide"
        shoot(tab, f"phone-colours-{name}-{language}")
    # The short name is named at the end of its line; the longest ones in a legend.
    expect(short.locator("svg.chart text.chart-label", has_text="Oma Gerda")).to_have_count(1)
