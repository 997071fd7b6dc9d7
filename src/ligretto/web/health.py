"""``GET /healthz``: whether this process can serve, for a proxy's health checks.

200 when the database answers ``SELECT 1`` within :data:`DATABASE_TIMEOUT`,
503 otherwise, with a small JSON body: this process's id (``--process-id``),
the database's state and how live updates reach this process's watchers
(``in-process`` on SQLite; on PostgreSQL ``listening`` or ``reconnecting``),
and ``loop_lag_ms``: how late the event loop has been over the last minute
(:class:`LoopLag`). Cheap (one pooled connection, one statement), never
cached, not rate limited.

Every request, every online table and every live update of a process share
one event loop: work that holds it (a large JSON encoded in a route, a
statement run without a thread) stalls them all at once. :class:`LoopLag`
is the watchdog that shows such a stall: a small task that sleeps
:data:`LAG_INTERVAL` again and again and records how much later than asked
it wakes. Its figures are in this answer, and each measurement goes to
``ligretto_event_loop_lag_seconds`` for ``/metrics`` (:mod:`ligretto.web.metrics`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from prometheus_client import Histogram
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from ligretto.metrics.series import LOOP_LAG
from ligretto.store.notify import NotifyListener

router = APIRouter()

LAG_INTERVAL = 0.1
"""Seconds the watchdog sleeps between two measurements of the loop's lag."""

LAG_WINDOW = 60.0
"""Seconds of measurements the watchdog keeps (max and p99 are over this window)."""


class LoopLag:
    """How late the event loop wakes a sleeping task: the last minute's max and p99.

    :meth:`start` from the app's lifespan (inside the running loop),
    :meth:`stop` when it ends. :meth:`figures` is safe to call any time.
    """

    def __init__(
        self,
        interval: float = LAG_INTERVAL,
        window: float = LAG_WINDOW,
        histogram: Histogram = LOOP_LAG,
    ) -> None:
        self.interval = interval
        self.window = window
        # The process's series by default; a test gives its own, since every
        # running app in the process observes into the shared one.
        self._histogram = histogram
        self._samples: deque[tuple[float, float]] = deque()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def record(self, at: float, lag: float) -> None:
        """One measurement: woke *lag* seconds late at monotonic time *at*."""
        lag = max(0.0, lag)
        self._samples.append((at, lag))
        self._histogram.observe(lag)
        while self._samples and self._samples[0][0] < at - self.window:
            self._samples.popleft()

    def figures(self) -> dict[str, float | int]:
        """``{"max", "p99", "last", "samples"}`` over the window, in milliseconds."""
        lags = sorted(lag for _, lag in self._samples)
        if not lags:
            return {"max": 0.0, "p99": 0.0, "last": 0.0, "samples": 0}
        p99 = lags[min(len(lags) - 1, math.ceil(0.99 * len(lags)) - 1)]
        return {
            "max": round(lags[-1] * 1000, 1),
            "p99": round(p99 * 1000, 1),
            "last": round(self._samples[-1][1] * 1000, 1),
            "samples": len(lags),
        }

    async def _watch(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(self.interval)
            woke = time.monotonic()
            self.record(woke, woke - asked - self.interval)


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
    """``{"status", "process", "database", "live_updates", "loop_lag_ms"}``; 503 if the
    database is away."""
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
    lag: LoopLag | None = getattr(state, "loop_lag", None)
    body = {
        "status": "ok" if answers else "unavailable",
        "process": state.settings.process_id,
        "database": "ok" if answers else "unreachable",
        "live_updates": live,
        "loop_lag_ms": None if lag is None else lag.figures(),
    }
    return JSONResponse(
        body, status_code=200 if answers else 503, headers={"Cache-Control": "no-store"}
    )
