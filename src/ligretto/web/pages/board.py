"""The board: the edit page (secret link) and the watch page, and their live fragments (T4–T6).

Both show the same board; the edit page adds the entry forms. The watch
page and its live fragment never contain the edit token: a watcher's page
offers no editing and leaks nothing that would allow it. How the edit page
gets its token without a secret in its address: :mod:`.game_access`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from ligretto.store import StoredGame
from ligretto.web.deps import replay_links
from ligretto.web.pages.deps import (
    GameDep,
    Service,
    absolute,
    edit_base,
    edit_link,
    watch_path,
)
from ligretto.web.pages.error_pages import not_found
from ligretto.web.pages.game_access import known_token
from ligretto.web.pages.group_view import group_service
from ligretto.web.pages.offline import game_state, offline_texts
from ligretto.web.pages.offline_parts import offline_pieces
from ligretto.web.pages.save_notice import UndoOffer, saved_notice, undo_offer, undone_entry
from ligretto.web.pages.view import BoardView, board_view, family_line
from ligretto.web.qr import qr_svg
from ligretto.web.rendering import environment, render, request_language
from ligretto.web.text import N_, gettext

router = APIRouter()


def chart_description(language: str, board: BoardView) -> str:
    """The chart's text alternative: every player's current total."""
    totals = ", ".join(f"{p.name} {p.total}" for p in board.players)
    return gettext(
        language,
        N_("Total points after %(rounds)s rounds: %(totals)s."),
        rounds=board.complete_rounds,
        totals=totals,
    )


def game_info(board: BoardView, watch: str, edit: str | None) -> dict[str, Any]:
    """What the browser remembers about this game for the start page."""
    return {
        "id": board.game_id,
        "watch": watch,
        "edit": edit,
        "players": [p.name for p in board.players],
        "status": board.status,
        "mode": board.mode,
        "scored": board.scored,
        "winners": list(board.winners),
        "rounds": board.complete_rounds,
    }


def board_context(
    request: Request,
    stored: StoredGame,
    token: str | None,
    *,
    editing: bool | None = None,
    replays: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The template values shared by the edit page, the watch page and the fragments.

    *editing* defaults to whether a *token* is known; the edit page is also
    drawn without one (its script has the token, or the phone has none).
    *replays*: the replay page of each round an online table kept
    (:func:`board_replays`), linked from the round's row.
    """
    language = request_language(request)
    board = board_view(stored.id, stored.version, stored.game, stored.member_places, replays)
    watch = watch_path(stored.id)
    editing = token is not None if editing is None else editing
    edit = edit_base(stored.id) if editing else None
    base = edit or watch
    return {
        "board": board,
        "editing": editing,
        "edit_base": edit,
        "token": token,
        "watch_url": watch,
        "watch_url_full": absolute(request, watch),
        "edit_url_full": None if token is None else absolute(request, edit_link(stored.id, token)),
        "watch_qr": qr_svg(absolute(request, watch)),
        "fragment_url": f"{base}/board",
        # A watcher is sent the board itself (board_push); the edit page
        # hears the version and fetches its own board, with its token.
        "events_url": (
            f"/api/games/{stored.id}/events"
            if editing
            else f"/g/{stored.id}/board/events?v={stored.version}"
        ),
        "events_push": not editing,
        "export_csv": f"/api/games/{stored.id}/export.csv",
        "export_json": f"/api/games/{stored.id}/export.json",
        "chart_description": chart_description(language, board),
        "game_info": game_info(board, watch, edit),
        "game_state": game_state(stored, replays),
    }


async def board_page(
    request: Request,
    stored: StoredGame,
    token: str | None,
    *,
    editing: bool | None = None,
    entry: Any = None,
    conflict: bool = False,
    notice: str | None = None,
    notice_round: int | None = None,
    undo: UndoOffer | None = None,
    undo_error: str | None = None,
    family: str | None = None,
    replays: Mapping[int, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """The full page; on a refused entry *entry* carries the typed values and messages.

    *undo* offers to take back the write that led here; *undo_error* says why an Undo was refused.
    *family* is the group history line of a won game (:func:`family_of`).
    *replays* are looked up when not given: a refused entry's board links
    its rounds' replays like any other.
    """
    if replays is None:
        replays = await board_replays(request, stored)
    context = board_context(request, stored, token, editing=editing, replays=replays)
    context.update(
        family_line=family,
        entry=entry,
        conflict=conflict,
        notice=notice,
        notice_round=notice_round,
        undo=undo,
        undo_error=undo_error,
    )
    if context["editing"]:
        context["offline_texts"] = offline_texts(request_language(request))
        context["offline_pieces"] = offline_pieces(request, context["board"])
    context["request_created"] = request.query_params.get("created") == "1"
    path = context["edit_base"] or context["watch_url"]
    return render(request, "board.html", context, status_code=status_code, path=path)


def render_fragment(
    stored: StoredGame,
    language: str,
    token: str | None,
    replays: Mapping[int, str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """The board alone (both parts the page swaps in) and the game's info for the browser.

    It depends only on the game's version, the language and whether it is
    the edit page's: no absolute link and no QR code (those are the
    page's), so one rendering serves every watcher of a version
    (:mod:`ligretto.web.pages.board_push`).  The replay links (*replays*)
    go with the version too: a round's replay is written before the board
    takes the round (``TafelRecorder``).
    """
    board = board_view(stored.id, stored.version, stored.game, stored.member_places, replays)
    watch = watch_path(stored.id)
    edit = edit_base(stored.id) if token is not None else None
    html = (
        environment(language)
        .get_template("_board.html")
        .render(
            lang=language,
            board=board,
            edit_base=edit,
            chart_description=chart_description(language, board),
            game_state=game_state(stored, replays),
        )
    )
    info = game_info(board, watch, edit)
    if token is None:
        # A watcher's board says nothing of editing: a phone that also
        # keeps the game's edit link must not forget it.
        del info["edit"]
    # Never the token: the second scorekeeper's link is drawn by the
    # page's script from the token it keeps.
    return html, info


def board_tag(version: int, language: str) -> str:
    """The fragment's entity tag: it is drawn from the version and the language alone."""
    return f'"{version}-{language}"'


def fragment(
    request: Request,
    stored: StoredGame,
    token: str | None,
    replays: Mapping[int, str] | None = None,
) -> Response:
    """Only the board, for the live update of an open page.

    ``304`` without drawing anything when the page says (``If-None-Match``)
    that it shows this version already: an edit page asks once whenever its
    live stream (re)connects, mostly right after it was drawn itself.
    """
    language = request_language(request)
    tag = board_tag(stored.version, language)
    headers = {"Cache-Control": "no-store", "ETag": tag, "X-Game-Version": str(stored.version)}
    asked = request.headers.get("if-none-match", "")
    if tag in (part.strip() for part in asked.split(",")):
        return Response(status_code=304, headers=headers)
    html, info = render_fragment(stored, language, token, replays)
    response = HTMLResponse(html, headers=headers)
    response.headers["X-Game-Info"] = quote(json.dumps(info, separators=(",", ":")))
    return response


async def family_of(request: Request, stored: StoredGame) -> str | None:
    """The group history line of a won game in a group; read only once the game is won.

    Only the full page shows it: the live board is drawn without the
    database (:mod:`.board_worker`), and the line of a won game depends on
    that game and the earlier ones alone.
    """
    if not stored.game.winners:
        return None
    note = await run_in_threadpool(group_service(request).queries.family_note, stored.id)
    return family_line(request_language(request), note, datetime.now(UTC).year)


async def board_replays(request: Request, stored: StoredGame) -> dict[int, str]:
    """The replay page of each of the game's rounds that an online table
    played and kept (none for a game scored by hand, or with replays off)."""
    return await run_in_threadpool(replay_links, request.app, stored.id)


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def watch_page(request: Request, stored: GameDep) -> HTMLResponse:
    return await board_page(
        request,
        stored,
        None,
        family=await family_of(request, stored),
        replays=await board_replays(request, stored),
    )


@router.get("/g/{game_id}/board", response_class=HTMLResponse)
async def watch_fragment(request: Request, stored: GameDep) -> Response:
    return fragment(request, stored, None, await board_replays(request, stored))


@router.get("/g/{game_id}/edit", response_class=HTMLResponse)
async def edit_page(request: Request, stored: GameDep, service: Service) -> HTMLResponse:
    """The board with the entry forms.

    The address has no secret, so this page is answered without a token
    (and a phone's service worker may keep it for offline use): the token
    the phone keeps goes into the forms (the script, or the cookie here).
    Without one the page says so; writes check the token anyway.
    """
    token = await known_token(request, service, stored.id)
    notice, number = saved_notice(request)
    if number is not None and number > len(stored.game.rounds):
        number = None  # the round is gone (removed on another phone)
    offer = await undo_offer(request, service, stored, notice)
    return await board_page(
        request,
        stored,
        token,
        editing=True,
        entry=await undone_entry(request, service, stored),
        notice=notice,
        notice_round=number,
        undo=offer,
        family=await family_of(request, stored),
        replays=await board_replays(request, stored),
    )


@router.get("/g/{game_id}/edit/board", response_class=HTMLResponse)
async def edit_fragment(request: Request, stored: GameDep, service: Service) -> Response:
    """The edit page's live board; the token comes in ``X-Edit-Token`` (or the cookie).

    A wrong or missing token gets 404 here, not the edit page's 403 with the
    watch link: an open page's live update just stops (and says why).
    """
    token = await known_token(request, service, stored.id)
    if token is None:
        return not_found(request)
    return fragment(request, stored, token, await board_replays(request, stored))
