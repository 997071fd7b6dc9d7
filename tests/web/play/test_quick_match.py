"""Quick match against a real server: people who ask within the wait sit at
one table; after the wait bots fill the empty chairs and the game starts
(docs/online-play.md, "Quick match")."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from helpers.browser import PlayServer, serving
from helpers.live_client import Person
from ligretto.live.settings import TableSettings

# Long enough that two requests of a test always fall within it; bots
# stay still once the game is on.
WAIT = 20.0
SETTINGS = TableSettings(
    countdown=0.5, between_rounds=30.0, away_after=60.0, bot_pace=80.0, match_wait=WAIT
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serving(PlayServer(tmp_path_factory.mktemp("match"), SETTINGS))


@pytest.fixture
def http(server: PlayServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20, trust_env=False) as client:
        yield client


def ask(http: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/lobby/match", json=body)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def table_once(http: httpx.Client, code: str, phases: set[str]) -> dict[str, Any]:
    """The table once its phase is one of ``phases`` (after the wait and more)."""
    deadline = time.monotonic() + WAIT + 60.0
    while time.monotonic() < deadline:
        table: dict[str, Any] = http.get(f"/api/tables/{code}").json()
        if table["phase"] in phases:
            return table
        time.sleep(0.2)  # between polls only
    raise AssertionError(f"table {code} never reached {phases}")


def test_two_who_ask_within_the_wait_sit_at_one_table_then_bots_fill_it(
    http: httpx.Client,
) -> None:
    first = ask(http, name="Anna", language="de", players=3)
    second = ask(http, name="Ben", language="de", players=3)
    assert second["code"] == first["code"]
    assert (first["waiting"], second["waiting"]) == (False, True)
    assert second["page_url"].endswith(f"/play/{first['code']}#n=Ben")
    assert abs(second["fills_at"] - first["fills_at"]) < 5
    anna, ben = Person(first["ws_url"], "Anna"), Person(second["ws_url"], "Ben")
    try:
        assert anna.join(name="Anna")["type"] == "welcome"
        assert ben.join(name="Ben")["type"] == "welcome"
        table = table_once(http, first["code"], {"countdown", "playing"})
        kinds = sorted(seat["kind"] for seat in table["seats"])
        assert kinds == ["bot", "human", "human"]
        assert table["fills_at"] is None
    finally:
        anna.close()
        ben.close()


def test_one_alone_is_seated_with_bots_after_the_wait(http: httpx.Client) -> None:
    found = ask(http, name="Cleo", language="nb", players=2)
    assert found["waiting"] is False
    waiting = http.get(f"/api/tables/{found['code']}").json()
    assert waiting["phase"] == "lobby" and waiting["fills_at"] == found["fills_at"]
    # The lobby lists the match's table meanwhile, like any public table.
    assert found["code"] in [t["code"] for t in http.get("/api/lobby").json()["tables"]]
    cleo = Person(found["ws_url"], "Cleo")
    try:
        assert cleo.join(name="Cleo")["type"] == "welcome"
        table = table_once(http, found["code"], {"countdown", "playing"})
        assert [seat["kind"] for seat in table["seats"]] == ["human", "bot"]
    finally:
        cleo.close()


def test_different_languages_or_sizes_are_not_matched(http: httpx.Client) -> None:
    one = ask(http, name="Dora", language="en", players=4)
    other_language = ask(http, name="Emil", language="nb", players=4)
    other_size = ask(http, name="Finn", language="en", players=5)
    assert len({one["code"], other_language["code"], other_size["code"]}) == 3


def test_a_refused_request_opens_nothing(http: httpx.Client) -> None:
    def listed() -> set[str]:
        return {t["code"] for t in http.get("/api/lobby").json()["tables"]}

    before = listed()
    for body in (
        {"name": ""},
        {"name": "Gus", "players": 1},
        {"name": "Gus", "players": 7},
        {"name": "Gus", "players": "4"},
        {"name": "Gus", "language": "fr"},
        {"name": "Gus\u0000"},
        {"name": "Gus", "seats": 4},
    ):
        answer = http.post("/api/lobby/match", json=body)
        assert answer.status_code == 422, body
        assert answer.json()["code"]
    assert listed() <= before  # nothing new (an earlier test's table may have left)


def test_the_match_route_is_in_the_api_description(http: httpx.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/lobby/match"]


def test_one_who_cancels_is_not_waited_for(http: httpx.Client) -> None:
    found = ask(http, name="Hanna", language="en", players=3)
    hanna = Person(found["ws_url"], "Hanna")
    assert hanna.join(name="Hanna")["type"] == "welcome"
    hanna.close()  # "Cancel": the page is left before the wait is over
    deadline = time.monotonic() + WAIT + 60.0
    table: dict[str, Any] = {}
    listed = True
    while time.monotonic() < deadline:
        table = http.get(f"/api/tables/{found['code']}").json()
        codes = [t["code"] for t in http.get("/api/lobby").json()["tables"]]
        listed = found["code"] in codes
        if not table["public"] and not listed:
            break
        time.sleep(0.2)  # between polls only
    # Nobody left at the table: no game, its chair empty, off the lobby.
    assert table["public"] is False and table["phase"] == "lobby"
    assert [seat["kind"] for seat in table["seats"]] == ["empty"] * 3
    assert not listed
