"""``/healthz`` for a proxy's health checks, and the headers a proxy routes by
(issue 14): which process answered, which table an answer opened."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ligretto.child_process import free_port
from ligretto.store import make_engine
from ligretto.web.app import create_app
from ligretto.web.health import LoopLag
from ligretto.web.settings import Settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path, database_url=None, process_id="web-7")
    with TestClient(create_app(settings)) as c:
        yield c


def test_healthz_answers_200_with_the_process_while_the_database_answers(
    client: TestClient,
) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    body = answer.json()
    lag = body.pop("loop_lag_ms")
    assert body == {
        "status": "ok",
        "process": "web-7",
        "database": "ok",
        "live_updates": "in-process",  # SQLite: one process, no listener
    }
    assert set(lag) == {"max", "p99", "last", "samples"}
    assert answer.headers["cache-control"] == "no-store"


def test_healthz_shows_how_late_the_event_loop_woke_over_the_last_minute() -> None:
    lag = LoopLag(interval=0.1, window=60.0)
    assert lag.figures() == {"max": 0.0, "p99": 0.0, "last": 0.0, "samples": 0}
    for second in range(100):
        lag.record(float(second) / 10, 0.001)
    lag.record(10.0, 0.5)  # one stall of half a second
    assert lag.figures() == {"max": 500.0, "p99": 1.0, "last": 500.0, "samples": 101}
    lag.record(71.0, 0.002)  # a minute later the stall has left the window
    assert lag.figures() == {"max": 2.0, "p99": 2.0, "last": 2.0, "samples": 1}


def test_the_watchdog_runs_with_the_app_and_sees_a_blocked_loop(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=None)
    app = create_app(settings)

    @app.get("/hold")
    async def hold() -> None:  # what a route must never do: hold the loop
        time.sleep(0.4)  # holds the loop at least this long

    with TestClient(app) as c:
        c.get("/hold")
        _wait_for(lambda: c.get("/healthz").json()["loop_lag_ms"]["max"] >= 300)


def test_healthz_answers_503_when_the_database_does_not(client: TestClient) -> None:
    app = client.app
    working = app.state.engine  # type: ignore[attr-defined]
    # Nothing listens on this port: every connection is refused.
    gone = make_engine(f"postgresql+psycopg://nobody@127.0.0.1:{free_port()}/none")
    app.state.engine = gone  # type: ignore[attr-defined]
    try:
        answer = client.get("/healthz")
    finally:
        app.state.engine = working  # type: ignore[attr-defined]
        gone.dispose()
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable"
    assert answer.json()["database"] == "unreachable"
    assert answer.json()["process"] == "web-7"


def test_every_answer_names_the_process_refusals_included(client: TestClient) -> None:
    for path in ("/", "/api/games/nonexistent", "/static/does-not-exist.css"):
        assert client.get(path).headers["x-ligretto-process"] == "web-7"
    # (A WebSocket handshake carries it too: tests/deploy/test_haproxy.py.)


def test_the_answer_that_opens_a_table_names_its_code(client: TestClient) -> None:
    created = client.post("/api/tables", json={"seats": 2, "name": "Anna"})
    assert created.status_code == 201
    assert created.headers["x-ligretto-table"] == created.json()["code"]
    for path in ("/play/quick", "/play/practice"):
        page = client.post(path, data={"name": "Anna"}, follow_redirects=False)
        assert page.status_code == 303
        code = page.headers["location"].removeprefix("/play/").split("#")[0]
        assert page.headers["x-ligretto-table"] == code
    # Reading a table is no opening: the proxy learns only from openings.
    assert "x-ligretto-table" not in client.get(f"/api/tables/{code}").headers


def test_postgresql_pool_sizes_come_from_the_settings(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, database_url="postgresql+psycopg://x@h/db", db_pool_size=3
    )
    assert settings.engine_options() == {"pool_size": 3, "max_overflow": 10}
    assert Settings(data_dir=tmp_path, database_url=None).engine_options() == {}


def _wait_for(condition: Callable[[], bool]) -> None:
    for _ in range(100):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("the condition never held")
