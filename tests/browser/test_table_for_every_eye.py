"""The table for every eye: cards told apart by shape, names in the page's
language, a high-contrast look, no motion when asked, large text.

Each of the four colours has its own symbol on every card (red and green
look alike to about one man in twelve); every accessible name on the table
speaks the page's language ("grün 3", not "green 3"); the high-contrast
toggle is remembered and follows the system's "more contrast"; with reduced
motion nothing moves; at twice the browser's font size every button of the
table is still there to tap. The colours themselves are checked under
simulated colour blindness in tests/web/test_card_colours.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from helpers.axe import audit
from helpers.browser import PHONE, NewPage, PlayServer, Shoot, serving
from helpers.play import sit_down_against_a_bot, tools_in_view
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
# The words a German or Norwegian table must not say.
ENGLISH_COLOURS = re.compile(r"\b(red|green|blue|yellow)\b", re.IGNORECASE)
OWN_COLOURS = {
    "de": re.compile(r"\b(rot|grün|blau|gelb)\b"),
    "nb": re.compile(r"\b(rød|grønn|blå|gul)\b"),
    "en": ENGLISH_COLOURS,
}
# The high-contrast colours (css/cards.css, data-contrast="on").
CONTRAST_RED = "rgb(192, 40, 30)"


def four_colours(players: int, seed: int, options: RuleOptions) -> Round:
    """Every colour open on the table: R2, G3, B4 and Y5 in each row, an R1
    and a B1 pile in the middle."""
    stack = ["G10", "G9", "G8", "G7", "G6", "G5", "G4", "Y10", "Y9", "Y8"]
    return Round.from_snapshot(
        {
            "players": players,
            "options": options.to_dict(),
            "seats": [
                {"stack": stack, "row": [["R2"], ["G3"], ["B4"], ["Y5"], ["B6"]]},
                {"stack": stack, "row": [["R2"], ["G3"], ["B4"], ["Y5"], ["Y6"]]},
            ],
            "middle": [
                {"id": 0, "cards": [{"card": "R1", "owner": 1}]},
                {"id": 1, "cards": [{"card": "B1", "owner": 0}]},
            ],
        },
        seed=seed,
        fill_hand=True,
    )


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """Bots slowed right down: the table stays as dealt."""
    settings = TableSettings(
        countdown=0.5, between_rounds=60.0, away_after=60.0, bot_pace=80.0, dealer=four_colours
    )
    yield from serving(PlayServer(tmp_path_factory.mktemp("every-eye"), settings))


def sit_down(page: Page, server: PlayServer, lang: str = "en") -> None:
    """Host a two-seat table against a bot and start it; wait for my cards."""
    sit_down_against_a_bot(page, server, lang)
    expect(page.locator("#mine .card[data-card]").first).to_be_visible()


def open_tools(page: Page) -> None:
    """On a phone the table's tools are behind the "?" beside my cards."""
    if not tools_in_view(page):
        page.locator("#help").click()
    expect(page.locator("#contrast-toggle")).to_be_visible()


# Every card face on the table: its colour letter, its symbol's shape and size.
FACES = """() => [...document.querySelectorAll('#board .card[data-card]')].map(card => {
  const sym = card.querySelector(':scope > svg.sym');
  const box = sym ? sym.getBoundingClientRect() : null;
  return {card: card.dataset.card, shape: sym ? sym.dataset.shape : null,
          width: box ? box.width : 0, height: box ? box.height : 0};
})"""

# Every accessible name the table gives (aria-label, title) and the text of
# every button, with the element it belongs to.
NAMES = """() => [...document.querySelectorAll('#play *')].flatMap(el => {
  const names = [];
  for (const attr of ['aria-label', 'title']) {
    if (el.getAttribute(attr)) names.push(el.getAttribute(attr));
  }
  if (el.matches('button, a') && !el.closest('[hidden]')) names.push(el.textContent.trim());
  return names.map(name => [el.id || el.className, name]);
})"""


def test_every_card_shows_its_colours_own_symbol(
    dealt: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    sit_down(page, dealt)
    faces = page.evaluate(FACES)
    shapes: dict[str, set[str]] = {}
    for face in faces:
        assert face["shape"], f"{face['card']} has no symbol"
        # Visible on a 360 px phone, on the others' small cards too.
        assert face["width"] >= 8 and face["height"] >= 8, face
        shapes.setdefault(face["card"][0], set()).add(face["shape"])
    assert set(shapes) == {"R", "G", "B", "Y"}, shapes
    # One shape per colour, and no two colours share one.
    assert all(len(s) == 1 for s in shapes.values()), shapes
    assert len({s.pop() for s in shapes.values()}) == 4
    shoot(page, "every-eye-symbols")


@pytest.mark.parametrize("lang", ["de", "en", "nb"])
def test_the_tables_names_speak_the_pages_language(
    dealt: PlayServer, new_page: NewPage, lang: str
) -> None:
    page = new_page(PHONE, locale={"de": "de-DE", "en": "en-GB", "nb": "nb-NO"}[lang])
    sit_down(page, dealt, lang)
    names: list[list[str]] = page.evaluate(NAMES)
    # What a screen reader says of the buttons, too.
    buttons = page.get_by_role("button").all()
    names += [["button", b.get_attribute("aria-label") or b.inner_text()] for b in buttons]
    labels = " | ".join(name for _, name in names)
    assert OWN_COLOURS[lang].search(labels), labels  # the cards are named at all
    if lang != "en":
        english = [(where, name) for where, name in names if ENGLISH_COLOURS.search(name)]
        assert not english, english
    # A card's name: "10 im Stapel: grün 4" (my stack), "rot 2" (my row).
    stack = page.locator('#mine [data-source="stack"]').get_attribute("aria-label") or ""
    assert OWN_COLOURS[lang].search(stack), stack


def test_high_contrast_is_a_remembered_toggle(dealt: PlayServer, new_page: NewPage) -> None:
    page = new_page(PHONE)
    sit_down(page, dealt)
    red = page.locator("#mine .card[data-card^=R]").first
    play = page.locator("#play")
    expect(play).to_have_attribute("data-contrast", "off")
    normal = red.evaluate("el => getComputedStyle(el).backgroundColor")
    open_tools(page)
    toggle = page.locator("#contrast-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_attribute("data-contrast", "on")
    assert red.evaluate("el => getComputedStyle(el).backgroundColor") == CONTRAST_RED != normal
    assert red.evaluate("el => getComputedStyle(el).borderTopWidth") == "3px"
    # Remembered in this browser: the next table has it too.
    sit_down(page, dealt)
    expect(play).to_have_attribute("data-contrast", "on")
    # Switched off again, it stays off even where the system asks for more contrast.
    open_tools(page)
    page.locator("#contrast-toggle").click()
    page.emulate_media(contrast="more")
    sit_down(page, dealt)
    expect(play).to_have_attribute("data-contrast", "off")


def test_high_contrast_follows_the_system_until_chosen(
    dealt: PlayServer, new_page: NewPage
) -> None:
    page = new_page(PHONE)
    page.emulate_media(contrast="more")
    sit_down(page, dealt)
    expect(page.locator("#play")).to_have_attribute("data-contrast", "on")
    red = page.locator("#mine .card[data-card^=R]").first
    assert red.evaluate("el => getComputedStyle(el).backgroundColor") == CONTRAST_RED
    page.emulate_media(contrast="no-preference")  # the system's setting changes while playing
    expect(page.locator("#play")).to_have_attribute("data-contrast", "off")


# What moves: the animation and the transitions of an element.
MOTION = """el => { const s = getComputedStyle(el);
  return {animation: s.animationName,
          transitions: s.transitionDuration.split(',').map(d => parseFloat(d))}; }"""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced"])
def test_reduced_motion_stops_every_animation(
    dealt: PlayServer, new_page: NewPage, reduced: bool
) -> None:
    page = new_page(PHONE)
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    sit_down(page, dealt)
    # A pile that just got a card, a card that goes back, a card in the
    # practice hint, a player who just moved, "Ligretto!" going away.
    page.evaluate(
        """() => {
      document.querySelector('#middle .card.pile').classList.add('landed');
      document.querySelector('#mine [data-source=row1]').classList.add('returning');
      document.querySelector('#mine [data-source=row2]').classList.add('hinted');
      document.querySelector('.opponent').classList.add('acted');
      const c = document.getElementById('countdown'); c.hidden = false; c.classList.add('go');
    }"""
    )
    moving = [
        "#middle .card.pile",
        "#mine [data-source=row1]",
        "#mine [data-source=row2]",
        ".opponent",
        "#countdown",
    ]
    for selector in moving:
        motion = page.locator(selector).first.evaluate(MOTION)
        if reduced:
            assert motion["animation"] == "none", (selector, motion)
        else:
            assert motion["animation"] != "none", (selector, motion)  # the test sees animations
    for card in page.locator("#board .card").all():
        motion = card.evaluate(MOTION)
        if reduced:
            assert all(d == 0 for d in motion["transitions"]), motion
    if not reduced:
        assert any(d > 0 for d in page.locator("#mine .card").first.evaluate(MOTION)["transitions"])


# Every shown button of the table that is not where a finger can reach it:
# outside the page's width, or under another element at its centre once
# scrolled into view.
UNREACHABLE = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#play button, #play a.button')) {
    if (!el.checkVisibility() || el.closest('.scores, .practice-end, .countdown, dialog')) continue;
    el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const name = el.id || el.dataset.source || el.textContent.trim();
    const width = document.documentElement.clientWidth;
    if (r.left < 0 || r.right > width + 0.5) out.push(name + ': outside the width');
    else if (!hit || !(el === hit || el.contains(hit))) {
      out.push(name + ': covered by ' + (hit ? hit.className || hit.tagName : 'nothing'));
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_button_is_reachable_at_twice_the_font_size(
    dealt: PlayServer, new_page: NewPage, shoot: Shoot, viewport: ViewportSize
) -> None:
    page = new_page(viewport)
    sit_down(page, dealt, "nb")  # the longest words
    # The browser's font size doubled (as a reader sets it); the table refits.
    page.evaluate(
        "document.documentElement.style.fontSize = '200%'; dispatchEvent(new Event('resize'))"
    )
    expect(page.locator("#mine .card[data-card]").first).to_be_visible()
    problems = page.evaluate(UNREACHABLE)
    assert not problems, problems
    if page.locator("#help").is_visible():
        page.locator("#help").click()
        problems = page.evaluate(UNREACHABLE)
        assert not problems, problems
    shoot(page, f"every-eye-font-200-{viewport['width']}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_high_contrast_table_passes_axe(
    dealt: PlayServer, new_page: NewPage, shoot: Shoot, scheme: str
) -> None:
    found: dict[str, str] = {}
    page = new_page(PHONE, color_scheme=scheme)
    page.emulate_media(contrast="more")
    sit_down(page, dealt)
    expect(page.locator("#play")).to_have_attribute("data-contrast", "on")
    audit(page, "table, high contrast", found)
    open_tools(page)
    audit(page, "table, high contrast, tools open", found)
    shoot(page, f"every-eye-contrast-{scheme}")
    reports = [f"== {name} ({scheme}) ==\n{report}" for name, report in found.items()]
    assert not found, "\n\n".join(reports)
