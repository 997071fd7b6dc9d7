"""Fixtures of the web tests: the app on SQLite and PostgreSQL, and game factories."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture(scope="module")
def app(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(Settings(data_dir=tmp_path_factory.mktemp("data"), database_url=database_url))


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@dataclass
class ApiGame:
    """A game created through the API, with helpers for authorised writes."""

    client: TestClient
    id: str
    token: str
    body: dict[str, Any]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def url(self, suffix: str = "") -> str:
        return f"/api/games/{self.id}{suffix}"

    def get(self) -> dict[str, Any]:
        response = self.client.get(self.url())
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def open(self, stacks: dict[str, int] | list[int]) -> Any:
        return self.client.post(self.url("/rounds"), json={"stacks": stacks}, headers=self.auth)

    def complete(self, n: int, middle: dict[str, int] | list[int], **extra: Any) -> Any:
        return self.client.put(
            self.url(f"/rounds/{n}"), json={"middle": middle, **extra}, headers=self.auth
        )

    def play(self, stacks: list[int], middle: list[int]) -> dict[str, Any]:
        opened = self.open(stacks)
        assert opened.status_code == 201, opened.text
        done = self.complete(opened.json()["round"]["n"], middle)
        assert done.status_code == 200, done.text
        body: dict[str, Any] = done.json()
        return body


NewGame = Callable[..., ApiGame]


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
