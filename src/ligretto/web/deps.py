"""Dependencies of the JSON API and the pages: the service, the game, the tokens, the URLs.

``GameDep`` loads the game of the path's ``game_id`` (404 when there is none);
``EditableGameDep`` also checks the edit token (403 when it is wrong or
missing). The pages never carry the token in their path (it would land in
every access log): it comes in a form's hidden ``token`` field, an
``X-Edit-Token`` header, or the game's edit cookie (see :func:`request_token`).
Both raise the store's errors, which the app answers as JSON under
``/api/`` and as a page elsewhere (:func:`ligretto.web.api.errors.install_error_handlers`).

A token the pages keep for phones without JavaScript lives in one cookie
per game or group, always set by :func:`set_token_cookie`.

They are ``async``: those that need the database hand only that call to a
worker thread, the others never block and run on the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request, Response
from starlette.concurrency import run_in_threadpool

from ligretto.live.registry import TableRegistry
from ligretto.store import ChangeHub, ForbiddenError, StoreBusyError, StoredGame, TafelService
from ligretto.web.errors import ApiError


async def tafel_service(request: Request) -> TafelService:
    """The app's service (``app.state.tafel``, set by :func:`ligretto.web.app.create_app`)."""
    service: TafelService = request.app.state.tafel
    return service


Service = Annotated[TafelService, Depends(tafel_service)]


async def change_hub(request: Request) -> ChangeHub:
    """The app's live-update hub (``app.state.hub``)."""
    hub: ChangeHub = request.app.state.hub
    return hub


async def stored_game(game_id: str, service: Service) -> StoredGame:
    """The game with all its rounds; :class:`~ligretto.store.GameNotFoundError` (404) if none."""
    return await run_in_threadpool(service.get_game, game_id)


GameDep = Annotated[StoredGame, Depends(stored_game)]


@dataclass(frozen=True, slots=True)
class EditableGame:
    """A game loaded through its edit link: the game and the token that was checked."""

    stored: StoredGame
    token: str


TOKEN_FIELD = "token"
"""The hidden form field that carries the edit token in a page's POST body."""

TOKEN_HEADER = "X-Edit-Token"
"""The header the pages' scripts send the edit token in."""

EDIT_COOKIE_MAX_AGE = 400 * 24 * 3600
"""How long a phone keeps a game's edit cookie (browsers cap cookies at 400 days)."""


def edit_cookie_name(game_id: str) -> str:
    """The cookie that keeps a game's edit token on the phone for pages without JavaScript.

    It is scoped to the game's edit pages (``Path=/g/{id}/edit``), HttpOnly
    and ``SameSite=Strict``: another site can never send it along.
    """
    return f"tafel_edit_{game_id}"


def group_cookie_name(group_id: str) -> str:
    """The cookie that keeps a group's token for its edit pages (no JavaScript)."""
    return f"tafel_group_{group_id}"


def set_token_cookie(
    response: Response, request: Request, name: str, token: str, *, path: str
) -> None:
    """Keep a token on the phone for pages without JavaScript: a game's or a group's.

    Scoped to the edit pages under *path*, HttpOnly (no script reads it) and
    ``SameSite=Strict`` (another site can never send it along); ``Secure``
    whenever the page itself came over HTTPS — behind a proxy, one of the
    trusted proxies (``--trusted-proxy``) that says so in ``X-Forwarded-Proto``,
    which uvicorn turns into the request's scheme. A sibling subdomain or
    port is the same site and would send it: :mod:`ligretto.web.origin_check`
    refuses writes from there.
    """
    response.set_cookie(
        name,
        token,
        max_age=EDIT_COOKIE_MAX_AGE,
        path=path,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


async def request_token(request: Request, game_id: str) -> str | None:
    """The edit token a page request carries, wherever it is allowed to be.

    In order: the ``token`` field of a form body, the ``X-Edit-Token``
    header (the pages' scripts), the game's edit cookie. Never the path.
    """
    if request.method == "POST" and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()  # Starlette keeps it for the route to read again
        value = str(form.get(TOKEN_FIELD) or "").strip()
        if value:
            return value[:200]
    header = (request.headers.get(TOKEN_HEADER) or "").strip()
    if header:
        return header[:200]
    cookie = (request.cookies.get(edit_cookie_name(game_id)) or "").strip()
    return cookie[:200] or None


async def editable_game(request: Request, stored: GameDep, service: Service) -> EditableGame:
    """The game of an edit page: loaded (404), the request's token checked (403).

    The check here only picks the page to show; every write checks the token
    again in its own transaction.
    """
    token = await request_token(request, stored.id)
    if token is None or not await run_in_threadpool(service.check_token, stored.id, token):
        raise ForbiddenError()
    return EditableGame(stored, token)


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


def watch_path(game_id: str) -> str:
    """The read-only board: anyone with the id may watch (no token)."""
    return f"/g/{game_id}"


def edit_base(game_id: str) -> str:
    """The board with entry forms, without any secret: the token travels beside it."""
    return f"/g/{game_id}/edit"


def replay_path(code: str, n: int) -> str:
    """The replay page of round ``n`` of the online table ``code``."""
    return f"/play/{code}/rounds/{n}/replay"


def replay_links(app: object, game_id: str) -> dict[int, str]:
    """The replay page of each round of the Tafel game ``game_id`` that an
    online table played and kept: the board's round number -> its address.

    None where no round is kept (``LIGRETTO_REPLAYS=off``, tables not kept)
    or the database is busy (the board is drawn without them).  Blocking:
    called in a thread.
    """
    registry: TableRegistry | None = getattr(getattr(app, "state", None), "tables", None)
    replays = None if registry is None else registry.replays
    if replays is None:
        return {}
    try:
        found = replays.for_game(game_id)
    except StoreBusyError:
        return {}
    return {number: replay_path(code, n) for number, (code, n) in found.items()}


def edit_link(game_id: str, token: str) -> str:
    """The edit link to hand out: the token in the fragment, which no server ever sees."""
    return f"{edit_base(game_id)}#t={token}"


def group_watch_path(group_id: str) -> str:
    """The group's pages, read-only: anyone with the id may look."""
    return f"/groups/{group_id}"


def group_edit_base(group_id: str) -> str:
    """The group's pages with their forms, without any secret."""
    return f"/groups/{group_id}/edit"


def group_edit_link(group_id: str, token: str) -> str:
    """The group's link to hand out: the token in the fragment, which no server sees."""
    return f"{group_edit_base(group_id)}#t={token}"


Hub = Annotated[ChangeHub, Depends(change_hub)]
EditToken = Annotated[str, Depends(edit_token)]
ExpectedVersion = Annotated[int | None, Depends(expected_version)]
EditableGameDep = Annotated[EditableGame, Depends(editable_game)]
