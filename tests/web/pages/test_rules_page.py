"""The rules page (/rules): how to play, in German, English and Norwegian.

It answers in the language every page chooses (``?lang=``, cookie,
Accept-Language), always with its drawing of one player's cards and the
middle, the same sections in each language, nothing the
Content-Security-Policy would block, and every page links to it.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ligretto.web.i18n import LANGUAGES

SECTIONS = ("goal", "cards", "middle", "play", "stop", "points", "game", "options", "online")

# Per language: the heading, the drawing's labels and a few words each part of
# the rules must contain (R2 row sizes, R3 turning three, R4 online stop,
# R5 points, T1 targets, T5 Finish/Score, R6 storage).
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "heading": ("How to play Ligretto",),
        "drawing": (
            "The middle",
            "Your cards",
            "Ligretto stack",
            "Row",
            "Hand",
            "Discard",
            "Turn three",
        ),
        "text": (
            "5 cards with 2 players, 4 with 3 players, 3 with 4 or more",
            "<strong>three cards</strong>",
            "Online, Ligretto Stop happens by itself",
            "14 − 2 × 3 = <strong>8 points</strong>",
            "99 points",
            "<strong>Finish</strong>, then <strong>Score</strong>",
            "The row as storage",
        ),
    },
    "de": {
        "heading": ("So spielt man Ligretto",),
        "drawing": (
            "Die Mitte",
            "Deine Karten",
            "Ligretto-Stapel",
            "Reihe",
            "Hand",
            "Ablage",
            "Drei umdrehen",
        ),
        "text": (
            "5 Karten bei 2 Personen, 4 bei 3 Personen, 3 ab 4 Personen",
            "<strong>drei Karten</strong>",
            "Online passiert Ligretto Stop von selbst",
            "14 − 2 × 3 = <strong>8 Punkte</strong>",
            "99 Punkte",
            "<strong>Beenden</strong> und dann <strong>Werten</strong>",
            "Die Reihe als Zwischenlager",
        ),
    },
    "nb": {
        "heading": ("Slik spiller du Ligretto",),
        "drawing": (
            "Midten",
            "Kortene dine",
            "Ligretto-bunke",
            "Rekke",
            "Hånd",
            "Kastebunke",
            "Snu tre",
        ),
        "text": (
            "5 kort når dere er 2, 4 når dere er 3, og 3 når dere er 4 eller flere",
            "<strong>tre kort</strong>",
            "På nett skjer Ligretto Stopp av seg selv",
            "14 − 2 × 3 = <strong>8 poeng</strong>",
            "99 poeng",
            "<strong>Avslutt</strong> og så <strong>Tell opp</strong>",
            "Rekken som mellomlager",
        ),
    },
}


def drawing(html: str) -> str:
    match = re.search(r"<svg class=\"rules-drawing\".*?</svg>", html, re.S)
    assert match, "the page has no drawing"
    return match.group(0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_answer_in_each_language_with_their_drawing(
    client: TestClient, language: str
) -> None:
    page = client.get("/rules", params={"lang": language})
    assert page.status_code == 200
    html = page.text
    assert f'<html lang="{language}"' in html
    assert page.cookies.get("lang") == language  # the next pages speak it too
    expected = EXPECTED[language]
    assert f"<h1>{expected['heading'][0]}</h1>" in html
    svg = drawing(html)
    assert 'role="img"' in svg and '<title id="rd-title">' in svg
    for label in expected["drawing"]:
        assert f">{label}</text>" in svg, label
    # The cards of the drawing: the stack's red 4 fits the red 3, the row's blue 2 the blue 1.
    assert svg.count('class="rd-card rd-') == 9
    for text in expected["text"]:
        assert text in html, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_fills_every_section(client: TestClient, language: str) -> None:
    html = client.get("/rules", params={"lang": language}).text
    for section in SECTIONS:
        assert f'<a href="#{section}">' in html  # in the contents
        match = re.search(rf'<section id="{section}"[^>]*>(.*?)</section>', html, re.S)
        assert match, section
        body = re.sub(r"<h2[^>]*>.*?</h2>", "", match.group(1), flags=re.S)
        assert len(re.sub(r"<[^>]+>", "", body).split()) >= 20, f"{language}: {section} is empty"


def test_the_rules_follow_the_cookie_and_the_browser_language(client: TestClient) -> None:
    by_browser = client.get("/rules", headers={"Accept-Language": "nb-NO,nb;q=0.9"})
    assert "Slik spiller du Ligretto" in by_browser.text
    client.cookies.set("lang", "de")
    by_cookie = client.get("/rules", headers={"Accept-Language": "nb-NO"})
    assert "So spielt man Ligretto" in by_cookie.text
    assert "Your cards" not in by_cookie.text and "Turn three" not in by_cookie.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_on_the_rules_page_needs_inline_style_or_script(
    client: TestClient, language: str
) -> None:
    html = client.get("/rules", params={"lang": language}).text
    assert not re.search(r"\sstyle=", html)
    assert "<style" not in html
    scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert scripts == ['<script type="importmap">']  # the one every page has, allowed by hash


def test_every_page_links_to_the_rules(client: TestClient) -> None:
    link = re.compile(r'<a class="rules-link" href="/rules"(?: aria-current="page")?>')
    for path in ("/", "/play", "/rules", "/g/no-such-game"):
        html = client.get(path).text
        assert len(link.findall(html)) == 1, path
    assert 'aria-current="page">Rules</a>' in client.get("/rules", params={"lang": "en"}).text
    assert 'aria-current="page"' not in link.findall(client.get("/").text)[0]


def test_the_table_links_to_the_rules_in_its_bar(client: TestClient) -> None:
    table = client.post("/play/quick", data={"name": "Anna"})
    assert table.status_code == 303
    html = client.get(table.headers["location"], params={"lang": "de"}).text
    bar = re.search(r'<div class="play-bar">(.*?)</div>', html, re.S)
    assert bar
    assert re.search(
        r'<a class="button small rules-button" id="table-rules" href="/rules" target="_blank"'
        r' rel="noopener" aria-label="Regeln"',
        bar.group(1),
    )
