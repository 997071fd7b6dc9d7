"""The replay page of a finished online round: ``/play/{code}/rounds/{n}/replay``.

The page holds no game data; ``static/play/replay.js`` fetches the round's
one JSON document (``/api/tables/{code}/rounds/{n}/replay``) and replays
it in the browser, so stepping never reloads. Anyone with the table's code
may watch it, so anyone with the code may watch its rounds.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ligretto.web.play.app_tables import registry_of
from ligretto.web.rendering import render

router = APIRouter(include_in_schema=False)

#: Round numbers beyond this are refused like the API does.
MAX_ROUND = 1_000_000


@router.get("/play/{code}/rounds/{n}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, code: str, n: int) -> HTMLResponse:
    code = code.upper()[:16]
    registry = registry_of(request.app)
    missing = render(
        request,
        "play/replay_missing.html",
        {"code": code, "n": n, "playing": False},
        status_code=404,
    )
    if registry.replays is None or not 1 <= n <= MAX_ROUND:
        return missing
    table = registry.get(code)
    if table is not None and n == table.state.rounds:
        dealt = table.state.round.dealt
        if dealt is None or not dealt.is_over:
            # A round being played is never shown: it would tell the cards.
            return render(
                request,
                "play/replay_missing.html",
                {"code": code, "n": n, "playing": True},
                status_code=409,
            )
        if registry.journal is not None:
            await registry.journal.flush()  # finished a moment ago: written now
    elif table is not None and n > table.state.rounds:
        return missing
    if n not in await asyncio.to_thread(registry.replays.numbers, code):
        return missing
    return render(request, "play/replay.html", {"code": code, "n": n})
