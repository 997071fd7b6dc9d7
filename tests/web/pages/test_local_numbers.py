"""Numbers as each language writes them: decimal commas in de and nb, a point in en."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from ligretto.web.numbers import number, percent

DECIMAL_POINT = re.compile(r"\d\.\d")
DECIMAL_COMMA = re.compile(r"\d,\d")


def shown_text(html: str) -> str:
    """What a reader sees (and hears): the text without scripts, styles and tags."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    # German dates (03.12.2026) are written with points on purpose.
    return re.sub(r"\b\d{1,2}\.\d{1,2}\.\d{4}\b", "DATE", text)


def _create(client: TestClient) -> str:
    response = client.post("/groups", data={"name": "Donnerstag", "members": "Anna\nBen\nCleo"})
    match = re.fullmatch(r"/groups/([\w-]+)/edit#t=[\w-]+", response.headers["location"])
    assert match
    return match[1]


def _play(
    client: TestClient, gid: str, players: list[str], stacks: list[int], middle: list[int]
) -> None:
    response = client.post(
        f"/groups/{gid}/edit/games", data={"player": players, "mode": "rounds", "rounds": "1"}
    )
    match = re.fullmatch(r"/g/([\w-]+)/edit\?created=1#t=([\w-]+)", response.headers["location"])
    assert match
    headers = {"Authorization": f"Bearer {match[2]}"}
    path = f"/api/games/{match[1]}/rounds"
    assert client.post(path, json={"stacks": stacks}, headers=headers).status_code == 201
    assert client.put(f"{path}/1", json={"middle": middle}, headers=headers).status_code == 200


@pytest.fixture
def group(client: TestClient) -> str:
    """A group whose statistics are fractional (ratings, means, rates)."""
    gid = _create(client)
    _play(client, gid, ["Anna", "Ben", "Cleo"], [0, 4, 7], [20, 11, 8])
    _play(client, gid, ["Anna", "Ben", "Cleo"], [3, 0, 5], [9, 17, 13])
    _play(client, gid, ["Anna", "Ben"], [0, 2], [15, 12])
    return gid


def _pages(client: TestClient, gid: str, language: str) -> list[str]:
    return [
        client.get(f"/groups/{gid}?season=all&lang={language}").text,
        client.get(f"/groups/{gid}/members/{quote('Anna')}?lang={language}").text,
        client.get(f"/groups/{gid}/members/{quote('Ben')}?lang={language}").text,
    ]


@pytest.mark.parametrize("language", ["de", "nb"])
def test_group_and_member_pages_write_decimal_commas(
    client: TestClient, group: str, language: str
) -> None:
    for page in _pages(client, group, language):
        text = shown_text(page)
        assert not DECIMAL_POINT.search(text), [
            text[m.start() - 80 : m.end() + 20] for m in DECIMAL_POINT.finditer(text)
        ]
        assert DECIMAL_COMMA.search(text)  # the ratings and means are fractional


def test_english_pages_keep_the_decimal_point(client: TestClient, group: str) -> None:
    for page in _pages(client, group, "en"):
        text = shown_text(page)
        assert DECIMAL_POINT.search(text) and not DECIMAL_COMMA.search(text)


def test_the_number_words() -> None:
    assert number("de", 7.55) == "7,6" or number("de", 7.55) == "7,5"
    assert number("nb", -2.25, 2) == "\u22122,25"
    assert number("en", -0.01) == "0.0"
    assert number("en", None) == "\u2013"
    assert percent("de", 0.76) == "76\xa0%"
    assert percent("en", 0.76) == "76%"


@pytest.mark.parametrize(
    ("language", "first"),
    [("de", "Mitglied;Beendete Spiele;"), ("nb", "Medlem;"), ("en", "Member;")],
)
def test_the_regional_statistics_csv_speaks_the_page_language(
    client: TestClient, group: str, language: str, first: str
) -> None:
    page = client.get(f"/groups/{group}?lang={language}").text
    link = re.search(r'href="(/api/groups/[^"]+/stats\.csv\?style=regional[^"]*)"', page)
    assert link and f"lang={language}" in link[1]
    text = client.get(link[1].replace("&amp;", "&")).content.decode("utf-8-sig")
    header, *rows = text.splitlines()
    assert header.startswith(first) and "points_per_round" not in header
    body = "\n".join(rows)
    assert not DECIMAL_POINT.search(body) and DECIMAL_COMMA.search(body)
    # The plain export stays for programs: commas, points and English names.
    plain = client.get(f"/api/groups/{group}/stats.csv").content.decode("utf-8-sig")
    assert plain.startswith("member,games,") and DECIMAL_POINT.search(plain)
