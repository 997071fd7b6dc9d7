"""A group on a phone (Chromium at 360×740): create it, play two short games, read the league;
a family's table (most wins first) and a member's page that leads with words.

Screenshots land in test-artifacts/ (light and dark) for a person to look at.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from helpers.browser import ARTIFACTS, LOCALES, PHONE, LiveServer, NewPage, Shoot, screenshot
from helpers.tafel_pages import enter_middle, enter_stacks
from helpers.tap_targets import small_targets
from ligretto.tafel import Game
from ligretto.tafel.exchange import game_to_json
from ligretto.tafel.limits import MAX_NAME_LENGTH


def assert_no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"  # type: ignore[index]


def play_one_round_game(
    page: Page,
    group_url: str,
    players: list[str],
    caller: int,
    stacks: dict[int, int],
    middle: dict[int, int],
) -> None:
    page.goto(group_url)
    for name in players:
        page.locator("#play").get_by_label(name, exact=True).check()
    page.locator("#play input[name=mode][value=rounds]").check()
    page.locator("#group-rounds").fill("1")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+/edit\b"))
    enter_stacks(page, caller, stacks)
    enter_middle(page, middle)


def test_a_group_plays_two_games_and_shows_its_league_on_a_phone(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="New group").click()
    page.get_by_label("Name of the group").fill("Thursday table")
    page.get_by_label("Members, one name per line").fill("Anna\nBen\nCleo")
    shoot(page, "phone-group-new")
    page.get_by_role("button", name="Create group").click()
    expect(page).to_have_url(re.compile(r"/groups/[\w-]+/edit$"))  # the token left the address
    group_url = page.url
    token = page.evaluate("JSON.parse(localStorage.getItem('ligretto.group-tokens'))")
    assert list(token) == [group_url.split("/")[-2]]
    expect(page.locator("#group-edit-link")).to_have_value(re.compile(r"/edit#t=[\w-]+$"))
    play_one_round_game(page, group_url, ["Anna", "Ben"], 0, {1: 4}, {0: 20, 1: 10})
    play_one_round_game(page, group_url, ["Ben", "Cleo"], 0, {1: 3}, {0: 22, 1: 8})
    page.goto(group_url + "?season=all")
    rows = page.locator("table.family tbody th a")
    expect(rows).to_have_text(["Anna", "Ben", "Cleo"])
    # Anna and Ben won one game each: Anna leads on her win rate, not on wins.
    expect(page.locator(".family-lead")).to_have_text("Anna leads: 1 of 1 game won.")
    expect(page.locator(".game-history li")).to_have_count(2)
    expect(page.locator("#league svg.chart polyline")).to_have_count(3)
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-group-league")
    page.locator("table.league").get_by_role("link", name="Ben").click()
    expect(page.get_by_role("heading", name="Ben", exact=True)).to_be_visible()
    expect(page.locator("svg.chart")).to_have_count(2)
    expect(page.locator("dl.big-numbers")).to_contain_text("Wins")
    assert_no_horizontal_scroll(page)
    shoot(page, "phone-group-member")
    dark = new_page(color_scheme="dark", locale="de-DE")
    dark.goto(page.url + "?lang=de")
    expect(dark.get_by_role("heading", name="Direkter Vergleich")).to_be_visible()
    assert_no_horizontal_scroll(dark)
    shoot(dark, "phone-group-member-dark-de")
    dark.goto(group_url.replace("/edit", "") + "?season=all&lang=nb")
    expect(dark.get_by_role("heading", name=re.compile("Tabell"))).to_be_visible()
    assert_no_horizontal_scroll(dark)
    shoot(dark, "phone-group-league-dark-nb")


LONG_NAME = ("Bartholomäus-Friedrich-Wilhelm-Zimmermann" * 2)[:MAX_NAME_LENGTH]
"""A member with a name of the longest length (T1), without a space to break it at."""

KARI_WINS = [30, 22, 14]  # Kari, Ola, Per: Kari first, Ola second (R5 points)
PER_WINS = [14, 22, 30]


def family_export() -> dict[str, object]:
    """Kari wins 4 of 6, Per 2, Ola none but is second every time: OpenSkill rates Ola
    highest, the family counts Kari's wins. The long name wins one game against Per."""
    members = ["Kari", "Ola", "Per", LONG_NAME]
    start = datetime(2025, 5, 1, 19, 0, tzinfo=UTC)
    games = []
    for day, points in enumerate([KARI_WINS, PER_WINS, KARI_WINS, PER_WINS, KARI_WINS, KARI_WINS]):
        games.append((["Kari", "Ola", "Per"], points, start + timedelta(days=day)))
    games.append(([LONG_NAME, "Per"], [20, 10], start + timedelta(days=10)))
    exported = []
    for players, points, when in games:
        game = Game(players, mode="rounds", agreed_rounds=1)
        stacks = [0] + [3] * (len(players) - 1)
        game.complete_round(
            game.open_round(stacks).number,
            [p + 2 * s for p, s in zip(points, stacks, strict=True)],
        )
        exported.append(
            {
                "played_at": when.isoformat(),
                "game": game_to_json(
                    game, game_id="x", version=1, created_at=when, updated_at=when
                ),
            }
        )
    return {"name": "Familien", "members": members, "games": exported}


def import_family(page: Page, live_server: LiveServer) -> dict[str, str]:
    answer = page.request.post(live_server.url + "/api/groups/import", data=family_export())
    assert answer.status == 201, answer.text()
    created: dict[str, str] = answer.json()
    return created


EXPLAINED = {
    "nb": "Styrke er hvor sterk vi tror hver spiller er, ut fra hvem som endte foran hvem; "
    "den blir sikrere etter noen spill.",
    "de": "Die Stärke sagt, wie stark wir jeden Spieler einschätzen, danach, wer vor wem "
    "landete; nach ein paar Spielen wird sie verlässlicher.",
}
LEAD = {
    "nb": "Kari har vunnet mest: 4 av 6 spill.",
    "de": "Kari hat am meisten gewonnen: 4 von 6 Spielen.",
}
FORM = {
    "nb": "vant 3 av de siste 5 spillene · 2 seire på rad",
    "de": ("3 der letzten 5 Spiele gewonnen · 2 Siege in Folge"),
}
INTERVAL = {"nb": "Konfidensintervall", "de": "Vertrauensbereich"}
LOCALE = {"nb": "nb-NO", "de": "de-DE"}


def assert_not_cut(page: Page, selector: str) -> None:
    """Every element of *selector* shows its whole text: no ellipsis, nothing past its box."""
    cut = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
          const style = getComputedStyle(el);
          const box = el.getBoundingClientRect();
          return style.textOverflow === "ellipsis" || el.scrollWidth > el.clientWidth + 1
            || box.right > document.documentElement.clientWidth + 0.5;
        }).map((el) => el.textContent.trim())""",
        selector,
    )
    assert cut == [], f"cut at 360 px: {cut}"


@pytest.mark.parametrize("language", ["nb", "de"])
def test_t5_the_family_table_puts_most_wins_first_and_tells_the_rating_in_words(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    page = new_page(PHONE, locale=LOCALE[language])
    group = import_family(page, live_server)
    page.goto(f"{live_server.url}/groups/{group['id']}?season=all&lang={language}")
    expect(page.locator(".family-lead")).to_have_text(LEAD[language])
    names = page.locator("table.family tbody th a")
    expect(names).to_have_text(["Kari", "Per", LONG_NAME, "Ola"])
    expect(page.locator("table.family tbody tr").first.locator(".form-words")).to_have_text(
        FORM[language]
    )
    # The rating waits behind "details"; opened, it says in one sentence what it is.
    strength = page.locator("#strength")
    expect(strength.locator("table")).to_be_hidden()
    expect(page.get_by_text(EXPLAINED[language])).to_be_hidden()
    strength.locator("summary").click()
    expect(page.get_by_text(EXPLAINED[language])).to_be_visible()
    expect(strength.locator("tbody th a").first).to_have_text("Ola")  # rated highest
    assert_no_horizontal_scroll(page)
    assert_not_cut(page, "table.league th[scope=row] a, .member-list a, h1")
    shoot(page, f"phone-group-family-{language}")


@pytest.mark.parametrize("language", ["nb", "de"])
def test_a_member_page_leads_with_words_and_keeps_the_interval_behind_details(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, language: str
) -> None:
    page = new_page(PHONE, locale=LOCALE[language])
    group = import_family(page, live_server)
    page.goto(f"{live_server.url}/groups/{group['id']}?season=all&lang={language}")
    page.locator("table.family").get_by_role("link", name="Kari").click()
    expect(page.get_by_role("heading", name="Kari", exact=True)).to_be_visible()
    lead = page.locator(".family-lead")
    expect(lead).to_be_in_viewport()
    expect(page.locator("dl.big-numbers dd").first).to_have_text("4")
    # The first screen (nothing opened yet) speaks of no interval and no ± at all.
    shown = page.evaluate("document.body.innerText")
    assert INTERVAL[language] not in shown and "±" not in shown and "95" not in shown
    expect(page.get_by_text(INTERVAL[language])).to_be_hidden()
    shoot(page, f"phone-group-member-{language}")
    page.locator("#member-details summary").click()
    expect(page.get_by_text(INTERVAL[language])).to_be_visible()
    expect(page.locator("#member-details svg.chart")).to_have_count(2)
    assert_no_horizontal_scroll(page)
    page.locator("#member-details h3").first.scroll_into_view_if_needed()
    shoot(page, f"phone-group-member-details-{language}")
    # A name of the longest length wraps on its own page instead of being cut.
    page.goto(f"{live_server.url}/groups/{group['id']}?season=all&lang={language}")
    page.locator("table.family").get_by_role("link", name=LONG_NAME).click()
    expect(page.get_by_role("heading", name=LONG_NAME)).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_not_cut(page, "h1, .family-lead, table.league th[scope=row] a")
    shoot(page, f"phone-group-member-long-{language}")


EVENING = [
    (["Anna", "Bestemor", "Bestefar"], {"Anna": 0, "Bestemor": 4, "Bestefar": 2}),
    (["Bestemor", "Bestefar"], {"Bestemor": 0, "Bestefar": 5}),
    (["Anna", "Bestemor", "Bestefar"], {"Anna": 3, "Bestemor": 0, "Bestefar": 1}),
]
"""Three games of one evening, each of one round, with their stacks (T2)."""


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_each_game_of_an_evening_has_a_link_of_its_own_a_finger_high(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot, lang: str
) -> None:
    # The games list linked each game by its date alone: the same 19 px
    # "6 Dec 2026" three times over. Now each link says the day, the time
    # (in the reader's zone) and everyone's total, the highest first.
    page = new_page(PHONE, locale=LOCALES[lang], timezone_id="Europe/Oslo")
    group = page.request.post(f"{live_server.url}/api/groups", data={"name": "Kveld"}).json()
    auth = {"Authorization": f"Bearer {group['token']}"}
    known: set[str] = set()
    for players, stacks in EVENING:
        body = {"players": players, "mode": "rounds", "rounds": 1}
        body["new_members"] = [p for p in players if p not in known]
        known.update(players)
        made = page.request.post(
            f"{live_server.url}/api/groups/{group['id']}/games", data=body, headers=auth
        )
        game = made.json()["game"]
        rounds = f"{live_server.url}/api/games/{game['id']}/rounds"
        game_auth = {"Authorization": f"Bearer {game['edit_token']}"}
        assert page.request.post(rounds, data={"stacks": stacks}, headers=game_auth).ok
        middle = {p: 10 + 2 * i for i, p in enumerate(players)}
        assert page.request.put(f"{rounds}/1", data={"middle": middle}, headers=game_auth).ok
    page.goto(f"{live_server.url}/groups/{group['id']}?lang={lang}")
    links = page.locator(".game-history a.game-link")
    expect(links).to_have_count(3)
    # The time as the reader's clock says it, written by the page's script.
    local = page.evaluate(
        """(lang) => [...document.querySelectorAll('.game-history time[data-local=time]')]
             .map((t) => new Intl.DateTimeFormat(lang, {timeStyle: 'short'})
             .format(new Date(t.dateTime)))""",
        lang,
    )
    expect(page.locator(".game-history time[data-local=time]")).to_have_text(local)
    names = [links.nth(i).inner_text().replace("\n", " ") for i in range(3)]
    assert len(set(names)) == 3, names
    # Newest first: the last game's totals (Bestemor 12, Anna 4 …) lead its link.
    assert "Bestemor 12 · Bestefar 12 · Anna 4" in names[0], names
    assert "UTC" not in " ".join(names)
    for i in range(3):
        box = links.nth(i).bounding_box()
        assert box and box["height"] >= 44, names[i]
    assert small_targets(page) == []
    screenshot(page.locator("#history"), ARTIFACTS / f"group-games-{lang}.png")
    links.nth(2).click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
    shoot(page, f"group-games-first-{lang}")
