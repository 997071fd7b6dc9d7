"""The accessibility page (/accessibility): how to turn the modes on, in de, en and nb.

It says how to turn on the screen-reader mode, the high-contrast cards,
reduced motion and large text, how much is announced, and which keys do
what; the keys come from the same source as the table's own list of keys
(``templates/play/_keys.html``), so the page cannot name a key the table
does not know. Every page's footer links to it, and so do the table's tools
and its list of keys.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from fastapi.testclient import TestClient

from ligretto.web.i18n import LANGUAGES

SECTIONS = ("reader", "contrast", "motion", "text-size", "keys", "tafel")

# Per language: the heading, the names of the table's own switches (as the
# table's tools show them), the three levels of announcement, and a key's row.
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "heading": ("Accessibility",),
        "switches": ("Screen reader", "High contrast", "Announce"),
        "levels": ("my cards only", "piles I can use", "everything"),
        "keys": ("Play the top card of your Ligretto stack.", "Space", "Esc"),
        "words": ("Round 4 saved. Anna 57, Ben 43; Anna leads.", "Reduce motion", "200 %"),
    },
    "de": {
        "heading": ("Barrierefreiheit",),
        "switches": ("Bildschirmleser", "Hoher Kontrast", "Ansagen"),
        "levels": ("nur meine Karten", "Farbstapel, die ich nutzen kann", "alles"),
        "keys": ("Spielt die oberste Karte deines Ligretto-Stapels.", "Leertaste", "Esc"),
        "words": (
            "Runde 4 gespeichert. Anna 57, Ben 43; Anna führt.",
            "Bewegung reduzieren",
            "200 %",
        ),
    },
    "nb": {
        "heading": ("Tilgjengelighet",),
        "switches": ("Skjermleser", "Høy kontrast", "Les opp"),
        "levels": ("bare mine kort", "byggebunker jeg kan bruke", "alt"),
        "keys": ("Spiller det øverste kortet i Ligretto-bunken din.", "Mellomrom", "Esc"),
        "words": ("Runde 4 er lagret. Anna 57, Ben 43; Anna leder.", "Reduser bevegelse", "200 %"),
    },
}


def text_of(fragment: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment))).strip()


def section(html: str, name: str) -> str:
    match = re.search(rf'<section id="{name}"[^>]*>(.*?)</section>', html, re.S)
    assert match, name
    return match.group(1)


def key_rows(html: str) -> list[tuple[str, str]]:
    """The rows of the page's table of keys: (the key, what it does)."""
    table = re.search(r'<table class="key-table">(.*?)</table>', html, re.S)
    assert table, "the page has no table of keys"
    return [
        (text_of(key), text_of(what))
        for key, what in re.findall(
            r'<tr><th scope="row">(.*?)</th><td>(.*?)</td></tr>', table.group(1), re.S
        )
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_answers_in_each_language_with_every_section(
    client: TestClient, language: str
) -> None:
    page = client.get("/accessibility", params={"lang": language})
    assert page.status_code == 200
    html = page.text
    assert f'<html lang="{language}"' in html
    expected = EXPECTED[language]
    assert f"<h1>{expected['heading'][0]}</h1>" in html
    for name in SECTIONS:
        assert f'<a href="#{name}">' in html  # in the contents
        body = re.sub(r"<h2[^>]*>.*?</h2>", "", section(html, name), flags=re.S)
        assert len(text_of(body).split()) >= 20, f"{language}: {name} is empty"
    reader = text_of(section(html, "reader"))
    screen_reader, high_contrast, announce = expected["switches"]
    for word in (screen_reader, announce, *expected["levels"]):
        assert word in reader, word
    assert high_contrast in text_of(section(html, "contrast"))
    everything = text_of(html)
    for word in (*expected["keys"], *expected["words"]):
        assert word in everything, word
    # Nothing of another language on the page (its words are the catalogue's).
    if language != "en":
        assert "Play the top card" not in html and "Screen-reader mode" not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_keys_are_the_tables_own(client: TestClient, language: str) -> None:
    """The page's keys and the table's "?" list come from one source: the
    same keys in the same order, and the table's line names each of them."""
    page = client.get("/accessibility", params={"lang": language}).text
    rows = key_rows(page)
    keys = [key for key, _ in rows]
    space = EXPECTED[language]["keys"][1]
    assert keys == ["1–5", "S", "D", space, "R", "1–9", "Esc", "?", "W"]
    assert all(what.endswith(".") and len(what.split()) >= 4 for _, what in rows)
    table = client.post("/play/quick", data={"name": "Anna"})
    assert table.status_code == 303
    html = client.get(table.headers["location"], params={"lang": language}).text
    line = re.search(r'<span class="key-help">(.*?)</span></p>', html, re.S)
    assert line, "the table has no list of keys"
    said = text_of(line.group(1))
    at = [said.find(f" {key} ") for key in ("1–5", "S", "D", space, "R", "Esc")]
    assert -1 not in at and at == sorted(at), said  # each key, in the source's order
    assert '<a href="/accessibility#keys" target="_blank" rel="noopener">' in line.group(1)


def test_the_footer_and_the_tables_tools_link_to_the_page(client: TestClient) -> None:
    link = re.compile(
        r'<a class="accessibility-link" href="/accessibility"( aria-current="page")?>'
    )
    for path in ("/", "/play", "/rules", "/accessibility", "/g/no-such-game"):
        found = link.findall(client.get(path).text)
        assert len(found) == 1, path
        assert (found[0] != "") == (path == "/accessibility"), path
    table = client.post("/play/quick", data={"name": "Anna"})
    html = client.get(table.headers["location"], params={"lang": "nb"}).text
    tools = re.search(r'<div class="table-tools" id="table-tools">(.*?)</div>', html, re.S)
    assert tools
    assert (
        '<a class="button small tools-access" href="/accessibility" target="_blank"'
        ' rel="noopener">Tilgjengelighet</a>'
    ) in tools.group(1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sample_cards_carry_their_symbols(client: TestClient, language: str) -> None:
    html = client.get("/accessibility", params={"lang": language}).text
    svg = re.search(r'<svg class="rules-drawing access-cards".*?</svg>', html, re.S)
    assert svg and 'role="img"' in svg.group(0)
    shapes = re.findall(r'class="sym" data-shape="(\w+)"', svg.group(0))
    assert shapes == ["circle", "star", "square", "diamond"]


def test_nothing_on_the_page_needs_inline_style_or_script(client: TestClient) -> None:
    html = client.get("/accessibility").text
    assert not re.search(r"\sstyle=", html)
    assert "<style" not in html
    scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert scripts == ['<script type="importmap">']
