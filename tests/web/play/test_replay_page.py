"""GET /play/{code}/rounds/{n}/replay: the page of a finished round only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from ligretto.live.settings import TableSettings
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

# Bots that think for ever: the round ends only when the stall guard,
# with no person at the table, settles it as stuck (R4) -- so a round is
# in progress for as long as the test looks at it.
STALLING = TableSettings(
    countdown=0.0, between_rounds=60.0, bot_pace=1000.0, stall_after=1.0, seed=5
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    app.state.table_settings = STALLING
    with TestClient(app) as client:
        yield client


def send(ws: WebSocketTestSession, type_: str, **fields: Any) -> None:
    ws.send_text(json.dumps({"v": 1, "type": type_, **fields}))


def receive_until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} arrived")


def test_the_page_shows_a_finished_round_and_refuses_others(client: TestClient) -> None:
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
    page = f"/play/{code}/rounds/1/replay"
    assert client.get(page).status_code == 404  # nothing dealt yet
    with client.websocket_connect(f"/play/{code}/ws") as ws:
        send(ws, "join", host_token=host)
        receive_until(ws, "welcome")
        send(ws, "start")
        receive_until(ws, "view")
        playing = client.get(page)
        assert playing.status_code == 409
        assert "still being played" in playing.text
        assert "replay.js" not in playing.text
        receive_until(ws, "round_over")
        shown = client.get(page)
    assert shown.status_code == 200, shown.text
    assert f'data-src="/api/tables/{code}/rounds/1/replay"' in shown.text
    assert f"/api/tables/{code}/rounds/1/replay?download=1" in shown.text
    assert "play/replay.js" in shown.text
    assert 'id="replay-text"' in shown.text
    # The code is read as typed in any case, like the table's page.
    assert client.get(f"/play/{code.lower()}/rounds/1/replay").status_code == 200
    assert client.get(f"/play/{code}/rounds/2/replay").status_code == 404


def test_an_unknown_table_or_round_is_not_found(client: TestClient) -> None:
    missing = client.get("/play/NOSUCH/rounds/1/replay")
    assert missing.status_code == 404
    assert "NOSUCH" in missing.text
    assert client.get("/play/NOSUCH/rounds/0/replay").status_code == 404
    assert client.get("/play/NOSUCH/rounds/x/replay").status_code == 422


def test_the_page_speaks_the_readers_language(client: TestClient) -> None:
    page = client.get("/play/NOSUCH/rounds/1/replay?lang=de")
    assert page.status_code == 404
    assert 'lang="de"' in page.text


def test_the_online_games_board_links_each_kept_round_to_its_replay(client: TestClient) -> None:
    """The Tafel game a table scores links each round's row to its replay,
    on the watch page, its live fragment and in the edit page's offline state."""
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
    with client.websocket_connect(f"/play/{code}/ws") as ws:
        send(ws, "join", host_token=host)
        receive_until(ws, "welcome")
        send(ws, "start")
        over = receive_until(ws, "round_over")
        info = receive_until(ws, "table")
    assert over["replay"] == 1
    game = info["table"]["tafel_game"]
    assert game is not None
    link = f'class="replay-link" href="/play/{code}/rounds/1/replay"'
    watch = client.get(f"/g/{game}")
    assert watch.status_code == 200
    assert link in watch.text
    assert 'aria-label="Watch round 1 again"' in watch.text
    assert link in client.get(f"/g/{game}/board").text
    # A game scored by hand links nothing.
    other = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()["id"]
    assert "replay-link" not in client.get(f"/g/{other}").text.split('id="tpl-')[0]
