"""The pages' answers when there is no such game, the edit link is wrong, or the store is busy."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from ligretto.store import ForbiddenError, GameNotFoundError, StoreBusyError
from ligretto.web.errors import ExceptionHandler
from ligretto.web.pages.deps import watch_path
from ligretto.web.rendering import render


def not_found(request: Request) -> HTMLResponse:
    return render(request, "not_found.html", {}, status_code=404)


def bad_link(request: Request, game_id: str) -> HTMLResponse:
    """A wrong edit token: say so, and offer the watch page (which needs none)."""
    context = {"bad_link": True, "watch_url": watch_path(game_id)}
    return render(request, "not_found.html", context, status_code=403)


async def _not_found_page(request: Request, _exc: Exception) -> Response:
    return not_found(request)


async def _bad_link_page(request: Request, _exc: Exception) -> Response:
    return bad_link(request, str(request.path_params.get("game_id", "")))


async def _busy_page(request: Request, exc: Exception) -> Response:
    """The database stayed locked by other writers: nothing saved, send it again soon."""
    assert isinstance(exc, StoreBusyError)
    # The language switch leads to the start page: the refused URL may take
    # only POST, and an edit link's token stays out of the links.
    response = render(
        request, "busy.html", {"retry_after": exc.retry_after}, status_code=503, path="/"
    )
    response.headers["Retry-After"] = str(exc.retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


ERROR_PAGES: dict[type[Exception], ExceptionHandler] = {
    GameNotFoundError: _not_found_page,
    ForbiddenError: _bad_link_page,
    StoreBusyError: _busy_page,
}
"""The pages' answers when ``GameDep``/``EditableGameDep`` find no game or a wrong link."""
