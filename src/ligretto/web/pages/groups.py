"""A group's page routes: create a group, its page, and the forms of the group link.

``/groups/{id}`` is the read-only page (the id is the key, as a game's
watch link); ``/groups/{id}/edit`` adds the forms: start a game of the
group, add an existing game, add members. Its address holds no secret: the
group link carries the token in its fragment (``#t=…``), the page's script
keeps it on the phone and puts it in the forms' hidden ``token`` field; for
pages without JavaScript the server keeps it in an HttpOnly,
``SameSite=Strict`` cookie of the group's edit pages (set when the group is
created here, or by any accepted form). Every write checks it again.

What the page shows is :mod:`ligretto.web.pages.group_view`, the members'
pages are :mod:`ligretto.web.pages.group_members` (their routes are
included here), a refusal's sentence is :mod:`ligretto.web.pages.group_messages`.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ligretto.store.errors import GameNotFoundError, GroupNotFoundError, StoreError
from ligretto.tafel import TafelError
from ligretto.tafel.limits import MAX_MEMBERS
from ligretto.web.deps import (
    group_cookie_name,
    group_edit_base,
    group_edit_link,
    set_token_cookie,
)
from ligretto.web.forms import choice, whole_field
from ligretto.web.pages import group_members
from ligretto.web.pages.deps import edit_base
from ligretto.web.pages.error_pages import not_found
from ligretto.web.pages.game_access import remember_token
from ligretto.web.pages.group_messages import group_refusal, store_refusal
from ligretto.web.pages.group_view import group_page as show_group_page
from ligretto.web.pages.group_view import group_service
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, gettext

router = APIRouter()
router.include_router(group_members.router)

_LINK = re.compile(
    r"/g/([A-Za-z0-9_-]{1,32})/edit(?:/([A-Za-z0-9_-]{1,200})|/?#t=([A-Za-z0-9_-]{1,200}))"
)


def _remember_group(response: Response, request: Request, group_id: str, token: str) -> None:
    """Keep the group's token for its edit pages (see the module doc)."""
    set_token_cookie(
        response, request, group_cookie_name(group_id), token, path=group_edit_base(group_id)
    )


# ------------------------------------------------------------------ routes
@router.get("/groups/new", response_class=HTMLResponse)
async def new_group_page(request: Request) -> Response:
    return render(request, "groups/new.html", {"form": {}, "errors": ()})


@router.post("/groups", response_model=None)
async def create_group(request: Request) -> Response:
    """Create the group and go to its page with the forms (the token in the fragment)."""
    language = request_language(request)
    data = await request.form()
    name = str(data.get("name") or "")[:400]
    members = _lines(str(data.get("members") or ""))
    try:
        created = await run_in_threadpool(group_service(request).create_group, name, members)
    except TafelError as error:
        context = {
            "form": {"name": name, "members": "\n".join(members)},
            "errors": (group_refusal(language, error),),
        }
        return render(request, "groups/new.html", context, status_code=422, path="/groups/new")
    stored, token = created.stored, created.token
    response = RedirectResponse(group_edit_link(stored.id, token), status_code=303)
    _remember_group(response, request, stored.id, token)
    return response


@router.get("/groups/{group_id}", response_class=HTMLResponse)
async def group_page(request: Request, group_id: str) -> Response:
    return await show_group_page(request, group_id, editing=False)


@router.get("/groups/{group_id}/edit", response_class=HTMLResponse)
async def group_edit_page(request: Request, group_id: str) -> Response:
    token = (request.cookies.get(group_cookie_name(group_id)) or "").strip()[:200] or None
    return await show_group_page(request, group_id, editing=True, token=token)


def _lines(text: str) -> list[str]:
    """Names typed one per line (or separated by commas); empty ones left out."""
    names = [part.strip() for part in re.split(r"[\n,]", text[:20000])]
    return [n for n in names if n][: MAX_MEMBERS + 1]


def seating_order(ticked: list[str], seating: str) -> list[str]:
    """The ticked members in seating order (T1: the order given is the seating order).

    Checkboxes are sent in the list's order, whatever the order of the
    ticks; the page's script sends the order of the ticks in *seating*, one
    name a line. Names there that are not ticked are left out; ticked ones
    it lacks (no script, or a stale field) follow in the list's order.

    >>> seating_order(["Anna", "Ben", "Cleo"], "Cleo\nAnna\nBen")
    ['Cleo', 'Anna', 'Ben']
    >>> seating_order(["Anna", "Ben", "Cleo"], "Ben\nDora")
    ['Ben', 'Anna', 'Cleo']
    """
    first = [n for n in dict.fromkeys(seating.splitlines()) if n in ticked]
    return first + [n for n in ticked if n not in first]


def _token(data: FormData, request: Request, group_id: str) -> str | None:
    value = str(data.get("token") or "").strip()[:200]
    return value or (request.cookies.get(group_cookie_name(group_id)) or "").strip()[:200] or None


async def _write(
    request: Request,
    group_id: str,
    data: FormData,
    act: Any,
    form: dict[str, Any],
) -> Response:
    """Run a group write from a form; a refusal shows the page again with the reason."""
    language = request_language(request)
    token = _token(data, request, group_id)
    try:
        result = await run_in_threadpool(act, token)
    except GroupNotFoundError:
        return not_found(request)
    except TafelError as error:
        message = group_refusal(language, error)
    except StoreError as error:
        store_message = store_refusal(language, error)
        if store_message is None:
            raise
        message = store_message
    else:
        if isinstance(result, Response):
            if token:
                _remember_group(result, request, group_id, token)
            return result
        response = RedirectResponse(group_edit_base(group_id), status_code=303)
        if token:
            _remember_group(response, request, group_id, token)
        return response
    return await show_group_page(
        request, group_id, editing=True, token=None, errors=(message,), form=form, status_code=422
    )


@router.post("/groups/{group_id}/edit/games", response_model=None)
async def start_group_game(request: Request, group_id: str) -> Response:
    """A new game of the group: ticked members, then new names; to the game's board."""
    data = await request.form()
    ticked = seating_order(
        [str(v) for v in data.getlist("player")][: MAX_MEMBERS + 1],
        str(data.get("seating") or "")[:20000],
    )
    extra = _lines(str(data.get("new_players") or ""))
    mode = choice(str(data.get("mode") or ""), ("target", "rounds"), "target")
    number = whole_field(str(data.get("target" if mode == "target" else "rounds") or ""))
    confirm = data.get("confirm_new") == "1"
    form = {
        "ticked": ticked,
        "new_players": "\n".join(extra),
        "mode": mode,
        "number": "" if number is None else number,
        "confirm_new": confirm,
    }
    players = ticked + extra

    def act(token: str | None) -> Response:
        created, _ = group_service(request).create_game(
            group_id,
            token,
            players,
            mode=mode,
            target=number if mode == "target" else None,
            rounds=number if mode == "rounds" else None,
            new_members=extra if confirm else (),
        )
        game_id, game_token = created.stored.id, created.edit_token
        response = RedirectResponse(
            f"{edit_base(game_id)}?created=1#t={game_token}", status_code=303
        )
        remember_token(response, request, game_id, game_token)
        return response

    if mode == "rounds" and number is None:
        language = request_language(request)
        message = gettext(language, N_("Enter the number of rounds as a whole number, e.g. 8."))
        return await show_group_page(
            request, group_id, editing=True, errors=(message,), form=form, status_code=422
        )
    return await _write(request, group_id, data, act, form)


@router.post("/groups/{group_id}/edit/members", response_model=None)
async def add_group_members(request: Request, group_id: str) -> Response:
    data = await request.form()
    names = _lines(str(data.get("names") or ""))
    return await _write(
        request,
        group_id,
        data,
        lambda token: group_service(request).add_members(group_id, token, names),
        {"names": "\n".join(names)},
    )


@router.post("/groups/{group_id}/edit/add-game", response_model=None)
async def add_existing_game(request: Request, group_id: str) -> Response:
    """Add a game by its edit link (``…/g/{id}/edit#t=…`` or the old form)."""
    data = await request.form()
    link = str(data.get("link") or "").strip()[:600]
    confirm = data.get("confirm_new") == "1"
    match = _LINK.search(link)
    game_id, game_token = (None, None) if match is None else (match[1], match[2] or match[3])

    def act(token: str | None) -> object:
        if game_id is None:
            raise GameNotFoundError(link[:40])
        service = group_service(request)
        if confirm:
            stored_game = request.app.state.tafel.get_game(game_id)
            return service.add_game(
                group_id, token, game_id, game_token, new_members=stored_game.game.players
            )
        return service.add_game(group_id, token, game_id, game_token)

    return await _write(request, group_id, data, act, {"link": link, "confirm_link": confirm})
