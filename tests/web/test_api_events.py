"""``/api/games/{id}/events``: watchers hear every committed change (T6, live board)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from ligretto.serve_process import ServerThread
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[tuple[str, ServerThread]]:
    app = create_app(Settings(data_dir=tmp_path, database_url=database_url))
    thread = ServerThread(app, graceful_seconds=2)
    base = thread.start()
    try:
        yield base, thread
    finally:
        thread.stop()


def _next_event(lines: Iterator[str]) -> dict[str, object]:
    """The next ``version`` event of an SSE stream (pings are skipped)."""
    event = ""
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "version":
            data: dict[str, object] = json.loads(line.split(":", 1)[1])
            return data
    raise AssertionError("the event stream ended")


def test_t6_watcher_gets_version_at_connect_and_after_each_change(
    server: tuple[str, ServerThread],
) -> None:
    base, _ = server
    with httpx.Client(base_url=base, timeout=10) as writer:
        created = writer.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
        gid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
        with (
            httpx.Client(base_url=base, timeout=10) as watcher,
            watcher.stream("GET", f"/api/games/{gid}/events") as stream,
        ):
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            assert _next_event(lines) == {"id": gid, "version": 1}
            opened = writer.post(f"/api/games/{gid}/rounds", json={"stacks": [0, 3]}, headers=auth)
            assert opened.status_code == 201
            assert _next_event(lines) == {"id": gid, "version": 2}
            refused = writer.put(
                f"/api/games/{gid}/rounds/1", json={"middle": [1, 1]}, headers=auth
            )
            assert refused.status_code == 422  # refused: nothing to announce
            done = writer.put(f"/api/games/{gid}/rounds/1", json={"middle": [12, 14]}, headers=auth)
            assert done.status_code == 200
            assert _next_event(lines) == {"id": gid, "version": 3}


def test_server_with_an_open_event_stream_stops_promptly(
    server: tuple[str, ServerThread],
) -> None:
    base, thread = server
    with httpx.Client(base_url=base, timeout=10) as client:
        gid = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()["id"]
        with client.stream("GET", f"/api/games/{gid}/events") as stream:
            assert _next_event(stream.iter_lines())["version"] == 1
            thread.stop()
            assert not thread.thread.is_alive()


def test_events_of_unknown_game_is_404(client: TestClient) -> None:
    response = client.get("/api/games/nope/events")
    assert response.status_code == 404
    assert response.json()["code"] == "game_not_found"
