"""A person leaves the table (docs/protocol.md, ``leave``), and a person the
host removed stays out (``join``'s ``device``): before the start the seat
is freed, during the game a stand-in plays it to the end and the seat says
why; a host who leaves passes the host role on, or cannot leave alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest
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
    tables_of,
)
from ligretto.live import departures
from ligretto.live.connection import CLOSE_LEFT, Connection
from ligretto.live.persistence import restore_state, table_state
from ligretto.live.protocol import Reason
from ligretto.live.scoring.keeper import EndCondition
from ligretto.live.seating import SeatingError
from ligretto.live.settings import TableSettings
from ligretto.live.state import TableState
from ligretto.rules.options import RuleOptions
from ligretto.store.live_tables import StoredTable


def test_in_the_lobby_the_seat_of_one_who_leaves_becomes_free(client: TestClient) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    with (
        client.websocket_connect(url) as host,
        client.websocket_connect(url) as ben,
        client.websocket_connect(url) as watcher,
    ):
        join(host, host_token=table["host_token"])
        ben_token = join(ben, name="Ben")["token"]
        join(watcher)
        send(watcher, "leave")  # a watcher has no seat to leave
        assert receive_until(watcher, "refused")["code"] == "not_seated"
        send(ben, "leave")
        left = receive_until(ben, "left")
        assert left["seat"] == 1 and "left" in left["reason"]
        assert closed_with(ben) == CLOSE_LEFT
        seats = table_until(host, lambda t: t["seats"][1]["kind"] == "empty")["seats"]
        assert [s["kind"] for s in seats] == ["human", "empty", "empty"]
    # Ben's token takes nothing back; the free seat takes the next person,
    # and Ben may sit down again like anyone.
    with client.websocket_connect(url) as again:
        assert join(again, token=ben_token)["code"] == "bad_token"
    with client.websocket_connect(url) as ben_again:
        assert join(ben_again, name="Ben")["seat"] == 1


def test_during_the_game_a_stand_in_plays_the_seat_of_one_who_left(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(FAST)
    table, anna, ben, welcome_ben = started_two_player_table(client)
    try:
        send(ben, "leave")
        receive_until(ben, "left")
        assert closed_with(ben) == CLOSE_LEFT
        # The seats are fixed once the game started (T1): Ben's name stays,
        # and the seat says he left and a bot plays it.
        seats = table_until(anna, lambda t: t["seats"][1]["gone"] == "left")["seats"]
        assert seats[1]["name"] == "Ben" and seats[1]["kind"] == "human"
        assert seats[1]["away"] is True and seats[1]["connected"] is False
        assert seats[0]["gone"] is None
        # Anna hosts, and nobody is left to take it over: she cannot leave.
        send(anna, "leave")
        assert receive_until(anna, "refused")["code"] == "host_alone"
        moved = receive_until(anna, "events")
        while moved["seat"] != 1:
            moved = receive_until(anna, "events")
        with client.websocket_connect(f"/play/{table['code']}/ws") as back:
            assert join(back, token=welcome_ben["token"])["code"] == "bad_token"
    finally:
        ben.__exit__(None, None, None)
        anna.__exit__(None, None, None)


def test_a_host_who_leaves_passes_the_host_role_to_the_next_person(
    client: TestClient,
) -> None:
    table = open_table(client, seats=4)
    code, old_token = table["code"], table["host_token"]
    url = f"/play/{code}/ws"
    with (
        client.websocket_connect(url) as anna,
        client.websocket_connect(url) as ben,
        client.websocket_connect(url) as cleo,
    ):
        join(anna, host_token=old_token)
        join(ben, name="Ben")
        join(cleo, name="Cleo")
        send(anna, "leave")
        receive_until(anna, "left")
        assert closed_with(anna) == CLOSE_LEFT
        # Ben, the first other person at the table, hosts it now.
        new_token = receive_until(ben, "host")["host_token"]
        assert new_token != old_token
        send(cleo, "add_bot", strategy="greedy", level="easy")
        assert receive_until(cleo, "refused")["code"] == "not_host"
        send(ben, "add_bot", strategy="greedy", level="easy")
        seats = table_until(ben, lambda t: any(s["kind"] == "bot" for s in t["seats"]))["seats"]
        assert [s["kind"] for s in seats] == ["bot", "human", "human", "empty"]
    # The old host token stopped working; the new one is the host's key.
    (found,) = [t for t in tables_of(client).open_tables() if t.code == code]
    assert found.state.seating.is_host_token(new_token)
    assert not found.state.seating.is_host_token(old_token)
    with client.websocket_connect(url) as again:
        assert join(again, host_token=old_token)["code"] == "bad_token"


def test_a_removed_person_does_not_sit_down_again_from_the_same_device(
    client: TestClient,
) -> None:
    table = open_table(client, seats=3)
    url = f"/play/{table['code']}/ws"
    device = "ben-phone-0123456789"
    with client.websocket_connect(url) as host:
        join(host, host_token=table["host_token"])
        with client.websocket_connect(url) as ben:
            assert join(ben, name="Ben", device=device)["seat"] == 1
            send(host, "remove_player", seat=1)
            receive_until(ben, "removed")
        table_until(host, lambda t: t["seats"][1]["kind"] == "empty")
        # Under another name, from the same page's device: refused, nothing changes.
        with client.websocket_connect(url) as sneaky:
            refused = join(sneaky, name="Benjamin", device=device)
            assert refused["type"] == "refused" and refused["code"] == "removed"
            assert join(sneaky)["seat"] is None  # watching is still allowed
        seats = client.get(f"/api/tables/{table['code']}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "empty", "empty"]
        # Anyone else (another device, or none named) sits down.
        with client.websocket_connect(url) as cleo:
            assert join(cleo, name="Cleo", device="cleo-laptop-98765")["seat"] == 1


def test_a_removed_seat_says_so_during_the_game(
    make_client: Callable[[TableSettings], TestClient],
) -> None:
    client = make_client(FAST)
    _table, anna, ben, _welcome = started_two_player_table(client)
    try:
        send(anna, "remove_player", seat=1)
        receive_until(ben, "removed")
        seats = table_until(anna, lambda t: t["seats"][1]["gone"] == "removed")["seats"]
        assert seats[1]["away"] is True and seats[1]["name"] == "Ben"
    finally:
        ben.__exit__(None, None, None)
        anna.__exit__(None, None, None)


def test_who_left_and_who_is_kept_out_survive_a_restart() -> None:
    state = TableState.open(
        "ABCDEF",
        seats=3,
        options=RuleOptions(),
        end=EndCondition(),
        host_token="host-token-1234",
        host_name="Anna",
    )
    seating = state.seating
    seating.sit_down(Connection(), "Ben", lobby=True, device="ben-phone-0123456789")
    seating.sit_down(Connection(), "Cleo", lobby=True, device="cleo-phone-0123456789")
    departures.remove_person(seating, 1, lobby=False)
    departures.leave(seating, 2, lobby=False)
    restored = restore_state(StoredTable("ABCDEF", table_state(state), []))
    again = restored.seating
    assert [s.gone for s in again] == [None, "removed", "left"]
    assert again.barred == seating.barred and len(again.barred) == 1
    assert again[1].away and again[2].away
    with pytest.raises(SeatingError) as refused:
        again.sit_down(Connection(), "Bennie", lobby=True, device="ben-phone-0123456789")
    assert refused.value.code is Reason.REMOVED
