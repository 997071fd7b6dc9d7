"""Dependencies of the JSON API: the service, the edit token, the expected version.

They are ``async`` because they never block: FastAPI then runs them on the
event loop instead of handing each one to a worker thread.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from ligretto.store import ChangeHub, TafelService
from ligretto.web.api.errors import ApiError


async def tafel_service(request: Request) -> TafelService:
    """The app's service (``app.state.tafel``, set by :func:`ligretto.web.app.create_app`)."""
    service: TafelService = request.app.state.tafel
    return service


async def change_hub(request: Request) -> ChangeHub:
    """The app's live-update hub (``app.state.hub``)."""
    hub: ChangeHub = request.app.state.hub
    return hub


async def edit_token(
    authorization: Annotated[
        str | None, Header(description="`Bearer <edit_token>` from the game's creation")
    ] = None,
) -> str:
    """The token from ``Authorization: Bearer <token>``; the service checks its value.

    A write without any token is refused here, before its body is even read:
    someone without the edit link learns nothing about the game (403).
    """
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(
            403,
            "forbidden",
            "this needs the game's edit link (send Authorization: Bearer <edit_token>)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token.strip()


async def expected_version(
    if_match: Annotated[
        str | None,
        Header(description="The game version this change is based on (409 if it is stale)"),
    ] = None,
) -> int | None:
    """The version from ``If-Match`` (``5``, ``"5"`` or ``W/"5"``); ``*`` or none: any."""
    if if_match is None or if_match.strip() in ("", "*"):
        return None
    text = if_match.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not text.isdecimal() or len(text) > 9:
        raise ApiError(
            422, "bad_if_match", f"If-Match must be a game version number, not {if_match!r}"
        )
    return int(text)


def absolute(request: Request, path: str) -> str:
    """``path`` on this server as a full URL (for sharing and QR codes)."""
    return str(request.base_url).rstrip("/") + path


def watch_path(game_id: str) -> str:
    """The read-only board: anyone with the id may watch (no token)."""
    return f"/g/{game_id}"


def edit_path(game_id: str, token: str) -> str:
    """The board with entry forms; the secret token is part of the path."""
    return f"/g/{game_id}/edit/{token}"


Service = Annotated[TafelService, Depends(tafel_service)]
Hub = Annotated[ChangeHub, Depends(change_hub)]
EditToken = Annotated[str, Depends(edit_token)]
ExpectedVersion = Annotated[int | None, Depends(expected_version)]
