"""Old edit links (``/g/{id}/edit/{token}…``): the token moves out of the address at once.

Edit links used to carry the token in the path, where every server and
proxy log keeps it. Such a link still opens the game: it answers with a
redirect to the same page without the token in the path, the token in the
fragment (the page's script keeps it on the phone) and in the edit cookie
(pages without JavaScript). A wrong token gets the wrong-link page.
"""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from ligretto.web.pages.deps import Service, edit_base
from ligretto.web.pages.error_pages import bad_link
from ligretto.web.pages.game_access import remember_token, token_ok

router = APIRouter()


async def _move(
    request: Request, service: Service, game_id: str, token: str, rest: str
) -> Response:
    if not await token_ok(service, game_id, token):
        return bad_link(request, game_id)
    target = edit_base(game_id) + (f"/{quote(rest)}" if rest else "")
    if request.url.query:
        target += f"?{request.url.query}"
    response = RedirectResponse(f"{target}#t={token}", status_code=303)
    response.headers["Cache-Control"] = "no-store"
    remember_token(response, request, game_id, token)
    return response


@router.get("/g/{game_id}/edit/{token}")
async def old_edit_link(request: Request, game_id: str, token: str, service: Service) -> Response:
    return await _move(request, service, game_id, token, "")


@router.get("/g/{game_id}/edit/{token}/{rest:path}")
async def old_edit_subpage(
    request: Request, game_id: str, token: str, rest: str, service: Service
) -> Response:
    return await _move(request, service, game_id, token, rest.strip("/"))


@router.post("/g/{game_id}/edit/{token}/{rest:path}")
async def old_edit_form(
    request: Request, game_id: str, token: str, rest: str, service: Service
) -> Response:
    """A form of a page opened before the move: sent on to its new address (307).

    The body is read first (so the size limit answers as for any form); the
    browser sends it again to the new address, with the edit cookie set here.
    """
    await request.form()
    if not await token_ok(service, game_id, token):
        return bad_link(request, game_id)
    target = edit_base(game_id) + f"/{quote(rest.strip('/'))}"
    if request.url.query:
        target += f"?{request.url.query}"
    response = RedirectResponse(target, status_code=307)
    remember_token(response, request, game_id, token)
    return response
