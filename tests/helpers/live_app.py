"""An app with online play only: the table API and the table pages and sockets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

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
