"""Error answers of the JSON API: one shape, a message a person understands.

Every error body is ``{"detail": <sentence>, "code": <machine code>, ...}``;
Tafel errors add ``rule`` (T1–T6) and ``player``. 422 refused input, 403 no
valid edit token, 404 unknown game or round, 409 stale version, 503 the
database stayed locked by other writers (``Retry-After``; nothing changed).

The store's errors are raised by dependencies the pages share with the API
(``ligretto.web.deps``): outside ``/api/`` they are answered by the page
handlers given to :func:`install_error_handlers`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from ligretto.store import (
    ForbiddenError,
    GameNotFoundError,
    StoreBusyError,
    VersionConflictError,
)
from ligretto.tafel import NoSuchRoundError, TafelError
from ligretto.web.errors import ApiError, ExceptionHandler, encodable, error_body


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _api_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(
        error_body(exc.code, exc.message, **exc.extra),
        status_code=exc.status,
        headers=exc.headers,
    )


async def _tafel_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, TafelError)
    status = 404 if isinstance(exc, NoSuchRoundError) else 422
    body = error_body(exc.code.value, exc.message, rule=exc.rule, player=exc.player)
    return JSONResponse(body, status_code=status)


async def _not_found(_request: Request, exc: Exception) -> Response:
    return JSONResponse(error_body("game_not_found", str(exc)), status_code=404)


async def _forbidden(_request: Request, exc: Exception) -> Response:
    return JSONResponse(
        error_body("forbidden", str(exc)),
        status_code=403,
        headers={"WWW-Authenticate": "Bearer"},
    )


async def _conflict(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, VersionConflictError)
    return JSONResponse(
        error_body("version_conflict", str(exc), version=exc.current),
        status_code=409,
        headers={"ETag": f'"{exc.current}"'},
    )


async def _busy(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StoreBusyError)
    return JSONResponse(
        error_body("busy", str(exc), retry_after=exc.retry_after),
        status_code=503,
        headers={"Retry-After": str(exc.retry_after)},
    )


NOT_JSON = "the body cannot be read as JSON"


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if not _is_api(request) or exc.status_code != 400:
        return await http_exception_handler(request, exc)
    # FastAPI answers 400 when it cannot even decode the body (bytes that are
    # not UTF-8, a number too long to convert): to the API that is refused
    # input like any other, so the same 422 and error shape.
    return JSONResponse(error_body("invalid_request", NOT_JSON), status_code=422)


def _where(loc: tuple[Any, ...]) -> str:
    # Leave out where the value came from and pydantic's union branch names
    # ("dict[str,any]"): a person needs the field, not the schema internals.
    parts = [
        str(p) for p in loc if p not in ("body", "query", "path", "header") and "[" not in str(p)
    ]
    return ".".join(parts) or "request"


def content_type_problem(content_type: str | None) -> str | None:
    """What is wrong with a ``Content-Type`` for a JSON body, or None if nothing."""
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    if kind != "application/json" and not kind.endswith("+json"):
        # FastAPI reads a body as JSON only when it is declared as JSON
        # (curl -d without -H sends a form).
        return "send the body as JSON, with the header Content-Type: application/json"
    return None


def _whole_body_problem(request: Request, missing: bool) -> str:
    if missing:
        return "this needs a JSON object as its body (Content-Type: application/json)"
    problem = content_type_problem(request.headers.get("content-type"))
    return problem or "the body must be a JSON object"


async def _invalid_form(exc: RequestValidationError) -> Response:
    # FastAPI's own answer, which the pages and online play keep, but with
    # the echoed input made encodable: FastAPI repeats the value it refused
    # (``input``), and a lone surrogate in it would fail the answer with 500.
    return JSONResponse(
        status_code=422, content={"detail": encodable(jsonable_encoder(exc.errors()))}
    )


async def _invalid_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    if not _is_api(request):
        return await _invalid_form(exc)
    # Never the refused value itself (``input``): only where and why.
    errors = [
        {
            "loc": [encodable(str(p)) for p in e.get("loc", ())],
            "msg": encodable(str(e.get("msg", ""))),
            "type": e.get("type"),
        }
        for e in exc.errors()
    ]
    by_field: dict[str, list[str]] = {}
    for e in errors:
        if e["type"] == "json_invalid":
            by_field.setdefault(NOT_JSON, [])
            continue
        if e["loc"] == ["body"]:  # the body as a whole is missing or no object
            by_field.setdefault(_whole_body_problem(request, e["type"] == "missing"), [])
            continue
        messages = by_field.setdefault(_where(tuple(e["loc"])), [])
        if e["msg"] not in messages:
            messages.append(e["msg"])
    # A union (counts by name or a list) fails once per branch: say "or".
    message = "; ".join(
        f"{field}: {' or '.join(msgs)}" if msgs else field for field, msgs in by_field.items()
    )
    return JSONResponse(
        error_body("invalid_request", message or "the request is not valid", errors=errors),
        status_code=422,
    )


def _by_surface(api: ExceptionHandler, page: ExceptionHandler | None) -> ExceptionHandler:
    """*api* under ``/api/``, *page* (if any) for the pages."""
    if page is None:
        return api

    async def handle(request: Request, exc: Exception) -> Response:
        return await (api if _is_api(request) else page)(request, exc)

    return handle


def install_error_handlers(
    app: FastAPI, pages: Mapping[type[Exception], ExceptionHandler] | None = None
) -> None:
    """Answer every domain and store error with the API's error shape.

    *pages* answers a store error outside ``/api/`` instead (a page, not JSON):
    the pages' write routes raise :class:`StoreBusyError` too.
    """
    pages = pages or {}
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(TafelError, _tafel_error)
    for error, handler in (
        (GameNotFoundError, _not_found),
        (ForbiddenError, _forbidden),
        (VersionConflictError, _conflict),
        (StoreBusyError, _busy),
    ):
        app.add_exception_handler(error, _by_surface(handler, pages.get(error)))
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(HTTPException, _http_error)
