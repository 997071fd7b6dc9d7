"""The groups' own store errors answered: JSON under ``/api/``, the pages' elsewhere."""

from __future__ import annotations

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from ligretto.store.errors import (
    GameInGroupError,
    GameNotInGroupError,
    GroupNotFoundError,
    StoreCode,
    StoreError,
)
from ligretto.web.errors import ExceptionHandler, error_body

GROUP_ERROR_STATUS: dict[StoreCode, int] = {
    StoreCode.GROUP_NOT_FOUND: 404,
    StoreCode.GAME_IN_GROUP: 409,
    StoreCode.GAME_NOT_IN_GROUP: 404,
}
"""The answer's status for each of the groups' own store errors (its code is the error's)."""


async def _group_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StoreError)
    return JSONResponse(error_body(exc.code.value, str(exc)), GROUP_ERROR_STATUS[exc.code])


def install_group_errors(app: FastAPI, pages: dict[type[Exception], ExceptionHandler]) -> None:
    """The group errors: JSON under ``/api/``, *pages* (if given) elsewhere."""
    for error in (GroupNotFoundError, GameInGroupError, GameNotInGroupError):
        handler: ExceptionHandler = _group_error
        page = pages.get(error)
        if page is None:
            app.add_exception_handler(error, handler)
            continue

        async def either(
            request: Request,
            exc: Exception,
            api: ExceptionHandler = handler,
            page: ExceptionHandler = page,
        ) -> Response:
            return await (api if request.url.path.startswith("/api/") else page)(request, exc)

        app.add_exception_handler(error, either)
