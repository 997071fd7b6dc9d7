"""Continue on another device: the seat link and the takeover of a seat."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from helpers.live_wire import RACE, join, open_table, receive_until, send, started_two_player_table
from ligretto.live.settings import TableSettings


def test_a_second_device_takes_the_seat_over(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    table, anna, ben, welcome_ben = started_two_player_table(client)
    send(ben, "move", action="play R2 row0 p0", ref=1)
    accepted = receive_until(ben, "events")
    with client.websocket_connect(f"/play/{table['code']}/ws") as laptop:
        welcome = join(laptop, token=welcome_ben["token"])
        assert welcome["type"] == "welcome" and welcome["seat"] == 1
        view = receive_until(laptop, "view")
        assert view["view"]["viewer"] == 1
        assert view["view"] == accepted["view"]
        # The phone hears that its seat moved, and holds nothing any more.
        gone = receive_until(ben, "taken_over")
        assert gone["seat"] == 1
        assert "another device" in gone["reason"]
        action = view["view"]["actions"][0]["text"]
        send(ben, "move", action=action, ref=2)
        refused = receive_until(ben, "refused")
        assert refused["code"] == "taken_over" and refused["ref"] == 2
        send(ben, "join", token=welcome_ben["token"])
        assert receive_until(ben, "refused")["code"] == "taken_over"
        # The new device plays the seat; the table names one connection.
        send(laptop, "move", action=action, ref=3)
        answer = receive_until(laptop, "events", "refused")
        assert answer["type"] == "events" and answer["ref"] == 3 and answer["seat"] == 1
        seats = receive_until(anna, "table")["table"]["seats"]
        assert seats[1]["connected"] is True
    ben.__exit__(None, None, None)
    anna.__exit__(None, None, None)


def test_the_host_moves_with_the_seat(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as phone, client.websocket_connect(url) as laptop:
        assert join(phone, token=table["host_token"])["host"] is True
        welcome = join(laptop, token=table["host_token"])
        assert welcome["seat"] == 0 and welcome["host"] is True
        receive_until(phone, "taken_over")
        send(phone, "add_bot", strategy="greedy", level="hard")
        assert receive_until(phone, "refused")["code"] == "taken_over"
        send(laptop, "add_bot", strategy="greedy", level="hard")
        seats = receive_until(laptop, "table")["table"]["seats"]
        while seats[1]["kind"] != "bot":
            seats = receive_until(laptop, "table")["table"]["seats"]


def test_a_wrong_token_takes_nothing(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as phone, client.websocket_connect(url) as other:
        assert join(phone, token=table["host_token"])["seat"] == 0
        refused = join(other, token="not-a-token-of-this-table")
        assert refused["type"] == "refused" and refused["code"] == "bad_token"
        # The holder still plays the seat: its host command is carried out.
        send(phone, "add_bot", strategy="greedy", level="hard")
        message = receive_until(phone, "table", "taken_over")
        while message["type"] == "table" and message["table"]["seats"][1]["kind"] != "bot":
            message = receive_until(phone, "table", "taken_over")
        assert message["type"] == "table"


def test_the_seat_link_is_only_for_the_token_holder(client: TestClient) -> None:
    table = open_table(client, seats=3)
    code = table["code"]
    with client.websocket_connect(f"/play/{code}/ws") as phone:
        seat_token = join(phone, host_token=table["host_token"])["token"]
    answer = client.post(f"/play/{code}/seat-link", json={"token": seat_token})
    assert answer.status_code == 200, answer.text
    link = answer.json()
    assert link["url"].endswith(f"/play/{code}#seat={seat_token}")
    assert link["qr_svg"].startswith("<svg") and "qr-code" in link["qr_svg"]
    for token in ("wrong", ""):
        assert client.post(f"/play/{code}/seat-link", json={"token": token}).status_code in (
            404,
            422,
        )
    assert client.post("/play/ZZZZZZ/seat-link", json={"token": "x"}).status_code == 404
    # The host token is the host's key, not a seat link: it makes none.
    host = client.post(f"/play/{code}/seat-link", json={"token": table["host_token"]})
    assert host.status_code == 404 and host.json()["code"] == "bad_token"
    # A host who only watches has no seat to hand on.
    watching = open_table(client, seats=3, name=None)
    refused = client.post(
        f"/play/{watching['code']}/seat-link", json={"token": watching["host_token"]}
    )
    assert refused.status_code == 404


def test_no_token_reaches_a_watcher(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as watcher:
        welcome = join(watcher)
        assert welcome["seat"] is None and welcome["token"] is None
        with client.websocket_connect(url) as phone, client.websocket_connect(url) as laptop:
            join(phone, token=table["host_token"])
            join(laptop, token=table["host_token"])  # takes seat 0 over
            receive_until(phone, "taken_over")
            send(laptop, "ping", t=1.0)
            receive_until(laptop, "pong")
        seen = [watcher.receive_text() for _ in range(4)]  # arrivals and departures
        for text in seen:
            assert table["host_token"] not in text
            assert "taken_over" not in text
