"""The Tafel's web pages: server-rendered, usable without JavaScript.

``install(app)`` adds the page routes and the static files to the app;
the JSON API lives in its own routers.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from ligretto.web.pages import (
    board,
    board_push,
    forget,
    groups,
    history,
    legacy,
    rounds,
    rules,
    start,
)
from ligretto.web.pages.cells import board_globals
from ligretto.web.pages.error_pages import ERROR_PAGES
from ligretto.web.rendering import STATIC_DIR, STATIC_PREFIX, add_language_globals, render

# Whichever page module is loaded first, this package's face runs before it:
# from then on every template environment has the board's cells and rows.
add_language_globals(board_globals)

__all__ = ["ERROR_PAGES", "install", "router"]

router = APIRouter(include_in_schema=False)
# Old edit links last: their {token} must not shadow the edit pages' own paths.
for module in (start, board, board_push, rounds, history, rules, groups, forget, legacy):
    router.include_router(module.router)


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker, from the site's root so that its scope is the whole Tafel."""
    return FileResponse(
        STATIC_DIR / "sw.js",
        media_type="text/javascript",
        # Browsers check for a new worker on every visit; never a stale one.
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline", response_class=HTMLResponse)
async def offline_page(request: Request) -> HTMLResponse:
    """What the service worker answers for a page it does not keep, when there is no network."""
    return render(request, "offline.html", {})


def install(app: FastAPI) -> None:
    """Serve the pages and ``/static`` from *app* (after ``app.state.tafel`` is set)."""
    board_push.install(app, processes=app.state.settings.board_processes)
    app.include_router(router)
    app.mount(STATIC_PREFIX, StaticFiles(directory=STATIC_DIR), name="static")
