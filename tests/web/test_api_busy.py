"""A write that waits too long for the database lock gets 503 + Retry-After, never 500.

Another connection holds the lock (SQLite: ``BEGIN IMMEDIATE`` on the file;
PostgreSQL: ``FOR UPDATE`` on the game's row) longer than the busy timeout,
which is set short here (``make_engine(busy_timeout=…)``). The write is
refused in the API's error shape or with a translated page, and the game is
unchanged; once the lock is gone the same write goes through.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from ligretto.store import StoreBusyError, TafelService, make_engine
from ligretto.web.settings import Settings

NewGame = Callable[..., Any]  # the ``new_game`` fixture (tests/web/conftest.py)
SHORT = 0.2


@pytest.fixture
def impatient(app: FastAPI, database_url: str) -> Iterator[TafelService]:
    """The app's service, for this test on an engine that waits only SHORT seconds."""
    engine = make_engine(database_url, busy_timeout=SHORT)
    original = app.state.tafel
    service = TafelService(engine, original.listeners)
    app.state.tafel = service
    try:
        yield service
    finally:
        app.state.tafel = original
        engine.dispose()


@contextmanager
def lock_held(database_url: str, game_id: str) -> Iterator[None]:
    """Hold the write lock of the game's database (SQLite) or of its row (PostgreSQL)."""
    if database_url.startswith("sqlite"):
        raw = sqlite3.connect(database_url.split("///", 1)[1], isolation_level=None)
        raw.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            raw.execute("ROLLBACK")
            raw.close()
        return
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            conn.execute(
                text("SELECT id FROM tafel_games WHERE id = :id FOR UPDATE"), {"id": game_id}
            )
            yield
            conn.rollback()
    finally:
        engine.dispose()


def test_a_write_behind_a_held_lock_gets_503_and_changes_nothing(
    new_game: NewGame, client: TestClient, impatient: TafelService, database_url: str
) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    opened = game.open([4, 0])
    assert opened.status_code == 201
    before = game.get()
    history = client.get(game.url("/history")).json()

    with lock_held(database_url, game.id):
        response = game.complete(2, {"Anna": 10, "Ben": 12})
        assert response.status_code == 503, response.text
        assert response.headers["Retry-After"] == str(StoreBusyError.retry_after)
        body = response.json()
        assert body["code"] == "busy"
        assert "nothing was changed" in body["detail"]
        assert body["retry_after"] == StoreBusyError.retry_after
        also = client.post(game.url("/finish"), headers=game.auth)
        assert also.status_code == 503 and also.json()["code"] == "busy"

    assert game.get() == before
    assert client.get(game.url("/history")).json() == history
    again = game.complete(2, {"Anna": 10, "Ben": 12})
    assert again.status_code == 200, again.text
    assert again.json()["version"] == before["version"] + 1


def test_an_import_behind_a_held_lock_gets_503_and_stores_nothing(
    new_game: NewGame, client: TestClient, impatient: TafelService, database_url: str
) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    export = client.get(game.url("/export.json")).json()
    with impatient.engine.connect() as conn:
        games_before = conn.execute(text("SELECT count(*) FROM tafel_games")).scalar_one()
    # On PostgreSQL an insert waits for no row lock; hold the whole table there.
    if database_url.startswith("sqlite"):
        held = lock_held(database_url, game.id)
    else:
        held = _table_locked(database_url)
    with held:
        response = client.post("/api/games/import", json=export)
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "busy"
    assert response.headers["Retry-After"]
    with impatient.engine.connect() as conn:
        games_after = conn.execute(text("SELECT count(*) FROM tafel_games")).scalar_one()
    assert games_after == games_before


@contextmanager
def _table_locked(database_url: str) -> Iterator[None]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            conn.execute(text("LOCK TABLE tafel_games IN EXCLUSIVE MODE"))
            yield
            conn.rollback()
    finally:
        engine.dispose()


def test_a_page_write_behind_a_held_lock_gets_a_translated_503_page(
    new_game: NewGame, client: TestClient, impatient: TafelService, database_url: str
) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    before = game.get()
    with lock_held(database_url, game.id):
        response = client.post(
            f"/g/{game.id}/edit/finish",
            data={"token": game.token},  # the edit token travels in the form, not the path
            headers={"Accept-Language": "de"},
            follow_redirects=False,
        )
    assert response.status_code == 503
    assert response.headers["Retry-After"] == str(StoreBusyError.retry_after)
    assert response.headers["content-type"].startswith("text/html")
    assert "Der Server ist gerade ausgelastet" in response.text
    assert "Es wurde nichts geändert" in response.text
    assert game.token not in response.text
    assert game.get() == before


def test_the_busy_timeout_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIGRETTO_BUSY_TIMEOUT", "0.5")
    assert Settings().busy_timeout == 0.5
    monkeypatch.delenv("LIGRETTO_BUSY_TIMEOUT")
    assert Settings().busy_timeout == 5.0
