"""``GET /healthz``: whether this process can serve, for a proxy's health checks.

200 when the database answers ``SELECT 1`` within :data:`DATABASE_TIMEOUT`,
503 otherwise, with a small JSON body: this process's id (``--process-id``),
the database's state and how live updates reach this process's watchers
(``in-process`` on SQLite; on PostgreSQL ``listening`` or ``reconnecting``).
Cheap (one pooled connection, one statement), never cached, not rate limited.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from ligretto.store.notify import NotifyListener

router = APIRouter()

DATABASE_TIMEOUT = 2.0
"""Seconds the database may take to answer before the process counts as unhealthy."""


def _database_answers(engine: Engine) -> bool:
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
            conn.rollback()
    except (SQLAlchemyError, OSError):
        return False
    return True


@router.get("/healthz", include_in_schema=False)
async def healthz(request: Request) -> JSONResponse:
    """``{"status", "process", "database", "live_updates"}``; 503 if the database is away."""
    state = request.app.state
    answers = False
    # A database that hangs must not hang the check: give up on the thread's answer.
    with anyio.move_on_after(DATABASE_TIMEOUT):
        answers = await anyio.to_thread.run_sync(
            _database_answers, state.engine, abandon_on_cancel=True
        )
    listener: NotifyListener | None = state.listener
    if listener is None:
        live = "in-process"
    else:
        live = "listening" if listener.listening else "reconnecting"
    body = {
        "status": "ok" if answers else "unavailable",
        "process": state.settings.process_id,
        "database": "ok" if answers else "unreachable",
        "live_updates": live,
    }
    return JSONResponse(
        body, status_code=200 if answers else 503, headers={"Cache-Control": "no-store"}
    )
