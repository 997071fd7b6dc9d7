"""The lobby against a real server: public tables listed, and leaving the
list when full, started or private, read and followed as a stream
(docs/online-play.md, "The lobby")."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from helpers.browser import PlayServer, serving
from helpers.live_client import Person
from helpers.lobby_stream import LobbyLists, codes, following
from ligretto.live.settings import TableSettings
from ligretto.web.play.lobby_feed import MAX_STREAMS_PER_CLIENT

# Bots stay still: a started table must not end before the test looks.
STILL = TableSettings(countdown=0.5, between_rounds=30.0, away_after=60.0, bot_pace=80.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    yield from serving(PlayServer(tmp_path_factory.mktemp("lobby"), STILL))


@pytest.fixture
def http(server: PlayServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20, trust_env=False) as client:
        yield client


def lobby_codes(http: httpx.Client) -> list[str]:
    answer = http.get("/api/lobby")
    assert answer.status_code == 200
    return [t["code"] for t in answer.json()["tables"]]


def eventually(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll ``check`` until it holds: the lobby's keeper looks every second."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)  # between polls only; the assertion is the deadline's
    raise AssertionError(f"not within {timeout:g} s: {what}")


def open_table(http: httpx.Client, **spec: Any) -> dict[str, Any]:
    answer = http.post("/api/tables", json={"name": "Anna", **spec})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_a_public_table_is_listed_with_its_rules_and_no_token(http: httpx.Client) -> None:
    table = open_table(
        http,
        seats=3,
        public=True,
        language="nb",
        bots=[{"seat": 1, "strategy": "greedy"}],
        end={"mode": "target", "target": 50},
        options={"row_storage": True},
    )
    answer = http.get("/api/lobby")
    listed = {t["code"]: t for t in answer.json()["tables"]}
    entry = listed[table["code"]]
    assert entry["free_seats"] == 1 and entry["seats"] == 3
    assert entry["players"] == ["Anna"] and entry["bots"] == 1
    assert entry["language"] == "nb"
    assert entry["rules"] == {
        "deck": "ligretto",
        "row_storage": True,
        "end": "target",
        "target": 50,
        "rounds": None,
    }
    assert entry["waiting_seconds"] >= 0
    assert table["host_token"] not in answer.text
    assert "token" not in answer.text


def test_a_private_table_is_never_listed(http: httpx.Client) -> None:
    private = open_table(http, seats=4)
    public = open_table(http, seats=4, public=True)
    codes = lobby_codes(http)
    assert public["code"] in codes
    assert private["code"] not in codes
    assert http.get(f"/api/tables/{private['code']}").json()["public"] is False


def test_a_full_table_leaves_the_lobby(http: httpx.Client, server: PlayServer) -> None:
    table = open_table(http, seats=2, public=True)
    assert table["code"] in lobby_codes(http)
    ben = Person(f"{server.url.replace('http', 'ws', 1)}/play/{table['code']}/ws", "Ben")
    try:
        assert ben.join(name="Ben")["type"] == "welcome"
        eventually(lambda: table["code"] not in lobby_codes(http), "the full table left")
    finally:
        ben.close()


def test_a_started_table_leaves_the_lobby(http: httpx.Client, server: PlayServer) -> None:
    table = open_table(http, seats=3, public=True, bots=[{"seat": 1, "strategy": "greedy"}])
    assert table["code"] in lobby_codes(http)
    anna = Person(f"{server.url.replace('http', 'ws', 1)}/play/{table['code']}/ws", "Anna")
    try:
        assert anna.join(host_token=table["host_token"])["type"] == "welcome"
        anna.send("start")
        eventually(lambda: table["code"] not in lobby_codes(http), "the started table left")
    finally:
        anna.close()


def test_the_host_makes_a_table_private_and_public_again(http: httpx.Client) -> None:
    table = open_table(http, seats=4, public=True)
    code, token = table["code"], table["host_token"]
    url = f"/api/tables/{code}/public"
    # Without the host's token nothing changes.
    assert http.put(url, json={"public": False}).status_code == 401
    wrong = http.put(url, json={"public": False}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "forbidden"
    bad = http.put(url, json={"public": "maybe"}, headers={"Authorization": f"Bearer {token}"})
    assert bad.status_code == 422
    assert code in lobby_codes(http)

    mine = {"Authorization": f"Bearer {token}"}
    answer = http.put(url, json={"public": False}, headers=mine)
    assert answer.status_code == 200 and answer.json() == {"code": code, "public": False}
    assert code not in lobby_codes(http)
    assert http.get(f"/api/tables/{code}").json()["public"] is False
    assert http.put(url, json={"public": True}, headers=mine).json()["public"] is True
    assert code in lobby_codes(http)


def test_refused_input_opens_nothing(http: httpx.Client) -> None:
    before = lobby_codes(http)
    for spec in ({"public": "yes"}, {"public": True, "language": "fr"}):
        answer = http.post("/api/tables", json={"name": "Anna", **spec})
        assert answer.status_code == 422
        assert answer.json()["code"]
    assert lobby_codes(http) == before


def test_the_lobby_and_its_routes_are_in_the_api_description(http: httpx.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    assert "get" in paths["/api/lobby"]
    assert "text/event-stream" in paths["/api/lobby/events"]["get"]["responses"]["200"]["content"]
    assert "put" in paths["/api/tables/{code}/public"]
    created = paths["/api/tables"]["post"]["requestBody"]["content"]["application/json"]
    assert created["schema"]["$ref"].endswith("/CreateTable")


def test_a_stream_sees_a_table_come_when_opened_public_and_go_when_made_private(
    http: httpx.Client,
) -> None:
    with (
        httpx.Client(base_url=str(http.base_url), timeout=20, trust_env=False) as watcher,
        following(watcher) as lists,
    ):
        first = lists.until(lambda _tables: True, "the list when the stream opens")
        assert codes(first) == set(lobby_codes(http))
        table = open_table(http, seats=4, public=True, language="de")
        came = lists.until(lambda t: table["code"] in codes(t), "the public table")
        # The same shape as GET /api/lobby, and never a token.
        entry = next(t for t in came if t["code"] == table["code"])
        assert entry["players"] == ["Anna"] and entry["language"] == "de"
        assert set(entry) == {
                "code", "seats", "free_seats", "players", "bots", "language", "rules",
                "waiting_seconds",
            }  # fmt: skip
        assert "token" not in repr(came)
        private = open_table(http, seats=4)  # never in the stream
        mine = {"Authorization": f"Bearer {table['host_token']}"}
        put = http.put(f"/api/tables/{table['code']}/public", json={"public": False}, headers=mine)
        assert put.status_code == 200
        gone = lists.until(lambda t: table["code"] not in codes(t), "the table made private")
        assert private["code"] not in codes(gone)


def test_a_stream_sees_a_table_go_when_full_and_come_back_when_a_seat_is_freed(
    http: httpx.Client, server: PlayServer
) -> None:
    table = open_table(http, seats=2, public=True)
    code = table["code"]
    ws = f"{server.url.replace('http', 'ws', 1)}/play/{code}/ws"
    with (
        httpx.Client(base_url=server.url, timeout=20, trust_env=False) as watcher,
        following(watcher) as lists,
    ):
        lists.until(lambda t: code in codes(t), "the public table")
        anna, ben = Person(ws, "Anna"), Person(ws, "Ben")
        try:
            assert anna.join(host_token=table["host_token"])["type"] == "welcome"
            welcome = ben.join(name="Ben")
            assert welcome["type"] == "welcome" and welcome["seat"] == 1
            lists.until(lambda t: code not in codes(t), "the full table")
            anna.send("remove_player", seat=1)  # a seat free again
            back = lists.until(lambda t: code in codes(t), "the table with a free seat")
            assert next(t for t in back if t["code"] == code)["free_seats"] == 1
        finally:
            anna.close()
            ben.close()


def test_one_client_holds_a_bounded_number_of_lobby_streams(server: PlayServer) -> None:
    with httpx.Client(base_url=server.url, timeout=20, trust_env=False) as many:
        with contextlib.ExitStack() as open_streams:
            for _ in range(MAX_STREAMS_PER_CLIENT):
                open_streams.enter_context(following(many))
            refused = many.get("/api/lobby/events")
            assert refused.status_code == 429
            assert refused.json()["code"] == "too_many_streams"
            assert refused.headers["retry-after"]
        # Closed again, they make room (once the server has heard them close).
        deadline = time.monotonic() + 30
        while True:
            with many.stream("GET", "/api/lobby/events") as again:
                if again.status_code == 200:
                    LobbyLists(again).until(lambda _tables: True, "a stream opened again")
                    break
                assert again.status_code == 429
            assert time.monotonic() < deadline, "the closed streams made no room"
            time.sleep(0.05)  # between polls only; the assertion is the deadline's
