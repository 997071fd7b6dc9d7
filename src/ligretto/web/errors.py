"""The one error of the JSON API and of online play's routes, and its shape.

Every error answer is ``{"detail": <sentence>, "code": <machine code>, ...}``
(:func:`error_body`); a route or a dependency raises :class:`ApiError`, and
the API's handlers (:mod:`ligretto.web.api.errors`) or online play's route
class (:mod:`ligretto.web.play.errors`) answer it. Here, a floor below both
and below the dependencies every part shares (:mod:`ligretto.web.deps`).

No error answer repeats a text it cannot encode: JSON may carry lone
surrogates (``"\ud800"``), which have no UTF-8 form, so every text taken
from a request is made printable first (:func:`encodable`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel

ExceptionHandler = Callable[[Request, Exception], Awaitable[Response]]


class ApiError(Exception):
    """An error answer raised by a route or dependency."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.extra = extra


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = encodable({"detail": message, "code": code, **extra})
    return body


def encodable(value: Any) -> Any:
    """*value* with every text made encodable as UTF-8 (lone surrogates become ``?``).

    Works through dicts (keys too), lists and tuples; other values pass as they are.
    """
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {encodable(k): encodable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encodable(v) for v in value]
    return value


class ErrorOut(BaseModel):
    """An :class:`ApiError`'s body as the OpenAPI schema shows it."""

    detail: str
    code: str
    rule: str | None = None
    player: str | None = None
