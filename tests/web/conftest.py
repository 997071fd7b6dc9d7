"""Fixtures of the web tests: the app on SQLite and PostgreSQL, and game factories."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from helpers.api import ApiGame, NewGame
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture(scope="module")
def app(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(Settings(data_dir=tmp_path_factory.mktemp("data"), database_url=database_url))


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def new_game(client: TestClient) -> NewGame:
    """Create a game through the API: ``new_game(["Anna", "Ben"], target=50)``."""

    def make(players: list[str] | None = None, **fields: Any) -> ApiGame:
        body = {"players": players or ["Anna", "Ben", "Cleo"], **fields}
        response = client.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        data = response.json()
        return ApiGame(client, data["id"], data["edit_token"], data)

    return make
