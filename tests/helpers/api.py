"""A game created through the Tafel API, as the ``new_game`` fixture of tests/web gives it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient


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
"""The type of the ``new_game`` fixture: ``new_game(["Anna", "Ben"], target=50)``."""
