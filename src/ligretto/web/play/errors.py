"""Errors of online play's routes in the API's shape: ``{"detail", "code"}``.

:class:`PlayRoute` is the route class of the play routers outside the
pages: it answers :class:`~ligretto.web.errors.ApiError`, and refused input
without echoing it.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from ligretto.tafel.names import printable
from ligretto.web.errors import ApiError, error_body


def _error_response(exc: ApiError) -> Response:
    return JSONResponse(
        error_body(exc.code, exc.message, **exc.extra), status_code=exc.status, headers=exc.headers
    )


def _validation_response(exc: RequestValidationError) -> Response:
    """Refused input as ``{"detail", "code": "invalid_request"}``.

    FastAPI's own answer echoes the input back, and input it cannot encode
    (a lone surrogate in the JSON) turned a refusal into a 500; this one
    names the fields and what is wrong, never the value.
    """
    parts: list[str] = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
        part = f"{where}: {error.get('msg', 'invalid')}"
        if part not in parts:
            parts.append(part)
    detail = printable("; ".join(parts) or "the request is not valid", 500)
    return JSONResponse({"detail": detail, "code": "invalid_request"}, status_code=422)


class PlayRoute(APIRoute):
    """Answers :class:`~ligretto.web.errors.ApiError` in the API's shape, on every server
    (also one without the API's error handlers), and refused input of the
    routes outside ``/api/`` without echoing it; ``/api/`` keeps the app's
    own answer to refused input."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as exc:
                return _error_response(exc)
            except RequestValidationError as exc:
                if request.url.path.startswith("/api/"):
                    raise
                return _validation_response(exc)

        return handle
