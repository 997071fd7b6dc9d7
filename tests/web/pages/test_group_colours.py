"""A group's game: the seating order of the ticks (T1), one colour per member, numbers in charts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from ligretto.web.pages.groups import seating_order

SVG = "{http://www.w3.org/2000/svg}"
DECIMAL_POINT = re.compile(r"\d\.\d")


def _create(client: TestClient, members: str) -> str:
    response = client.post("/groups", data={"name": "Donnerstag", "members": members})
    match = re.fullmatch(r"/groups/([\w-]+)/edit#t=[\w-]+", response.headers["location"])
    assert match
    return match[1]


def _start(client: TestClient, gid: str, data: dict[str, object]) -> tuple[str, str]:
    response = client.post(
        f"/groups/{gid}/edit/games", data={"mode": "rounds", "rounds": "1", **data}
    )
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/g/([\w-]+)/edit\?created=1#t=([\w-]+)", response.headers["location"])
    assert match
    return match[1], match[2]


def _play(
    client: TestClient, game_id: str, token: str, stacks: list[int], middle: list[int]
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    path = f"/api/games/{game_id}/rounds"
    assert client.post(path, json={"stacks": stacks}, headers=headers).status_code == 201
    assert client.put(f"{path}/1", json={"middle": middle}, headers=headers).status_code == 200


def _players(client: TestClient, game_id: str) -> list[str]:
    players: list[str] = client.get(f"/api/games/{game_id}").json()["players"]
    return players


def _card_classes(html: str) -> dict[str, str]:
    """Each player card's name and its colour class, in the order of the cards."""
    cards = re.findall(
        r'<li class="player (seat-\d+)[^"]*" data-seat="\d+">\s*<div class="name"[^>]*>([^<]+)<',
        html,
    )
    return {name: colour for colour, name in cards}


def test_t1_the_ticked_order_is_the_seating_order(client: TestClient) -> None:
    gid = _create(client, "Anna\nBen\nCleo\nDora")
    # Checkboxes arrive in the list's order; the page's script sends the ticks' order
    # (a browser sends its newlines as CR LF).
    game_id, _ = _start(
        client, gid, {"player": ["Anna", "Ben", "Dora"], "seating": "Dora\r\nAnna\r\nBen"}
    )
    assert _players(client, game_id) == ["Dora", "Anna", "Ben"]
    board = client.get(f"/g/{game_id}").text
    assert list(_card_classes(board)) == ["Dora", "Anna", "Ben"]


def test_t1_without_the_script_the_list_order_is_kept(client: TestClient) -> None:
    gid = _create(client, "Anna\nBen\nCleo")
    game_id, _ = _start(client, gid, {"player": ["Anna", "Cleo"]})
    assert _players(client, game_id) == ["Anna", "Cleo"]
    # A stale order names someone no longer ticked and misses someone ticked.
    game_id, _ = _start(client, gid, {"player": ["Anna", "Ben", "Cleo"], "seating": "Cleo\nDora"})
    assert _players(client, game_id) == ["Cleo", "Anna", "Ben"]


def test_seating_order_keeps_only_ticked_names_once() -> None:
    assert seating_order(["A", "B"], "B\nB\nX\n\nA") == ["B", "A"]
    assert seating_order([], "A\nB") == []


def test_a_member_has_the_colour_of_their_place_in_the_member_list(client: TestClient) -> None:
    gid = _create(client, "Anna\nBen\nCleo\nKari")
    game_id, token = _start(client, gid, {"player": ["Anna", "Kari"], "seating": "Kari\nAnna"})
    _play(client, game_id, token, [0, 4], [20, 10])
    # Kari sits first, yet keeps the colour of the fourth member everywhere.
    for page in (client.get(f"/g/{game_id}").text, client.get(f"/g/{game_id}/board").text):
        assert _card_classes(page) == {"Kari": "seat-3", "Anna": "seat-0"}
        assert re.search(r'class="chart-series seat-3"><title>Kari:', page)
    league = client.get(f"/groups/{gid}?season=all").text
    assert re.search(r'class="chart-series seat-3"><title>Kari:', league)
    assert re.search(r'class="chart-series seat-0"><title>Anna:', league)
    member = client.get(f"/groups/{gid}/members/Kari").text
    assert 'class="chart-member seat-3"' in member
    # A game in no group keeps the colours of its seats.
    response = client.post(
        "/", data={"action": "create", "player": ["Kari", "Anna"], "mode": "target"}
    )
    plain = response.headers["location"].split("?")[0].split("#")[0].replace("/edit", "")
    assert _card_classes(client.get(plain).text) == {"Kari": "seat-0", "Anna": "seat-1"}


def _chart_numbers(html: str) -> list[str]:
    """Every text of every chart on the page: ticks, labels, legends, titles, descriptions."""
    texts: list[str] = []
    for svg in re.findall(r'<svg class="chart".*?</svg>', html, flags=re.S):
        root = ET.fromstring(svg)
        texts.extend("".join(el.itertext()) for el in root.iter() if el.tag != f"{SVG}svg")
    return texts


@pytest.mark.parametrize("language", ["de", "nb"])
def test_charts_in_german_and_norwegian_have_no_decimal_points(
    client: TestClient, language: str
) -> None:
    gid = _create(client, "Anna\nBen\nCleo")
    for stacks, middle in (([0, 4, 7], [20, 11, 8]), ([3, 0, 5], [9, 17, 13])):
        game_id, token = _start(client, gid, {"player": ["Anna", "Ben", "Cleo"]})
        _play(client, game_id, token, stacks, middle)
    pages = [
        client.get(f"/groups/{gid}?season=all&lang={language}").text,
        client.get(f"/groups/{gid}/members/{quote('Anna')}?lang={language}").text,
        client.get(f"/g/{game_id}?lang={language}").text,
    ]
    texts = [text for page in pages for text in _chart_numbers(page)]
    assert len(texts) > 20  # four charts were drawn
    assert not [t for t in texts if DECIMAL_POINT.search(t)]
    # The ratings are fractional: the descriptions write them with a comma.
    assert any(re.search(r"\d,\d", t) for t in texts)
