"""``/openapi.json`` answered from bytes made once, not encoded anew for every request.

FastAPI builds the API's description on its first request and then encodes
the whole dictionary again for each one: tens of milliseconds of pure Python
on the event loop each time, which anyone may ask for as often as the rate
limits allow. Here the encoded answer is made once (:func:`prepare`, called
by ``ligretto serve`` before the loop runs; else in a worker thread on the
first request) and every request gets the same bytes.
"""

from __future__ import annotations

import json
import threading

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["install", "prepare"]

_MEDIA_TYPE = "application/json"


class _Description:
    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.body: bytes | None = None
        self.lock = threading.Lock()

    def encoded(self) -> bytes:
        with self.lock:  # two first requests at once build it once
            if self.body is None:
                self.body = json.dumps(
                    self.app.openapi(), ensure_ascii=False, separators=(",", ":")
                ).encode()
            return self.body

    async def endpoint(self, request: Request) -> Response:
        body = self.body if self.body is not None else await run_in_threadpool(self.encoded)
        return Response(body, media_type=_MEDIA_TYPE)


def install(app: FastAPI) -> None:
    """Answer the app's ``openapi_url`` from the bytes made once (the docs page still reads it)."""
    if app.openapi_url is None:
        return
    description = _Description(app)
    app.state.api_description = description
    routes = app.router.routes
    for index, route in enumerate(routes):
        if isinstance(route, Route) and route.path == app.openapi_url:
            routes[index] = Route(
                app.openapi_url,
                description.endpoint,
                methods=["GET", "HEAD"],
                include_in_schema=False,
            )
            return


def prepare(app: FastAPI) -> None:
    """Build and encode the description now (before the event loop runs)."""
    description = getattr(app.state, "api_description", None)
    if isinstance(description, _Description):
        description.encoded()
    else:
        app.openapi()
