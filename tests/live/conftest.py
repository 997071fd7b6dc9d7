"""An app with online play only, and helpers that speak the protocol."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from helpers.live_app import make_app
from helpers.live_wire import FAST
from ligretto.live.settings import TableSettings


@pytest.fixture
def make_client() -> Iterator[Callable[[TableSettings], TestClient]]:
    clients: list[TestClient] = []

    def make(settings: TableSettings = FAST) -> TestClient:
        client = TestClient(make_app(settings))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[[TableSettings], TestClient]) -> TestClient:
    return make_client(FAST)
