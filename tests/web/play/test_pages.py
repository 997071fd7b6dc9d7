"""The pages of online play in the whole app: open a table by form, find it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path, database_url=None))) as client:
        yield client


def test_the_form_opens_a_table_with_the_host_token_in_the_fragment(
    app_client: TestClient,
) -> None:
    response = app_client.post(
        "/play",
        data={
            "name": " Anna ",
            "seats": "3",
            "seat1": "greedy",
            "level1": "hard",
            "seat2": "open",
            "mode": "rounds",
            "rounds": "5",
            "row_refill": "manual",
            "recycle_shuffle": "0",
        },
        follow_redirects=False,
    )
    assert response.status_code == 303
    match = re.fullmatch(r"/play/([A-Z0-9]{6})#t=([\w-]{20,})", response.headers["location"])
    assert match is not None
    table = app_client.get(f"/api/tables/{match[1]}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "empty"]
    assert table["seats"][0]["name"] == "Anna"
    assert (table["seats"][1]["strategy"], table["seats"][1]["level"]) == ("greedy", "hard")
    assert table["end"] == {"mode": "rounds", "rounds": 5}
    assert table["options"]["row_refill"] == "manual"
    assert table["options"]["recycle_shuffle"] is False
    page = app_client.get(f"/play/{match[1]}")
    assert page.status_code == 200 and match[2] not in page.text


@pytest.mark.parametrize(
    ("lang", "seats_text"),
    [("en", "A table has 2 to 12 seats"), ("de", "Ein Tisch hat 2 bis 12 Plätze")],
)
def test_a_refused_form_says_why_in_the_readers_language(
    app_client: TestClient, lang: str, seats_text: str
) -> None:
    response = app_client.post(f"/play?lang={lang}", data={"seats": "13", "target": "99"})
    assert response.status_code == 422
    assert seats_text in response.text
    # R1: with ordinary playing cards thirteen seats are fine.
    ok = app_client.post(
        "/play", data={"seats": "13", "deck": "cards", "target": "99"}, follow_redirects=False
    )
    assert ok.status_code == 303


def test_an_unknown_table_is_a_page_not_an_error(app_client: TestClient) -> None:
    response = app_client.get("/play/NOSUCH")
    assert response.status_code == 404
    assert "/play" in response.text
    assert app_client.get("/api/tables/NOSUCH").status_code == 404


def test_a_quick_game_seats_the_person_and_three_bots_to_99(app_client: TestClient) -> None:
    for page in ("/play", "/"):
        assert 'action="/play/quick"' in app_client.get(page).text
    response = app_client.post("/play/quick", data={"name": "  Anna  "}, follow_redirects=False)
    assert response.status_code == 303
    match = re.fullmatch(r"/play/([A-Z0-9]{6})#t=([\w-]{20,})", response.headers["location"])
    assert match is not None
    table = app_client.get(f"/api/tables/{match[1]}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert table["seats"][0]["name"] == "Anna"
    bots = [(s["strategy"], s["level"]) for s in table["seats"][1:]]
    assert bots == [("watchful", "medium"), ("stack-first", "medium"), ("greedy", "medium")]
    assert table["end"] == {"mode": "target", "target": 99}
    assert table["options"]["deck"] == "ligretto" and table["options"]["row_storage"] is False


def test_a_quick_game_without_a_name_asks_for_it(app_client: TestClient) -> None:
    before = len(app_client.app.state.tables)  # type: ignore[attr-defined]
    response = app_client.post("/play/quick", data={"name": "   "}, follow_redirects=False)
    assert response.status_code == 422
    assert "enter your name" in response.text
    assert len(app_client.app.state.tables) == before  # type: ignore[attr-defined]
