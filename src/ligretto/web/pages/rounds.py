"""The edit page's form routes: rounds saved, corrected, removed; Undo; Beenden, Werten.

Stacks first (T2), then the middle (T3); correcting any round and
removing the last one (T6), the Undo (T6), Beenden and Werten (T5). Each
route reads its form (:mod:`.entry_form`) and hands the write to
:func:`~ligretto.web.pages.saving.attempt`, which redirects to the board or
shows why the write was refused.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import StoredGame, VersionConflictError
from ligretto.tafel import TafelError
from ligretto.tafel.limits import middle_limit
from ligretto.web.pages.board import board_page
from ligretto.web.pages.deps import EditableGame, EditableGameDep, GameDep, Service, edit_base
from ligretto.web.pages.entry_form import Entry, form_version, read_counts, read_stacks
from ligretto.web.pages.error_pages import not_found
from ligretto.web.pages.game_access import known_token, load_game
from ligretto.web.pages.messages import refusal
from ligretto.web.pages.offline import game_state, offline_texts
from ligretto.web.pages.saving import attempt, saved, with_undo
from ligretto.web.pages.view import board_view
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, gettext

router = APIRouter()


@router.post("/g/{game_id}/edit/stacks", response_model=None)
async def save_stacks(request: Request, editable: EditableGameDep, service: Service) -> Response:
    """T2: the stacks first; the caller's stack is 0."""
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    language = request_language(request)
    data = await request.form()
    players = loaded.game.players
    entry = Entry()
    stacks = read_stacks(language, data, entry, players)
    if stacks is None:
        return await board_page(request, loaded, token, entry=entry, status_code=422)
    counts = stacks
    return await attempt(
        request,
        service,
        loaded,
        token,
        entry,
        lambda: service.open_round(game_id, token, counts, expected_version=form_version(data)),
        done=lambda result: with_undo(
            edit_base(game_id)
            + f"?opened={result.round.number if result.round else ''}#entry-title",
            result,
        ),
    )


@router.post("/g/{game_id}/edit/middle", response_model=None)
async def save_middle(request: Request, editable: EditableGameDep, service: Service) -> Response:
    """T3: then the middle; the points follow (R5). Implausible rounds need a confirmation."""
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    language = request_language(request)
    data = await request.form()
    game = loaded.game
    pending = game.pending_round
    number_text = str(data.get("round") or "")
    if pending is None or number_text != str(pending.number):
        # The round was completed or removed on another phone meanwhile.
        return await board_page(request, loaded, token, conflict=True, status_code=409)
    entry = Entry()
    limits = [middle_limit(s) for s in pending.stacks]
    middle = read_counts(language, data, entry, game.players, "middle", limits)
    if middle is None:
        return await board_page(request, loaded, token, entry=entry, status_code=422)
    counts = middle
    confirm = data.get("confirm") == "1"
    number = pending.number
    return await attempt(
        request,
        service,
        loaded,
        token,
        entry,
        lambda: service.complete_round(
            game_id, token, number, counts, confirm=confirm, expected_version=form_version(data)
        ),
        done=lambda result: with_undo(edit_base(game_id) + f"?saved={number}#status", result),
    )


async def _round_page(
    request: Request,
    stored: StoredGame,
    token: str | None,
    number: int,
    *,
    entry: Entry | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    board = board_view(stored.id, stored.version, stored.game, stored.member_places)
    rnd = board.rounds[number - 1]
    if entry is None:
        entry = Entry()
        for seat, cell in enumerate(rnd.cells):
            entry.values[f"stack-{seat}"] = str(cell.stack)
            if cell.stack == 0:
                entry.values[f"stop-{seat}"] = "1"
            entry.values[f"middle-{seat}"] = "" if cell.middle is None else str(cell.middle)
    base = edit_base(stored.id)
    return render(
        request,
        "round.html",
        {
            "token": token,
            "board": board,
            "round": rnd,
            "entry": entry,
            "edit_base": base,
            "is_last": number == len(board.rounds),
            "game_state": game_state(stored),
            "offline_texts": offline_texts(request_language(request)),
        },
        status_code=status_code,
        path=f"{base}/rounds/{number}",
    )


@router.get("/g/{game_id}/edit/rounds/{number}", response_class=HTMLResponse)
async def round_page(request: Request, stored: GameDep, number: int, service: Service) -> Response:
    """T6: correct any round, or remove the last one (the save needs the token)."""
    if not 1 <= number <= len(stored.game.rounds):
        return not_found(request)
    token = await known_token(request, service, stored.id)
    return await _round_page(request, stored, token, number)


@router.post("/g/{game_id}/edit/rounds/{number}", response_model=None)
async def correct_round(
    request: Request, editable: EditableGameDep, number: int, service: Service
) -> Response:
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    if not 1 <= number <= len(loaded.game.rounds):
        return not_found(request)
    language = request_language(request)
    data = await request.form()
    players = loaded.game.players
    entry = Entry()
    stacks = read_stacks(language, data, entry, players)
    middle: list[int] | None = None
    if stacks is not None:
        limits = [middle_limit(s) for s in stacks]
        middle = read_counts(language, data, entry, players, "middle", limits, optional=True)
    else:  # keep the typed middle counts in the form
        for seat in range(len(players)):
            entry.values[f"middle-{seat}"] = str(data.get(f"middle-{seat}") or "").strip()[:6]
    if entry.errors or stacks is None:
        return await _round_page(request, loaded, token, number, entry=entry, status_code=422)
    confirm = data.get("confirm") == "1"
    counts, middle_counts = stacks, middle
    was_complete = loaded.game.rounds[number - 1].complete
    if was_complete and middle_counts is None:
        entry.errors.append(
            gettext(language, N_("A complete round keeps its middle counts: enter them too."))
        )
        return await _round_page(request, loaded, token, number, entry=entry, status_code=422)
    return await attempt(
        request,
        service,
        loaded,
        token,
        entry,
        lambda: service.correct_round(
            game_id,
            token,
            number,
            stacks=counts,
            middle=middle_counts,
            confirm=confirm,
            expected_version=form_version(data),
        ),
        # The same counts again: the board as it is, with no word of a correction.
        done=lambda result: (
            with_undo(edit_base(game_id) + f"?corrected={number}#status", result)
            if result.changed
            else edit_base(game_id) + "#status"
        ),
        page=lambda **kw: _round_page(request, loaded, token, number, **kw),
    )


@router.post("/g/{game_id}/edit/rounds/{number}/remove", response_model=None)
async def remove_round(
    request: Request, editable: EditableGameDep, number: int, service: Service
) -> Response:
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    data = await request.form()
    return await attempt(
        request,
        service,
        loaded,
        token,
        Entry(),
        lambda: service.remove_last_round(
            game_id, token, number, expected_version=form_version(data)
        ),
        done=lambda result: with_undo(edit_base(game_id) + f"?removed={number}#status", result),
    )


@router.post("/g/{game_id}/edit/undo", response_model=None)
async def undo(request: Request, editable: EditableGameDep, service: Service) -> Response:
    """Undo (T6): take back the last save or removal of a round.

    The form carries the version that change made: if another phone changed
    the game since, the board says the Undo cannot be done and nothing changes.
    """
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    data = await request.form()
    version = form_version(data)
    language = request_language(request)
    try:
        if version is None:
            raise VersionConflictError(-1, loaded.version)
        result = await run_in_threadpool(
            lambda: service.undo_last(game_id, token, expected_version=version)
        )
    except VersionConflictError:
        fresh = await load_game(service, game_id)
        if fresh is None:
            return not_found(request)
        message = gettext(
            language,
            N_(
                "Not undone: another phone changed this game meanwhile. "
                "Nothing was changed; the board shows the latest state."
            ),
        )
        return await board_page(request, fresh, token, undo_error=message, status_code=409)
    except TafelError as error:
        return await board_page(
            request, loaded, token, undo_error=refusal(language, error), status_code=422
        )
    number = result.round.number if result.round else ""
    return saved(request, game_id, token, edit_base(game_id) + f"?undone={number}#status")


async def _end(request: Request, editable: EditableGame, service: Service, action: str) -> Response:
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    data = await request.form()
    version = form_version(data)
    write = service.finish if action == "finish" else service.score
    language = request_language(request)
    try:
        await run_in_threadpool(lambda: write(game_id, token, expected_version=version))
    except VersionConflictError:
        fresh = await load_game(service, game_id)
        if fresh is None:
            return not_found(request)
        return await board_page(request, fresh, token, conflict=True, status_code=409)
    except TafelError as error:
        entry = Entry(end_errors=[refusal(language, error)])
        return await board_page(request, loaded, token, entry=entry, status_code=422)
    anchor = "#status" if action == "finish" else "#ranking-title"
    return saved(request, game_id, token, edit_base(game_id) + anchor)


@router.post("/g/{game_id}/edit/finish", response_model=None)
async def finish(request: Request, editable: EditableGameDep, service: Service) -> Response:
    """Beenden (T5): no more rounds."""
    return await _end(request, editable, service, "finish")


@router.post("/g/{game_id}/edit/score", response_model=None)
async def score(request: Request, editable: EditableGameDep, service: Service) -> Response:
    """Werten (T5): the final ranking with the winner or winners."""
    return await _end(request, editable, service, "score")
