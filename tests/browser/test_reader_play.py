"""Screen-reader play, checked through Chromium's accessibility tree.

A practice round is played from the start page to its end the way a
screen-reader user plays it: every action is found by its role and its
spoken name, and what the table does is read only from the live regions
and the labelled regions, never from the page's markup. The announcements
are rate-limited and speak the practice round's hints (how much they say,
and when: test_reader_announcements.py). axe
finds no violation of any impact on the table in either mode, light and
dark, on a phone and a laptop; at twice the font size every control is
still reachable and no two labels lie on each other.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, ViewportSize, expect

from helpers.axe import AXE, OPTIONS
from helpers.browser import PHONE, NewPage, PlayServer, Shoot
from helpers.play import serve_play, start_practice, tools_in_view

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
LOCALES = {"en": "en-GB", "de": "de-DE", "nb": "nb-NO"}


@pytest.fixture(scope="module")
def slow_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """The practice bot slowed right down: the person ends the round."""
    yield from serve_play(tmp_path_factory, "reader", 80.0)


@pytest.fixture(scope="module")
def busy_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """A bot that plays a card every second or so: the middle keeps changing."""
    yield from serve_play(tmp_path_factory, "reader", 1.0)


def audit_all(page: Page, name: str, found: dict[str, str]) -> None:
    """Run axe on the page as it is; note every violation, whatever its impact."""
    results = AXE.run(page, options=OPTIONS)
    if results.response["violations"]:
        found[name] = results.generate_report()


def reader_toggle(page: Page, lang: str = "en") -> Locator:
    return page.get_by_role("button", name=TEXT[lang]["reader"], exact=True)


TEXT: dict[str, dict[str, str]] = {
    "en": {
        "reader": "Screen reader",
        "help": "How to play",
        "moves": "Your moves",
        "announcements": "Announcements",
        "cards": "Your cards",
        "middle": "The middle",
    },
    "de": {
        "reader": "Bildschirmleser",
        "help": "So wird gespielt",
        "moves": "Deine Züge",
        "announcements": "Durchsagen",
        "cards": "Deine Karten",
        "middle": "Die Mitte",
    },
    "nb": {
        "reader": "Skjermleser",
        "help": "Slik spiller du",
        "moves": "Dine trekk",
        "announcements": "Kunngjøringer",
        "cards": "Kortene dine",
        "middle": "Midten",
    },
}


def turn_reader_on(page: Page, lang: str = "en") -> None:
    """The "Screen reader" toggle, found by its name (behind "How to play" on a phone)."""
    toggle = reader_toggle(page, lang)
    if not tools_in_view(page):
        page.get_by_role("button", name=TEXT[lang]["help"]).press("Enter")
    toggle.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1280"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_both_modes_have_no_axe_violation_at_all(
    busy_bot: PlayServer, new_page: NewPage, scheme: str, viewport: ViewportSize
) -> None:
    found: dict[str, str] = {}
    page = new_page(viewport, color_scheme=scheme)
    start_practice(page, busy_bot, lang="en", submit="enter")
    audit_all(page, f"table-{scheme}", found)
    turn_reader_on(page)
    audit_all(page, f"reader, tools open-{scheme}", found)
    page.keyboard.press("Escape")
    audit_all(page, f"reader-{scheme}", found)
    assert not found, "\n\n".join(f"{k}:\n{v}" for k, v in found.items())


# ---------------------------------------------------------------- what a screen reader hears

# Every text the announcer (the "Announcements" status) takes, with the time
# it took it: a MutationObserver on the live region itself.
LISTEN = """el => {
  window.heard = [];
  new MutationObserver(() => window.heard.push([performance.now(), el.textContent]))
    .observe(el, {childList: true, characterData: true, subtree: true});
}"""
GAP_MS = 1500
"""announcer.js speaks at most once per 1.5 s (docs/online-play.md)."""


def listen(page: Page, lang: str = "en") -> Locator:
    status = page.get_by_role("status", name=TEXT[lang]["announcements"], exact=True)
    expect(status).to_have_attribute("aria-live", "polite")
    status.evaluate(LISTEN)
    return status


def heard(page: Page) -> list[tuple[float, str]]:
    return [(at, text) for at, text in page.evaluate("window.heard")]


def assert_rate_limited(said: list[tuple[float, str]]) -> None:
    """Never two announcements within GAP_MS (a few ms for the timer's rounding)."""
    gaps = [later - earlier for (earlier, _), (later, _) in itertools.pairwise(said)]
    assert all(gap >= GAP_MS - 20 for gap in gaps), [round(g) for g in gaps]


def moves_group(page: Page, lang: str = "en") -> Locator:
    return page.get_by_role("group", name=TEXT[lang]["moves"], exact=True)


def move_names(group: Locator) -> list[str]:
    """The spoken names of the buttons in "Your moves", read from the accessibility tree."""
    return re.findall(r'button "([^"]*)"', group.aria_snapshot())


# What a player does first (R7: the Ligretto stack first, then the row,
# then the discard pile), then filling a gap, then turning three.
PREFERENCE = [
    "from the stack",
    "from row",
    "from the discard pile",
    "Fill row",
    "Turn three",
    "Pick up",
]


def choose(names: list[str]) -> str | None:
    for words in PREFERENCE:
        for name in names:
            if words in name:
                return name
    return None


def test_a_practice_round_is_played_through_the_accessibility_tree(
    slow_bot: PlayServer, new_page: NewPage, shoot: Shoot
) -> None:
    page = new_page(PHONE)
    start_practice(page, slow_bot, lang="en", submit="enter")
    turn_reader_on(page)
    status = listen(page)
    # The labelled regions and the live region a screen reader lists.
    for region in ("The table", "The middle", "Your cards"):
        expect(page.get_by_role("region", name=region, exact=True)).to_be_visible()
    # How much is said: three choices in a group named "Announce", "piles I can use" first.
    announce_level = page.get_by_role("group", name="Announce")
    expect(announce_level.get_by_role("radio")).to_have_count(3)
    expect(announce_level.get_by_role("radio", name="piles I can use")).to_be_checked()
    expect(page.get_by_role("group", name="Slow bot")).to_be_visible()
    # Chromium's own tree: the announcer is the one polite live region that
    # speaks during play; the practice hint, which changes with every
    # move, is not spoken in this mode.
    live = live_regions(page)
    assert ("status", "Announcements", "polite") in live, live
    assert not [r for r in live if r[0] == "paragraph"], live

    group = moves_group(page)
    done = page.get_by_role("region", name="Practice round done")
    pressed = 0
    for _ in range(600):
        if done.is_visible():
            break
        names = move_names(group)
        chosen = choose(names)
        if chosen is None:  # a move on its way: the table answers first
            page.wait_for_timeout(100)
            continue
        try:
            group.get_by_role("button", name=chosen, exact=True).press("Enter", timeout=1000)
            pressed += 1
        except PlaywrightError:  # the table changed under the key: listen again
            continue
        for _ in range(30):  # until the moves change
            if move_names(group) != names:
                break
            page.wait_for_timeout(50)
    # The round's end, as heard: the person emptied the stack and called it.
    expect(done).to_be_visible()
    # Said to the caller as "you" (the others hear "Ligretto Stop by Anna!").
    expect(status).to_contain_text("You called Ligretto Stop!")
    said = heard(page)
    texts = " ".join(text for _, text in said)
    assert "You: " in texts, texts
    # The hints are spoken in this mode too ("… fits: tap it.", "Nothing
    # fits: turn three (tap your hand).").
    assert re.search(r"tap (it|your hand)", texts), texts
    assert re.search(r"Your points: \d+, total \d+\.", texts), texts
    assert pressed > 10
    # Rate-limited: a burst of sentences was merged, never spoken faster
    # (the round's end is said at once: nothing that waited matters then).
    assert_rate_limited(said[:-1])
    assert len(said) < pressed, (len(said), pressed)
    found: dict[str, str] = {}
    audit_all(page, "the round's end", found)
    assert not found, "\n\n".join(found.values())
    shoot(page, "reader-round-done")


# Chromium's accessibility tree (DevTools protocol): every node with a live
# property, as (role, name, politeness).
def live_regions(page: Page) -> list[tuple[str, str, str]]:
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    found = []
    for node in nodes:
        if node.get("ignored"):
            continue
        props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        if props.get("live") in ("polite", "assertive"):
            name = node.get("name", {}).get("value", "")
            found.append((node["role"]["value"], name, props["live"]))
    return found


# ---------------------------------------------------------------- twice the font size

# Every control of the table that a finger or a pointer cannot reach: outside
# the page's width, or under another element at its centre once scrolled
# into view.
UNREACHABLE = """() => {
  const out = [];
  const controls = '#play button, #play a[href], #play select, #play input:not([type=hidden])';
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility() || el.closest('.scores, .practice-end, .countdown, dialog')) continue;
    if (el.closest('.visually-hidden')) continue;
    el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const name = el.id || el.dataset.source || el.textContent.trim().slice(0, 40);
    const width = document.documentElement.clientWidth;
    const labelled = el.labels && [...el.labels].includes(hit);
    if (r.left < -0.5 || r.right > width + 0.5) out.push(name + ': outside the width');
    else if (r.top < -0.5 || r.bottom > innerHeight + 0.5) out.push(name + ': too tall');
    else if (!hit || !(el === hit || el.contains(hit) || labelled)) {
      out.push(name + ': covered by ' + (hit ? hit.className || hit.tagName : 'nothing'));
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""

# Every pair of words on the table that lie on each other: the boxes of the
# shown text (cut to what a scrolling or clipping box lets show), two texts
# of one card apart (its number and its count are drawn together), and an
# overlay (position: fixed, the list of keys) apart too: it covers on purpose.
OVERLAPS = """() => {
  const fixed = (el) => {
    for (; el; el = el.parentElement) if (getComputedStyle(el).position === 'fixed') return true;
    return false;
  };
  const apart = '.visually-hidden, template, script, .scores, .practice-end, .countdown, dialog';
  const clip = (el, r) => {
    let {left, top, right, bottom} = r;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      left = Math.max(left, c.left); right = Math.min(right, c.right);
      top = Math.max(top, c.top); bottom = Math.min(bottom, c.bottom);
    }
    return {left, top, right, bottom};
  };
  const boxes = [];
  const walker = document.createTreeWalker(document.getElementById('play'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), i = 0; n; n = walker.nextNode(), i += 1) {
    const el = n.parentElement;
    if (!n.textContent.trim()) continue;
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    if (el.closest(apart) || fixed(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const card = el.closest('.card');
    for (const r of range.getClientRects()) {
      const c = clip(el, r);
      if (c.right - c.left < 1 || c.bottom - c.top < 1) continue;
      boxes.push({...c, node: i, card, text: n.textContent.trim().slice(0, 30)});
    }
  }
  const out = [];
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i], b = boxes[j];
      if (a.node === b.node || (a.card && a.card === b.card)) continue;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) out.push(`${a.text} / ${b.text}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize(
    ("viewport", "lang"),
    [(PHONE, "de"), (PHONE, "en"), (PHONE, "nb"), (LAPTOP, "en")],
    ids=["360-de", "360-en", "360-nb", "1280-en"],
)
@pytest.mark.parametrize("mode", ["table", "reader"])
def test_at_twice_the_font_size_every_control_is_reachable_and_no_words_overlap(
    slow_bot: PlayServer,
    new_page: NewPage,
    shoot: Shoot,
    mode: str,
    viewport: ViewportSize,
    lang: str,
) -> None:
    page = new_page(viewport, locale=LOCALES[lang])
    start_practice(page, slow_bot, lang=lang, submit="enter")
    if mode == "reader":
        turn_reader_on(page, lang)
        shoot(page, f"reader-{lang}-{viewport['width']}")
    # The browser's font size doubled (as a reader sets it); the table refits.
    page.evaluate(
        "document.documentElement.style.fontSize = '200%'; dispatchEvent(new Event('resize'))"
    )
    expect(page.get_by_role("region", name=TEXT[lang]["cards"])).to_be_visible()
    help_button = page.get_by_role("button", name=TEXT[lang]["help"])
    problems: dict[str, list[str]] = {}
    for _ in range(2):  # the tools shown ("How to play" open) and hidden
        shown = "open" if help_button.get_attribute("aria-expanded") == "true" else "closed"
        shoot(page, f"font-200-{mode}-{lang}-{viewport['width']}-{shown}")
        problems[f"unreachable, help {shown}"] = page.evaluate(UNREACHABLE)
        problems[f"overlapping, help {shown}"] = page.evaluate(OVERLAPS)
        if not help_button.is_visible():
            break
        help_button.click()
    assert not any(problems.values()), problems
