"""GET /play/{code}/rounds/{n}/replay: the page of a finished round only."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from helpers.live_wire import receive_until, send


@pytest.fixture
def client(stalling_client: TestClient) -> TestClient:
    return stalling_client


def open_bot_table(client: TestClient, *, rounds: int) -> tuple[str, str]:
    """A table of two bots ending after *rounds*: its code and host token."""
    opened = client.post(
        "/api/tables",
        json={
            "seats": 2,
            "bots": [{"strategy": "greedy", "level": "hard"}, {"strategy": "random"}],
            "end": {"mode": "rounds", "rounds": rounds},
        },
    )
    assert opened.status_code == 201, opened.text
    return opened.json()["code"], opened.json()["host_token"]


def test_the_page_shows_a_finished_round_and_refuses_others(client: TestClient) -> None:
    code, host = open_bot_table(client, rounds=1)
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
    code, host = open_bot_table(client, rounds=1)
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


def test_a_refused_entry_on_the_online_games_board_keeps_the_replay_links(
    client: TestClient,
) -> None:
    """The board drawn with a refusal (422, 409) links the rounds' replays too."""
    code, host = open_bot_table(client, rounds=2)
    with client.websocket_connect(f"/play/{code}/ws") as ws:
        send(ws, "join", host_token=host)
        receive_until(ws, "welcome")
        send(ws, "start")
        receive_until(ws, "round_over")
        info = receive_until(ws, "table")
    game = info["table"]["tafel_game"]
    table = client.app.state.tables.get(code)  # type: ignore[attr-defined]
    token = table.state.game.tafel_token
    assert game is not None and token
    link = f'class="replay-link" href="/play/{code}/rounds/1/replay"'
    headers = {"X-Edit-Token": token}
    version = client.get(f"/api/games/{game}").json()["version"]
    # Two empty stacks (T2): refused, the board with the typed values.
    refused = client.post(
        f"/g/{game}/edit/stacks",
        data={"stop": "0", "stack-0": "0", "stack-1": "0", "version": str(version)},
        headers=headers,
    )
    assert refused.status_code == 422, refused.text
    assert link in refused.text
    # A form of an old version (another phone saved first): the fresh board.
    stale = client.post(
        f"/g/{game}/edit/stacks",
        data={"stop": "0", "stack-0": "0", "stack-1": "4", "version": str(version - 1)},
        headers=headers,
    )
    assert stale.status_code == 409, stale.text
    assert link in stale.text
