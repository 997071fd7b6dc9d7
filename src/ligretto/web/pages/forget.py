"""Forgetting a game or a group on this browser: its edit cookie expired.

A phone passed round the table keeps a game's edit token in an HttpOnly
cookie (pages without JavaScript), which no script can delete. The start
page's "Forget" clears what the browser keeps itself (``static/js/forget.js``:
the list entry, the token, drafts, rounds not yet sent, the service
worker's copies of the pages) and asks these routes to expire the cookie.
They need no token and change nothing on the server: forgetting is about
this browser only. 204, never kept by a cache.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from ligretto.web.deps import edit_base, edit_cookie_name, group_cookie_name, group_edit_base

router = APIRouter()


def _forgotten(cookie: str, path: str) -> Response:
    response = Response(status_code=204, headers={"Cache-Control": "no-store"})
    response.delete_cookie(cookie, path=path, httponly=True, samesite="strict")
    return response


@router.post("/g/{game_id}/edit/forget")
async def forget_game(game_id: str) -> Response:
    """Expire the game's edit cookie on this browser."""
    return _forgotten(edit_cookie_name(game_id), edit_base(game_id))


@router.post("/groups/{group_id}/edit/forget")
async def forget_group(group_id: str) -> Response:
    """Expire the group's token cookie on this browser."""
    return _forgotten(group_cookie_name(group_id), group_edit_base(group_id))
