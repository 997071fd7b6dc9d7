"""Saving one step of a game from a form: the write, then the board (303) or the refusal shown.

Every form carries the game version it was made for: a save based on an
old version (another phone saved first) is refused by the service and the
page says so with the current board. Every refusal comes back as the same
page with what was typed and a translated message (status 4xx); a save
redirects to the board (303), so reloading never saves twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import (
    ForbiddenError,
    GameNotFoundError,
    StoredGame,
    TafelService,
    VersionConflictError,
    WriteResult,
)
from ligretto.tafel import Code, ImplausibleRoundError, TafelError
from ligretto.web.pages.board import board_page
from ligretto.web.pages.entry_form import Entry
from ligretto.web.pages.error_pages import bad_link, not_found
from ligretto.web.pages.game_access import load_game, remember_token
from ligretto.web.pages.messages import implausible_details, refusal
from ligretto.web.rendering import request_language


async def attempt(
    request: Request,
    service: TafelService,
    stored: StoredGame,
    token: str,
    entry: Entry,
    write: Callable[[], WriteResult],
    *,
    done: Callable[[WriteResult], str],
    page: Callable[..., Awaitable[HTMLResponse]] | None = None,
) -> Response:
    """Run *write*; redirect to *done* on success, or show why it was refused.

    *done* gets the write's result: the board it leads to offers an Undo
    for the version the write made (``undo=``, see :func:`with_undo`).
    """
    language = request_language(request)
    show = page or (lambda **kw: board_page(request, stored, token, **kw))
    try:
        result = await run_in_threadpool(write)
    except VersionConflictError:
        fresh = await load_game(service, stored.id)
        if fresh is None:
            return not_found(request)
        return await board_page(request, fresh, token, conflict=True, status_code=409)
    except ForbiddenError:
        return bad_link(request, stored.id)
    except GameNotFoundError:
        return not_found(request)
    except ImplausibleRoundError as error:
        entry.implausible = implausible_details(language, error)
        return await show(entry=entry, status_code=422)
    except TafelError as error:
        message = refusal(language, error)
        players = stored.game.players
        if error.code is Code.TWO_CALLERS:
            # T2: every empty stack is in question, not only the second one.
            entry.invalid.update(f"stack-{players.index(p)}" for p in error.params["callers"])
        elif error.player is not None and error.player in players:
            seat = players.index(error.player)
            entry.invalid.add(f"stack-{seat}" if error.rule == "T2" else f"middle-{seat}")
        entry.errors.append(message)
        return await show(entry=entry, status_code=422)
    return saved(request, stored.id, token, done(result))


def with_undo(address: str, result: WriteResult) -> str:
    """*address* with ``undo={version}``: the board then offers to take this write back.

    A write that changed nothing offers no Undo: it would take back the
    change before it instead (T6).
    """
    if not result.changed:
        return address
    path, _, anchor = address.partition("#")
    joiner = "&" if "?" in path else "?"
    return f"{path}{joiner}undo={result.stored.version}" + (f"#{anchor}" if anchor else "")


#: The edit page's script names itself on the saves it sends (board.js).
ENTRY_SCRIPT_HEADER = "X-Requested-With"
ENTRY_SCRIPT = "ligretto-entry"
#: Where the script goes after a save, in place of a redirect.
ENTRY_LOCATION_HEADER = "X-Entry-Location"


def saved(request: Request, game_id: str, token: str, done: str) -> Response:
    """Back to the board after a save (303), the token kept for pages without JavaScript.

    The page's script gets ``204`` and the address in ``X-Entry-Location``
    instead: ``fetch`` follows a redirect by itself, so a 303 made the server
    draw the whole board once for the fetch and once more for the page the
    script then opens. The form without the script still gets its 303.
    """
    response: Response
    if request.headers.get(ENTRY_SCRIPT_HEADER) == ENTRY_SCRIPT:
        response = Response(status_code=204, headers={ENTRY_LOCATION_HEADER: done})
    else:
        response = RedirectResponse(done, status_code=303)
    remember_token(response, request, game_id, token)
    return response
