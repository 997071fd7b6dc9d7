"""The host removes a person from the table (docs/protocol.md,
``remove_player``): before the start the seat is freed, during the game a
stand-in plays it; the person is told and disconnected either way."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from helpers.live_wire import (
    FAST,
    closed_with,
    join,
    open_table,
    receive_until,
    send,
    started_two_player_table,
    table_until,
)
from ligretto.live import departures
from ligretto.live.connection import CLOSE_REMOVED, Connection
from ligretto.live.protocol import Reason
from ligretto.live.seating import Seating, SeatingError
from ligretto.live.settings import TableSettings


def test_in_the_lobby_the_removed_persons_seat_becomes_free(client: TestClient) -> None:
    table = open_table(client, seats=4, bots=[{"seat": 3, "strategy": "greedy", "level": "easy"}])
    url = f"/play/{table['code']}/ws"
    with (
        client.websocket_connect(url) as host,
        client.websocket_connect(url) as ben,
        client.websocket_connect(url) as cleo,
    ):
        join(host, host_token=table["host_token"])
        ben_token = join(ben, name="Ben")["token"]
        assert join(cleo, name="Cleo")["seat"] == 2
        # Only the host removes, and only a person who is not the host.
        send(cleo, "remove_player", seat=1)
        assert receive_until(cleo, "refused")["code"] == "not_host"
        for seat in (0, 3, 15):  # the host's own, a bot, no such chair
            send(host, "remove_player", seat=seat)
            assert receive_until(host, "refused")["code"] == "no_such_seat"
        send(host, "remove_player", seat=1)
        removed = receive_until(ben, "removed")
        assert removed["seat"] == 1 and "removed" in removed["reason"]
        assert closed_with(ben) == CLOSE_REMOVED
        seats = table_until(host, lambda t: t["seats"][1]["kind"] == "empty")["seats"]
        assert [s["kind"] for s in seats] == ["human", "empty", "human", "bot"]
        assert seats[2]["name"] == "Cleo" and seats[2]["connected"] is True
    # Ben's token takes nothing back; the free seat takes the next person.
    with client.websocket_connect(url) as again:
        assert join(again, token=ben_token)["code"] == "bad_token"
    with client.websocket_connect(url) as dora:
        assert join(dora, name="Dora")["seat"] == 1


def test_during_the_game_a_stand_in_plays_the_removed_persons_seat(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(FAST)
    table, anna, ben, welcome_ben = started_two_player_table(client)
    try:
        send(anna, "remove_player", seat=1)
        receive_until(ben, "removed")
        assert closed_with(ben) == CLOSE_REMOVED
        # The seats are fixed once the game started (T1): Ben's name stays,
        # marked away, and a stand-in plays for him at once.
        seats = table_until(anna, lambda t: t["seats"][1]["away"])["seats"]
        assert seats[1]["name"] == "Ben" and seats[1]["kind"] == "human"
        assert seats[1]["connected"] is False
        moved = receive_until(anna, "events")
        while moved["seat"] != 1:
            moved = receive_until(anna, "events")
        with client.websocket_connect(f"/play/{table['code']}/ws") as back:
            assert join(back, token=welcome_ben["token"])["code"] == "bad_token"
    finally:
        ben.__exit__(None, None, None)
        anna.__exit__(None, None, None)


def test_removing_changes_nothing_when_refused() -> None:
    seating = Seating(3, "host-token-1234")
    seating.seat_host(0, "Anna")
    ben = Connection()
    seating.sit_down(ben, "Ben", lobby=True)
    before = repr(seating)
    for index in (0, 2, 9):
        try:
            departures.remove_person(seating, index, lobby=True)
        except SeatingError as exc:
            assert exc.code is Reason.NO_SUCH_SEAT
        else:  # pragma: no cover
            raise AssertionError(f"seat {index} holds no one to remove")
    assert repr(seating) == before
    seat, displaced = departures.remove_person(seating, 1, lobby=False)
    assert displaced == [ben] and ben.seat is None and ben.taken_over
    assert seat.kind == "human" and seat.name == "Ben" and seat.away
