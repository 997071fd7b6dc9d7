"""GET /api/tables/{code}/rounds/{n}/replay: a finished round, never one being played."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.kept_rounds import old_page_tables, served_tables
from helpers.live_wire import STALLING, receive_until, send
from ligretto.rules.positions import round_positions
from ligretto.rules.replay_file import read_replay, replay_round
from ligretto.rules.round import Round
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture
def client(stalling_client: TestClient) -> TestClient:
    return stalling_client


def test_a_finished_round_is_served_whole_and_one_being_played_is_refused(
    client: TestClient,
) -> None:
    opened = client.post(
        "/api/tables",
        json={
            "seats": 2,
            "bots": [{"strategy": "greedy", "level": "hard"}, {"strategy": "random"}],
            "end": {"mode": "rounds", "rounds": 1},
        },
    )
    assert opened.status_code == 201, opened.text
    code, host = opened.json()["code"], opened.json()["host_token"]
    url = f"/api/tables/{code}/rounds/1/replay"
    assert client.get(url).json()["code"] == "no_such_round"  # nothing dealt yet
    with client.websocket_connect(f"/play/{code}/ws") as ws:
        send(ws, "join", host_token=host)
        receive_until(ws, "welcome")
        send(ws, "start")
        receive_until(ws, "view")
        playing = client.get(url)
        assert playing.status_code == 409, playing.text
        assert playing.json()["code"] == "round_not_finished"
        receive_until(ws, "round_over")
        served = client.get(url)
    assert served.status_code == 200, served.text
    assert "content-disposition" not in served.headers
    data = served.json()
    assert data["format"] == "ligretto.replay/1"
    assert (data["table"], data["round"], data["players"]) == (code, 1, 2)
    assert data["seats"][1] == {
        "name": data["seats"][1]["name"],
        "bot": {
            "strategy": "random",
            "level": "medium",
        },
    }
    assert data["actions"][-1]["seat"] is None and data["actions"][-1]["action"] == "stuck"
    # The deal as the page draws it (R2): ten stack cards, five in the row.
    dealt = Round.deal(2, data["seed"], read_replay(data).options).snapshot()["seats"]
    assert data["deal"][0]["stack"] == dealt[0]["stack"] and len(data["deal"][0]["stack"]) == 10
    assert len(data["deal"][1]["row"]) == 5
    assert replay_round(data).result().to_dict() == data["result"]
    # The positions the replay page draws: the engine's, and what the page
    # showed when it applied the actions itself.
    positions = client.get(url, params={"positions": 1})
    assert positions.status_code == 200, positions.text
    assert positions.json() == round_positions(read_replay(data))
    assert served_tables(positions.json()) == old_page_tables(data)
    saved = client.get(url, params={"download": 1})
    assert saved.json() == data
    disposition = saved.headers["content-disposition"]
    assert disposition == f'attachment; filename="ligretto-{code.lower()}-round-1.json"'
    assert client.get(f"/api/tables/{code}/rounds").json() == {"rounds": [1]}
    assert client.get(f"/api/tables/{code}/rounds/2/replay").status_code == 404
    assert client.get(f"/api/tables/{code}/rounds/0/replay").status_code == 422


def test_with_replays_off_no_round_is_linked_or_served(tmp_path: Path) -> None:
    """LIGRETTO_REPLAYS=off: the score screen offers no replay, the API
    says the server keeps none, and the page is not found."""
    app = create_app(Settings(data_dir=tmp_path, database_url=None, replays="off"))
    app.state.table_settings = STALLING
    with TestClient(app) as client:
        opened = client.post(
            "/api/tables",
            json={
                "seats": 2,
                "bots": [{"strategy": "greedy"}, {"strategy": "random"}],
                "end": {"mode": "rounds", "rounds": 1},
            },
        )
        assert opened.status_code == 201, opened.text
        code, host = opened.json()["code"], opened.json()["host_token"]
        with client.websocket_connect(f"/play/{code}/ws") as ws:
            send(ws, "join", host_token=host)
            receive_until(ws, "welcome")
            send(ws, "start")
            over = receive_until(ws, "round_over")
            game = receive_until(ws, "table")["table"]["tafel_game"]
        assert over["replay"] is None
        assert "replay-link" not in client.get(f"/g/{game}").text.split('id="tpl-')[0]
        for url in (f"/api/tables/{code}/rounds/1/replay", f"/api/tables/{code}/rounds"):
            answer = client.get(url)
            assert answer.status_code == 404, answer.text
            assert answer.json()["code"] == "no_replays"
        assert client.get(f"/play/{code}/rounds/1/replay").status_code == 404
