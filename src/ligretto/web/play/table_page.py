"""The table's page, ``/play/{code}``: the lobby and the game.

Server-rendered in the reader's language like the Tafel pages; the game
runs in ``static/play/table.js`` over the WebSocket (docs/protocol.md).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ligretto.live.registry import TableCapError, TableUnreachableError
from ligretto.store.live_tables import TableElsewhereError
from ligretto.web.play.app_tables import ELSEWHERE_RETRY, registry_of
from ligretto.web.play.levels import LEVEL_NAMES, level_seconds
from ligretto.web.play.pages import offered_strategies
from ligretto.web.play.quick_games import AUTOSTART, PRACTICE, PRACTICE_PACE
from ligretto.web.rendering import render

router = APIRouter(include_in_schema=False)


@router.get("/play/{code}", response_class=HTMLResponse)
async def table_page(request: Request, code: str) -> HTMLResponse:
    registry = registry_of(request.app)
    try:
        table = await registry.find(code)
    except (TableElsewhereError, TableUnreachableError) as exc:
        # Another process serves it, or the database is away for a moment:
        # this page comes back in a moment.
        away = isinstance(exc, TableUnreachableError)
        page = render(
            request, "play/moving.html", {"code": code[:12], "away": away}, status_code=503
        )
        page.headers["Retry-After"] = str(ELSEWHERE_RETRY)
        return page
    except TableCapError as exc:
        page = render(
            request, "play/moving.html", {"code": code[:12], "full": True}, status_code=503
        )
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    if table is None:
        closed = await registry.closed_reason(code[:16])
        return render(
            request,
            "play/missing.html",
            {"code": code[:12], "closed": closed},
            status_code=404 if closed is None else 410,
        )
    practice = PRACTICE in table.tags
    return render(
        request,
        "play/table.html",
        {
            "code": table.code,
            "strategies": offered_strategies(),
            "levels": LEVEL_NAMES,
            "level_seconds": level_seconds(PRACTICE_PACE if practice else 1.0),
            "practice": practice,
            "autostart": AUTOSTART in table.tags,
        },
    )
