"""``/healthz`` for a proxy's health checks, and the headers a proxy routes by
(issue 14): which process answered, which table an answer opened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ligretto.child_process import free_port
from ligretto.store import make_engine
from ligretto.web.app import create_app
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
    assert answer.json() == {
        "status": "ok",
        "process": "web-7",
        "database": "ok",
        "live_updates": "in-process",  # SQLite: one process, no listener
    }
    assert answer.headers["cache-control"] == "no-store"


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
