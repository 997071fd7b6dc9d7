"""Loading a game and knowing its edit rights from the request's token or cookie.

The edit page's address holds no secret (``/g/{id}/edit``): the edit
link carries the token in its fragment (``#t=…``), which browsers never
send. The page's script keeps it on the phone and sends it in the forms'
hidden ``token`` field or the ``X-Edit-Token`` header; for pages without
JavaScript the server keeps it in an HttpOnly, ``SameSite=Strict`` cookie
of the game's edit pages and writes it into the hidden fields.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import GameNotFoundError, StoredGame, TafelService
from ligretto.web.deps import set_token_cookie
from ligretto.web.pages.deps import (
    edit_base,
    edit_cookie_name,
    request_token,
)


async def load_game(service: TafelService, game_id: str) -> StoredGame | None:
    """The game, or None when it is gone (after a refused write, to show the fresh board)."""
    try:
        return await run_in_threadpool(service.get_game, game_id)
    except GameNotFoundError:
        return None


async def token_ok(service: TafelService, game_id: str, token: str) -> bool:
    """Whether *token* is the game's edit token; False when there is no such game."""
    try:
        return await run_in_threadpool(service.check_token, game_id, token)
    except GameNotFoundError:
        return False


def remember_token(response: Response, request: Request, game_id: str, token: str) -> None:
    """Keep the edit token on the phone for pages without JavaScript (see the module doc)."""
    set_token_cookie(response, request, edit_cookie_name(game_id), token, path=edit_base(game_id))


async def known_token(request: Request, service: TafelService, game_id: str) -> str | None:
    """The request's edit token (header or cookie) if it is the game's; else None."""
    token = await request_token(request, game_id)
    if token is None or not await token_ok(service, game_id, token):
        return None
    return token
