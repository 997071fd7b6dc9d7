"""Seat links: a fresh token on every take-over, host rights on a token of
their own, and the host revoking a seat's link."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from helpers.live_wire import RACE, join, open_table, receive_until, send, started_two_player_table
from ligretto.live.connection import Connection
from ligretto.live.protocol import Reason
from ligretto.live.seating import Seating, SeatingError
from ligretto.live.settings import TableSettings

HOST = "host-token-1234"


def test_a_take_over_issues_a_new_token_and_the_old_one_stops_working(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(RACE)
    table, anna, ben, welcome_ben = started_two_player_table(client)
    url = f"/play/{table['code']}/ws"
    old = welcome_ben["token"]
    with client.websocket_connect(url) as laptop:
        welcome = join(laptop, token=old)
        assert welcome["seat"] == 1 and welcome["host"] is False
        new = welcome["token"]
        assert new and new != old
        assert "host_token" not in welcome or welcome["host_token"] is None
        receive_until(ben, "taken_over")
        # The link just used takes nothing any more, on any connection.
        with client.websocket_connect(url) as phone:
            refused = join(phone, token=old)
            assert refused["type"] == "refused" and refused["code"] == "bad_token"
        assert client.post(f"/play/{table['code']}/seat-link", json={"token": old}).json() == {
            "detail": "no seat at this table belongs to this token",
            "code": "bad_token",
        }
        # The laptop still plays the seat: its move is carried out.
        view = receive_until(laptop, "view")
        send(laptop, "move", action=view["view"]["actions"][0]["text"], ref=5)
        assert receive_until(laptop, "events", "refused")["type"] == "events"
        seats = client.get(f"/api/tables/{table['code']}").json()["seats"]
        assert seats[1]["connected"] is True
    ben.__exit__(None, None, None)
    anna.__exit__(None, None, None)


def test_the_seat_link_of_the_hosts_seat_carries_no_host_rights(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as host, client.websocket_connect(url) as friend:
        welcome = join(host, host_token=table["host_token"])
        assert welcome["seat"] == 0 and welcome["host"] is True
        assert welcome["host_token"] == table["host_token"]
        assert welcome["token"] != table["host_token"]
        # The seat link opened elsewhere takes the seat, not the host role.
        moved = join(friend, token=welcome["token"])
        assert moved["seat"] == 0 and moved["host"] is False
        assert moved["host_token"] is None
        send(friend, "add_bot", strategy="greedy", level="hard")
        assert receive_until(friend, "refused")["code"] == "not_host"
        assert all(
            s["kind"] != "bot" for s in client.get(f"/api/tables/{table['code']}").json()["seats"]
        )


def test_the_host_token_gives_the_host_role_and_the_hosts_own_seat(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with client.websocket_connect(url) as first:
        # Protocol version 1 sent the host token as ``token``; it still works.
        welcome = join(first, token=table["host_token"])
        assert (welcome["seat"], welcome["host"]) == (0, True)
    with client.websocket_connect(url) as second:
        both = join(second, token=welcome["token"], host_token=table["host_token"])
        assert (both["seat"], both["host"]) == (0, True)
        assert both["token"] not in (welcome["token"], table["host_token"])
    with client.websocket_connect(url) as third:
        refused = join(third, token=both["token"], host_token="x" * 24)
        assert refused["type"] == "refused" and refused["code"] == "bad_token"


def test_the_host_revokes_a_seat_link(client: TestClient) -> None:
    table = open_table(client, seats=3)
    code = table["code"]
    url = f"/play/{code}/ws"
    with (
        client.websocket_connect(url) as host,
        client.websocket_connect(url) as ben,
        client.websocket_connect(url) as stranger,
    ):
        join(host, host_token=table["host_token"])
        welcome_ben = join(ben, name="Ben")
        # Ben's link leaked: a stranger opened it and plays his seat now.
        taken = join(stranger, token=welcome_ben["token"])
        assert taken["seat"] == 1
        receive_until(ben, "taken_over")
        # Only the host may revoke; nothing changes otherwise.
        send(stranger, "revoke_seat", seat=1)
        assert receive_until(stranger, "refused")["code"] == "not_host"
        send(host, "revoke_seat", seat=2)  # an empty seat has no link
        assert receive_until(host, "refused")["code"] == "no_such_seat"
        send(host, "revoke_seat", seat=1)
        revoked = receive_until(stranger, "revoked")
        assert revoked["seat"] == 1 and "revoked" in revoked["reason"]
        # ... and the stranger's socket is closed (4403).
        closing = stranger.receive()
        assert closing["type"] == "websocket.close" and closing["code"] == 4403
        seats = receive_until(host, "table")["table"]["seats"]
        assert seats[1]["name"] == "Ben" and seats[1]["connected"] is False
        # Neither the stranger's token nor Ben's old one takes the seat.
        for token in (taken["token"], welcome_ben["token"]):
            with client.websocket_connect(url) as again:
                assert join(again, token=token)["code"] == "bad_token"
        # In the lobby the host can now empty the chair for Ben to sit again.
        send(host, "remove_bot", seat=1)
        seats = receive_until(host, "table")["table"]["seats"]
        assert seats[1]["kind"] == "empty"


def test_revoking_the_hosts_own_seat_leaves_it_to_the_host_token() -> None:
    seating = Seating(2, HOST)
    seating.seat_host(0, "Anna")
    phone = Connection()
    seat, leaked, _ = seating.claim(phone, None, HOST)
    assert seat is seating[0]
    assert leaked is not None and seating.by_token(leaked) is seat
    seat, displaced = seating.revoke(0)
    assert displaced == [phone] and phone.taken_over and phone.seat is None
    assert seating.by_token(leaked) is None
    back, _, _ = seating.claim(Connection(), None, HOST)
    assert back is seating[0]
    try:
        seating.revoke(1)
    except SeatingError as exc:
        assert exc.code is Reason.NO_SUCH_SEAT
    else:  # pragma: no cover
        raise AssertionError("an empty seat has no link to revoke")


def test_a_token_is_compared_as_text_of_any_kind() -> None:
    seating = Seating(2, HOST)
    seating.seat_host(0, "Anna")
    for odd in ("ä", "\ud800", "", "x" * 500, HOST + "\x00"):
        assert seating.by_token(odd) is None
        assert not seating.is_host_token(odd)
    assert seating.is_host_token(HOST)
