"""Play again: after the Tafel has decided the game (T4/T5) the host starts a
new game at the same table, same seats, on a fresh Tafel game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.live_wire import FAST, join, receive_until, send, table_until
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture
def tafel_client(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app, so that every table keeps its score on a Tafel game."""
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    app.state.table_settings = FAST
    with TestClient(app) as client:
        yield client


def test_the_host_plays_again_with_the_same_seats_on_a_new_tafel_game(
    tafel_client: TestClient,
) -> None:
    response = tafel_client.post(
        "/api/tables",
        json={
            "seats": 4,
            "name": "Anna",
            "end": {"mode": "rounds", "rounds": 1},
            "bots": [{"strategy": "greedy", "level": "expert"}] * 2,
        },
    )
    assert response.status_code == 201, response.text
    created = response.json()
    url = f"/play/{created['code']}/ws"
    with (
        tafel_client.websocket_connect(url) as anna,
        tafel_client.websocket_connect(url) as ben,
        tafel_client.websocket_connect(url) as watcher,
    ):
        assert join(anna, token=created["host_token"])["host"] is True
        welcome_ben = join(ben, name="Ben")
        assert welcome_ben["seat"] == 3 and welcome_ben["host"] is False
        assert join(watcher)["seat"] is None
        # Before the game has ended there is nothing to play again.
        send(anna, "play_again")
        refused = receive_until(anna, "refused")
        assert refused["code"] == "game_not_over"
        send(anna, "start")
        send(anna, "play_again")
        assert receive_until(anna, "refused")["code"] == "game_not_over"
        # Bots play the one round to its end; the Tafel ends the game (T4).
        over = receive_until(anna, "round_over")
        assert over["game_over"] is True
        first = table_until(anna, lambda t: t["phase"] == "game_over")
        assert first["tafel_game"] is not None
        # Someone who is not the host cannot start a new game.
        send(ben, "play_again")
        refused = receive_until(ben, "refused")
        assert refused["code"] == "not_host"
        send(anna, "play_again")
        second = table_until(anna, lambda t: t["tafel_game"] not in (None, first["tafel_game"]))
        assert second["round_no"] == 1 and second["totals"] == [0, 0, 0, 0]
        assert [(s["name"], s["kind"]) for s in second["seats"]] == [
            (s["name"], s["kind"]) for s in first["seats"]
        ]
        assert tafel_client.get(f"/api/games/{first['tafel_game']}").json()["status"] == "finished"
        assert tafel_client.get(f"/api/games/{second['tafel_game']}").json()["rounds"] == []
        # Watchers see the end of the first game, then the new one dealt.
        assert receive_until(watcher, "round_over")["game_over"] is True
        dealt = receive_until(watcher, "view")
        assert dealt["round_no"] == 1 and dealt["view"]["viewer"] is None
        assert receive_until(watcher, "countdown")["round_no"] == 1
        seen = table_until(watcher, lambda t: t["tafel_game"] == second["tafel_game"])
        assert seen["phase"] in ("countdown", "playing", "round_over", "game_over")
    # People keep their seats and tokens.
    with tafel_client.websocket_connect(url) as again:
        assert join(again, token=welcome_ben["token"])["seat"] == 3
