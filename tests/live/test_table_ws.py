"""The table over real WebSocket sessions (Starlette's test client)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable

from fastapi.testclient import TestClient

from helpers.live_wire import (
    FAST,
    RACE,
    join,
    open_table,
    receive_until,
    send,
    started_two_player_table,
)
from ligretto.live.settings import TableSettings


def test_join_by_name_takes_a_free_seat_and_gets_a_token(client: TestClient) -> None:
    table = open_table(client, seats=3)
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        welcome = join(ws, name="  Ben  ")
        assert welcome["type"] == "welcome"
        assert welcome["seat"] == 1 and welcome["host"] is False
        assert len(welcome["token"]) >= 20
        seats = welcome["table"]["seats"]
        assert [s["name"] for s in seats] == ["Anna", "Ben", None]
        assert all("token" not in s for s in seats)
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        refused = join(ws, name="ben")
        assert (refused["type"], refused["code"]) == ("refused", "name_taken")


def test_unknown_table_and_bad_token_are_refused(client: TestClient) -> None:
    with client.websocket_connect("/play/NOSUCH/ws") as ws:
        assert ws.receive_json()["code"] == "no_such_table"
    table = open_table(client)
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        assert join(ws, token="x" * 24)["code"] == "bad_token"
        # The connection is still usable: it may watch instead.
        assert join(ws)["seat"] is None


def test_r3_race_two_clients_one_pile_exactly_one_wins(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    _, anna, ben, _ = started_two_player_table(client)
    send(anna, "move", action="play R2 row0 p0", ref=1)
    send(ben, "move", action="play R2 row0 p0", ref=2)
    answers = {}
    for name, ws, ref in (("anna", anna, 1), ("ben", ben, 2)):
        while name not in answers:
            message = ws.receive_json()
            if message.get("ref") == ref:
                answers[name] = message
    kinds = sorted(m["type"] for m in answers.values())
    assert kinds == ["events", "refused"]
    loser = next(m for m in answers.values() if m["type"] == "refused")
    winner = next(m for m in answers.values() if m["type"] == "events")
    assert loser["code"] == "pile_taken"
    assert loser["action"] == "play R2 row0 p0"
    # R3: the same card beat it onto the pile, so the refusal names the winner.
    assert loser["race"]["by"] == winner["seat"]
    assert loser["race"]["name"] == ("Anna", "Ben")[winner["seat"]]
    assert loser["race"]["margin_ms"] >= 0
    assert winner["view"]["middle"][0]["top"] == "R2"
    assert winner["events"][0].endswith("played R2 row0 p0")
    anna.__exit__(None, None, None)
    ben.__exit__(None, None, None)


def test_a_move_for_someone_elses_seat_is_refused(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    _, anna, ben, _ = started_two_player_table(client)
    send(anna, "move", action="play R2 row0 p0", seat=1, ref=5)
    refused = receive_until(anna, "refused", "events")
    assert (refused["type"], refused["code"], refused["ref"]) == ("refused", "wrong_seat", 5)
    # Ben's card is still his to play: nothing happened to the table.
    send(ben, "move", action="play R2 row0 p0", ref=6)
    accepted = receive_until(ben, "events", "refused")
    assert (accepted["type"], accepted["seat"], accepted["ref"]) == ("events", 1, 6)
    anna.__exit__(None, None, None)
    ben.__exit__(None, None, None)


def test_watchers_cannot_move_and_moves_wait_for_the_start(client: TestClient) -> None:
    table = open_table(client)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as watcher, client.websocket_connect(url) as anna:
        assert join(watcher)["seat"] is None
        join(anna, token=table["host_token"])
        send(anna, "move", action="turn", ref=1)
        assert receive_until(anna, "refused")["code"] == "not_started"
        send(watcher, "move", action="turn", ref=2)
        assert receive_until(watcher, "refused")["code"] == "not_seated"
        send(watcher, "start")
        assert receive_until(watcher, "refused")["code"] == "not_host"


def test_malformed_messages_are_refused_and_the_table_plays_on(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    _, anna, ben, _ = started_two_player_table(client)
    for raw, code in (
        ("{not json", "malformed"),
        ('{"v":1,"type":"move","action":"play R2 row0 p0","ref":"x"}', "malformed"),
        ('{"v":9,"type":"move","action":"turn"}', "unsupported_version"),
        (json.dumps({"v": 1, "type": "join", "name": "x" * 5000}), "too_large"),
    ):
        anna.send_text(raw)
        refused = receive_until(anna, "refused")
        assert refused["code"] == code, raw
    send(anna, "move", action="dance wildly", ref=3)
    assert receive_until(anna, "refused")["code"] == "bad_action"
    send(anna, "move", action="play R9 row0 p0", ref=4)
    assert receive_until(anna, "refused")["code"] == "illegal"
    send(anna, "join", name="Again")
    assert receive_until(anna, "refused")["code"] == "already_joined"
    # After all that, the same connection still plays.
    send(anna, "move", action="play R2 row0 p0", ref=7)
    accepted = receive_until(anna, "events")
    assert accepted["ref"] == 7
    anna.__exit__(None, None, None)
    ben.__exit__(None, None, None)


def test_flooding_is_refused_but_the_connection_survives(client: TestClient) -> None:
    table = open_table(client)
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        join(ws)
        for _ in range(80):
            send(ws, "ping")
        codes: list[str] = []
        pongs = 0
        while pongs < 25 or not codes:
            message = ws.receive_json()
            if message["type"] == "refused":
                codes.append(message["code"])
            elif message["type"] == "pong":
                pongs += 1
        assert set(codes) == {"rate_limited"}
        assert pongs < 80
        time.sleep(0.2)  # at least the time the bucket takes to refill (20/s)
        send(ws, "ping", t=1.5)
        # Flood pings that got a refilled token while the flood was still
        # arriving (a slow sender, a busy machine) are answered first.
        pong = receive_until(ws, "pong")
        while pong["t"] is None:
            pong = receive_until(ws, "pong")
        assert pong["t"] == 1.5


def test_reconnection_restores_the_seat_and_its_view(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    table, anna, ben, welcome_ben = started_two_player_table(client)
    send(ben, "move", action="play R2 row0 p0", ref=1)
    accepted = receive_until(ben, "events")
    ben.__exit__(None, None, None)  # the connection drops
    with client.websocket_connect(f"/play/{table['code']}/ws") as again:
        welcome = join(again, token=welcome_ben["token"])
        assert welcome["seat"] == 1
        view = receive_until(again, "view")
        assert view["view"]["viewer"] == 1
        assert view["view"] == accepted["view"]
        assert view["view"]["middle"][0]["top"] == "R2"
        assert "play R2 row0 p0" not in [a["text"] for a in view["view"]["actions"]]
    anna.__exit__(None, None, None)


def test_host_seats_and_removes_bots_before_the_start(client: TestClient) -> None:
    table = open_table(client, seats=4)
    with client.websocket_connect(f"/play/{table['code']}/ws") as host:
        assert join(host, token=table["host_token"])["host"] is True
        receive_until(host, "table")  # everybody hears that the host arrived
        send(host, "add_bot", strategy="greedy", level="hard")
        seats = receive_until(host, "table")["table"]["seats"]
        assert seats[1]["kind"] == "bot" and seats[1]["strategy"] == "greedy"
        send(host, "add_bot", seat=1)
        assert receive_until(host, "refused", "table")["code"] == "seat_taken"
        send(host, "remove_bot", seat=0)
        assert receive_until(host, "refused", "table")["code"] == "no_such_seat"
        send(host, "remove_bot", seat=1)
        seats = receive_until(host, "table")["table"]["seats"]
        assert seats[1]["kind"] == "empty"
        send(host, "start")
        assert receive_until(host, "refused", "table")["code"] == "too_few_players"


def test_seats_are_fixed_once_the_game_started(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    _, anna, ben, _ = started_two_player_table(client)
    send(anna, "add_bot", strategy="greedy", level="hard")
    assert receive_until(anna, "refused")["code"] == "already_started"
    send(anna, "remove_bot", seat=1)
    assert receive_until(anna, "refused")["code"] == "already_started"
    send(ben, "remove_bot", seat=0)  # and never by anyone but the host
    assert receive_until(ben, "refused")["code"] == "not_host"
    anna.__exit__(None, None, None)
    ben.__exit__(None, None, None)


def test_a_bot_named_by_a_strategy_alias_takes_its_seat(client: TestClient) -> None:
    # ``mine`` is the alias of the own strategy (issue 5: ``mine:hard``).
    table = open_table(client, seats=3, bots=[{"strategy": "mine", "level": "hard"}])
    assert table["table"]["seats"][1]["strategy"] == "mine"
    with client.websocket_connect(f"/play/{table['code']}/ws") as host:
        join(host, token=table["host_token"])
        receive_until(host, "table")  # everybody hears that the host arrived
        send(host, "add_bot", strategy="mine", level="easy")
        seats = receive_until(host, "table", "refused")["table"]["seats"]
        assert (seats[2]["kind"], seats[2]["strategy"], seats[2]["level"]) == (
            "bot",
            "mine",
            "easy",
        )


def test_a_seat_away_too_long_is_played_by_a_bot_and_can_be_reclaimed(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(dataclasses.replace(FAST, bot_pace=1.0))
    table, anna, ben, welcome_ben = started_two_player_table(client)
    ben.__exit__(None, None, None)
    seats = receive_until(anna, "table")["table"]["seats"]
    while not seats[1]["away"]:
        seats = receive_until(anna, "table")["table"]["seats"]
    assert seats[1]["connected"] is False
    # The stand-in plays through the same move path: Ben's events arrive.
    assert receive_until(anna, "events")["seat"] == 1
    with client.websocket_connect(f"/play/{table['code']}/ws") as again:
        assert join(again, token=welcome_ben["token"])["seat"] == 1
        seats = receive_until(again, "table")["table"]["seats"]
        assert seats[1]["away"] is False and seats[1]["connected"] is True
    anna.__exit__(None, None, None)


def test_a_person_gone_before_the_start_is_stood_in_for_after_it(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(dataclasses.replace(FAST, bot_pace=1.0))
    table = open_table(client)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as ben:
        join(ben, name="Ben")  # sits down, then leaves before the start
    with client.websocket_connect(url) as anna:
        join(anna, token=table["host_token"])
        send(anna, "start")
        seats = receive_until(anna, "table")["table"]["seats"]
        while not seats[1]["away"]:
            seats = receive_until(anna, "table")["table"]["seats"]
        assert receive_until(anna, "events")["seat"] == 1


def test_the_host_frees_the_seat_of_someone_who_left_the_lobby(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as host:
        join(host, token=table["host_token"])
        with client.websocket_connect(url) as ben:
            assert join(ben, name="Ben")["seat"] == 1
            send(host, "remove_bot", seat=1)
            assert receive_until(host, "refused")["code"] == "no_such_seat"  # Ben is here
        seats = receive_until(host, "table")["table"]["seats"]
        while seats[1]["connected"]:
            seats = receive_until(host, "table")["table"]["seats"]
        send(host, "remove_bot", seat=0)  # the host's own seat stays
        assert receive_until(host, "refused")["code"] == "no_such_seat"
        send(host, "remove_bot", seat=1)
        seats = receive_until(host, "table")["table"]["seats"]
        assert seats[1]["kind"] == "empty" and seats[1]["name"] is None


def test_t1_a_look_alike_name_is_taken_at_the_table(client: TestClient) -> None:
    table = open_table(client, seats=3)  # the host sits as "Anna"
    # Cyrillic and Greek capital A; Greek capitals only (Ν is drawn like N, ν not like n)
    for alike in ("\u0410nna", "\u0391nna", "\u0391\u039d\u039d\u0391"):
        with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
            refused = join(ws, name=alike)
            assert (refused["type"], refused["code"]) == ("refused", "name_taken")
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        refused = join(ws, name="Anna\u180b")
        assert (refused["type"], refused["code"]) == ("refused", "bad_name")
