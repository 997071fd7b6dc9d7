"""An app with online play only, and helpers that speak the protocol."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from helpers.live_wire import FAST
from ligretto.live.settings import TableSettings
from ligretto.web.api.tables import router as tables_router
from ligretto.web.play import router, start_tables, stop_tables


def make_app(settings: TableSettings = FAST) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        start_tables(app, settings=settings)
        yield
        await stop_tables(app)

    app = FastAPI(lifespan=lifespan)
    app.include_router(tables_router)  # POST /api/tables opens a table
    app.include_router(router)
    return app


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
