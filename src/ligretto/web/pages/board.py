"""The board: the edit page (secret link) and the watch page (T4–T6).

Both show the same board; the edit page adds the entry forms. The watch
page and its live fragment never contain the edit token: a watcher's page
offers no editing and leaks nothing that would allow it.

The edit page's address holds no secret either (``/g/{id}/edit``): the edit
link carries the token in its fragment (``#t=…``), which browsers never
send. The page's script keeps it on the phone and sends it in the forms'
hidden ``token`` field or the ``X-Edit-Token`` header; for pages without
JavaScript the server keeps it in an HttpOnly, ``SameSite=Strict`` cookie
of the game's edit pages and writes it into the hidden fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import (
    ForbiddenError,
    GameNotFoundError,
    StoreBusyError,
    StoredGame,
    TafelService,
)
from ligretto.store.changes import UNDOABLE
from ligretto.web.api.errors import ExceptionHandler
from ligretto.web.forms import whole_number
from ligretto.web.pages.deps import (
    EDIT_COOKIE_MAX_AGE,
    GameDep,
    Service,
    absolute,
    edit_base,
    edit_cookie_name,
    edit_link,
    request_token,
    watch_path,
)
from ligretto.web.pages.messages import N_
from ligretto.web.pages.offline_parts import offline_pieces
from ligretto.web.pages.rendering import environment, gettext, render, request_language
from ligretto.web.pages.view import BoardView, board_view
from ligretto.web.qr import qr_svg

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
    request: Request, stored: StoredGame, token: str | None, *, editing: bool | None = None
) -> dict[str, Any]:
    """The template values shared by the edit page, the watch page and the fragments.

    *editing* defaults to whether a *token* is known; the edit page is also
    drawn without one (its script has the token, or the phone has none).
    """
    language = request_language(request)
    board = board_view(stored.id, stored.version, stored.game)
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
        "game_state": game_state(stored),
    }


OFFLINE_TEXTS: dict[str, tuple[str, dict[str, str]]] = {
    # The words the edit page's script writes itself (offline entry, sync,
    # conflicts, the connection indicator); placeholders become {name}.
    "live": (N_("live"), {}),
    "offline": (N_("offline"), {}),
    "reconnecting": (N_("reconnecting…"), {}),
    "sending": (N_("sending…"), {}),
    "waiting_one": (N_("1 round waiting to be sent"), {}),
    "waiting": (N_("%(count)s rounds waiting to be sent"), {"count": "{count}"}),
    "conflict": (N_("conflict: please decide"), {}),
    "round": (N_("Round %(number)s"), {"number": "{number}"}),
    "stacks": (N_("Stacks"), {}),
    "middle": (N_("Middle"), {}),
    "stack": (N_("Stack"), {}),
    "save_stacks": (N_("Save stacks"), {}),
    "save_round": (N_("Save round %(number)s"), {"number": "{number}"}),
    "stack_count": (N_("stack %(count)s"), {"count": "{count}"}),
    "less": (N_("%(what)s for %(name)s: one less"), {"what": "{what}", "name": "{name}"}),
    "more": (N_("%(what)s for %(name)s: one more"), {"what": "{what}", "name": "{name}"}),
    "stacks_hint": (
        N_(
            "Who called Ligretto Stop? Then the cards left in every other Ligretto stack. "
            "You can save this while the middle is still being sorted."
        ),
        {},
    ),
    "middle_hint": (
        N_(
            "Now count each player's cards in the middle. "
            "The board computes the points: middle − 2 × stack."
        ),
        {},
    ),
    "not_saved": (N_("Not saved:"), {}),
    "two_callers": (N_("Two empty stacks: only one player can call Ligretto Stop."), {}),
    "stack_range": (
        N_("%(name)s: enter the cards left in the Ligretto stack (0 to %(max)s)."),
        {"name": "{name}", "max": "{max}"},
    ),
    "middle_range": (
        N_("%(name)s: enter the cards in the middle (0 to %(max)s)."),
        {"name": "{name}", "max": "{max}"},
    ),
    "check": (N_("Please check this round."), {}),
    "save_anyway": (N_("Save anyway"), {}),
    "game_over": (N_("The game is finished."), {}),
    "wins": (
        N_("%(name)s wins with %(points)s points!"),
        {"name": "{name}", "points": "{points}"},
    ),
    "shared": (
        N_("Shared victory: %(names)s with %(points)s points each!"),
        {"names": "{names}", "points": "{points}"},
    ),
    "tie": (N_("Tie at the top: %(names)s."), {"names": "{names}"}),
    "leads": (N_("%(name)s leads."), {"name": "{name}"}),
    "share_lead": (N_("%(names)s share the lead."), {"names": "{names}"}),
    "target": (N_("Target: %(target)s points"), {"target": "{target}"}),
    "waiting_middle": (
        N_("Round %(number)s: waiting for the middle"),
        {"number": "{number}"},
    ),
    "last_round": (N_("last round %(points)s"), {"points": "{points}"}),
    "to_go": (N_("%(points)s to go"), {"points": "{points}"}),
    "not_sent": (N_("not sent yet"), {}),
    "kept": (N_("Saved on this phone. It is sent when the connection is back."), {}),
    "conflict_title": (
        N_("Another phone changed this game while rounds of this phone were waiting."),
        {},
    ),
    "conflict_hint": (
        N_("Nothing was overwritten. Decide what the board keeps:"),
        {},
    ),
    "server_side": (N_("On the server"), {}),
    "phone_side": (N_("On this phone, not sent"), {}),
    "keep_both": (N_("Keep both: add mine after theirs"), {}),
    "keep_theirs": (N_("Keep only theirs (discard mine)"), {}),
    "cannot_append": (
        N_(
            "The server's board takes no new round now (a round waits for its middle, "
            "or the game is over). Settle that on the board first, or keep only theirs."
        ),
        {},
    ),
    "refused": (N_("Not sent: the server refused this round."), {}),
    "discard": (N_("Discard it"), {}),
    "nothing_new": (N_("no change on the server"), {}),
    "called": (N_("called Ligretto Stop"), {}),
    "undo": (N_("Undo"), {}),
    "undo_offline": (N_("Offline: not undone. Try again when the connection is back."), {}),
    "kept_stacks": (
        N_("Round %(number)s: stacks kept on this phone."),
        {"number": "{number}"},
    ),
    "kept_round": (N_("Round %(number)s kept on this phone."), {"number": "{number}"}),
    "kept_correction": (
        N_("Round %(number)s: correction kept on this phone."),
        {"number": "{number}"},
    ),
    "kept_removal": (
        N_("Round %(number)s: removal kept on this phone."),
        {"number": "{number}"},
    ),
    "correct_round": (N_("Correct round %(number)s"), {"number": "{number}"}),
    "remove_round": (N_("Remove round %(number)s"), {"number": "{number}"}),
    "round_corrected": (N_("Round %(number)s corrected"), {"number": "{number}"}),
    "round_removed": (N_("Round %(number)s removed"), {"number": "{number}"}),
    "back": (N_("Back to the board"), {}),
    "keep_mine": (N_("Keep mine for this round (replace theirs)"), {}),
    "same_round": (
        N_("Both phones changed the same round differently: the board can keep only one of them."),
        {},
    ),
}


def offline_texts(language: str) -> dict[str, str]:
    return {
        key: gettext(language, message, **values)
        for key, (message, values) in OFFLINE_TEXTS.items()
    }


def game_state(stored: StoredGame) -> dict[str, Any]:
    """The game as the phone's rules (``static/js/rules.js``) take it: rounds in seating order.

    The edit page works on from it without a network: rounds entered offline
    are applied to it on the phone to show points, totals and the outcome.
    """
    game = stored.game
    return {
        "id": stored.id,
        "version": stored.version,
        "players": list(game.players),
        "mode": game.mode.value,
        "target": game.target,
        "agreed_rounds": game.agreed_rounds,
        "row_storage": game.row_storage,
        "closed": game.closed,
        "scored": game.scored,
        "rounds": [
            {
                "stacks": list(r.stacks),
                "middle": None if r.middle is None else list(r.middle),
                "confirmed": r.confirmed,
            }
            for r in game.rounds
        ],
    }


def not_found(request: Request) -> HTMLResponse:
    return render(request, "not_found.html", {}, status_code=404)


def bad_link(request: Request, game_id: str) -> HTMLResponse:
    """A wrong edit token: say so, and offer the watch page (which needs none)."""
    context = {"bad_link": True, "watch_url": watch_path(game_id)}
    return render(request, "not_found.html", context, status_code=403)


async def _not_found_page(request: Request, _exc: Exception) -> Response:
    return not_found(request)


async def _bad_link_page(request: Request, _exc: Exception) -> Response:
    return bad_link(request, str(request.path_params.get("game_id", "")))


async def _busy_page(request: Request, exc: Exception) -> Response:
    """The database stayed locked by other writers: nothing saved, send it again soon."""
    assert isinstance(exc, StoreBusyError)
    # The language switch leads to the start page: the refused URL may take
    # only POST, and an edit link's token stays out of the links.
    response = render(
        request, "busy.html", {"retry_after": exc.retry_after}, status_code=503, path="/"
    )
    response.headers["Retry-After"] = str(exc.retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


ERROR_PAGES: dict[type[Exception], ExceptionHandler] = {
    GameNotFoundError: _not_found_page,
    ForbiddenError: _bad_link_page,
    StoreBusyError: _busy_page,
}
"""The pages' answers when ``GameDep``/``EditableGameDep`` find no game or a wrong link."""


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
    response.set_cookie(
        edit_cookie_name(game_id),
        token,
        max_age=EDIT_COOKIE_MAX_AGE,
        path=edit_base(game_id),
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


async def known_token(request: Request, service: TafelService, game_id: str) -> str | None:
    """The request's edit token (header or cookie) if it is the game's; else None."""
    token = await request_token(request, game_id)
    if token is None or not await token_ok(service, game_id, token):
        return None
    return token


def board_page(
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
    status_code: int = 200,
) -> HTMLResponse:
    """The full page; on a refused entry *entry* carries the typed values and messages.

    *undo* offers to take back the write that led here; *undo_error* says why an Undo was refused.
    """
    context = board_context(request, stored, token, editing=editing)
    context.update(
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
    stored: StoredGame, language: str, token: str | None
) -> tuple[str, dict[str, Any]]:
    """The board alone (both parts the page swaps in) and the game's info for the browser.

    It depends only on the game's version, the language and whether it is
    the edit page's: no absolute link and no QR code (those are the
    page's), so one rendering serves every watcher of a version
    (:mod:`ligretto.web.pages.board_push`).
    """
    board = board_view(stored.id, stored.version, stored.game)
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
            game_state=game_state(stored),
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


def fragment(request: Request, stored: StoredGame, token: str | None) -> Response:
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
    html, info = render_fragment(stored, language, token)
    response = HTMLResponse(html, headers=headers)
    response.headers["X-Game-Info"] = quote(json.dumps(info, separators=(",", ":")))
    return response


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def watch_page(request: Request, stored: GameDep) -> HTMLResponse:
    return board_page(request, stored, None)


@router.get("/g/{game_id}/board", response_class=HTMLResponse)
async def watch_fragment(request: Request, stored: GameDep) -> Response:
    return fragment(request, stored, None)


@router.get("/g/{game_id}/edit", response_class=HTMLResponse)
async def edit_page(request: Request, stored: GameDep, service: Service) -> HTMLResponse:
    """The board with the entry forms.

    The address has no secret, so this page is answered without a token
    (and a phone's service worker may keep it for offline use): the token
    the phone keeps goes into the forms (the script, or the cookie here).
    Without one the page says so; writes check the token anyway.
    """
    token = await known_token(request, service, stored.id)
    notice, number = _notice(request)
    if number is not None and number > len(stored.game.rounds):
        number = None  # the round is gone (removed on another phone)
    offer = await undo_offer(request, service, stored, notice)
    return board_page(
        request, stored, token, editing=True, notice=notice, notice_round=number, undo=offer
    )


UNDO_SECONDS = 120
"""How long after a write its board still offers the Undo (the page's script hides it sooner)."""

UNDO_SHOWN_SECONDS = 10
"""How long the page's script shows the Undo bar after a write."""


@dataclass(frozen=True, slots=True)
class UndoOffer:
    """The Undo the board offers right after a write: what it takes back and its version."""

    text: str
    version: int
    seconds: int = UNDO_SHOWN_SECONDS


async def undo_offer(
    request: Request, service: TafelService, stored: StoredGame, notice: str | None
) -> UndoOffer | None:
    """An Undo for the write that redirected here (``?saved=3&undo=7``), if it still holds.

    Only while that write is the game's latest change (nobody changed the
    game since: its version is the game's), it changed a round, and it is
    recent; the service checks all of it again when the Undo is sent.
    """
    version = whole_number(request.query_params.get("undo", ""), 9)
    if notice is None or version is None or version != stored.version:
        return None
    try:
        last = await run_in_threadpool(service.last_change, stored.id)
    except GameNotFoundError:
        return None
    if last is None or last.version != version or last.action not in UNDOABLE:
        return None
    if (datetime.now(UTC) - last.at).total_seconds() > UNDO_SECONDS:
        return None
    return UndoOffer(notice, version)


def _notice(request: Request) -> tuple[str | None, int | None]:
    """Confirm the save that redirected here (``?saved=3`` and the like).

    Returns the sentence and the round it is about (for a "correct" link).
    """
    language = request_language(request)
    if request.query_params.get("created") == "1":
        return gettext(language, N_("Game created. Everyone can watch it on their phone:")), None
    for key, message in (
        ("opened", N_("Round %(number)s: stacks saved.")),
        ("saved", N_("Round %(number)s saved.")),
        ("corrected", N_("Round %(number)s corrected.")),
        ("removed", N_("Round %(number)s removed.")),
        ("undone", N_("Round %(number)s: last change undone.")),
    ):
        number = whole_number(request.query_params.get(key, ""), 3)
        if number is not None:
            text = gettext(language, message, number=number)
            return text, None if key in ("removed", "undone") else number
    return None, None


@router.get("/g/{game_id}/edit/board", response_class=HTMLResponse)
async def edit_fragment(request: Request, stored: GameDep, service: Service) -> Response:
    """The edit page's live board; the token comes in ``X-Edit-Token`` (or the cookie).

    A wrong or missing token gets 404 here, not the edit page's 403 with the
    watch link: an open page's live update just stops (and says why).
    """
    token = await known_token(request, service, stored.id)
    if token is None:
        return not_found(request)
    return fragment(request, stored, token)
