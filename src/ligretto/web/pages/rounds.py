"""Entering, correcting and removing rounds; Beenden and Werten (T2, T3, T5, T6).

Every form carries the game version it was made for: a save based on an
old version (another phone saved first) is refused by the service and the
page says so with the current board. Every refusal comes back as the same
page with what was typed and a translated message (status 4xx); a save
redirects to the board (303), so reloading never saves twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ligretto.store import (
    ForbiddenError,
    GameNotFoundError,
    StoredGame,
    TafelService,
    VersionConflictError,
    WriteResult,
)
from ligretto.tafel import Code, ImplausibleRoundError, TafelError
from ligretto.tafel.limits import STACK_CARDS, middle_limit
from ligretto.web.forms import whole_number
from ligretto.web.pages.board import board_page
from ligretto.web.pages.deps import EditableGame, EditableGameDep, GameDep, Service, edit_base
from ligretto.web.pages.error_pages import bad_link, not_found
from ligretto.web.pages.game_access import known_token, load_game, remember_token
from ligretto.web.pages.messages import implausible_details, refusal
from ligretto.web.pages.offline import game_state, offline_texts
from ligretto.web.pages.rendering import render, request_language
from ligretto.web.pages.text import N_, gettext
from ligretto.web.pages.view import board_view

router = APIRouter()


@dataclass(slots=True)
class Entry:
    """A refused entry as the user left it: values by field name and the messages."""

    values: dict[str, str] = field(default_factory=dict)
    invalid: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    implausible: list[str] = field(default_factory=list)
    end_errors: list[str] = field(default_factory=list)


def _version(data: FormData) -> int | None:
    return whole_number(str(data.get("version") or ""), 9)


def read_counts(
    language: str,
    data: FormData,
    entry: Entry,
    players: Sequence[str],
    prefix: str,
    limits: Sequence[int],
    *,
    stops: set[int] | None = None,
    optional: bool = False,
) -> list[int] | None:
    """Read ``{prefix}-{seat}`` fields as whole numbers; messages go into *entry*.

    A seat in *stops* called Ligretto Stop: its stack is 0 whatever was
    typed (T2). With *optional*, all fields empty means "not given".
    """
    stops = stops or set()
    raw = [str(data.get(f"{prefix}-{seat}") or "").strip()[:6] for seat in range(len(players))]
    for seat, text in enumerate(raw):
        entry.values[f"{prefix}-{seat}"] = "0" if seat in stops else text
        if seat in stops:
            entry.values[f"stop-{seat}"] = "1"
    if optional and not any(raw):
        return None
    counts: list[int] = []
    for seat, name in enumerate(players):
        if seat in stops:
            counts.append(0)
            continue
        text = raw[seat]
        field_name = f"{prefix}-{seat}"
        if not text:
            entry.invalid.add(field_name)
            entry.errors.append(
                gettext(
                    language,
                    N_("%(name)s: enter the cards left in the Ligretto stack (0 to %(max)s).")
                    if prefix == "stack"
                    else N_("%(name)s: enter the cards in the middle (0 to %(max)s)."),
                    name=name,
                    max=limits[seat],
                )
            )
        elif (count := whole_number(text)) is None:
            entry.invalid.add(field_name)
            if _negative_whole(text):
                # "-1" is a whole number, only out of range: say the range (T2, T3).
                message = (
                    N_("%(name)s: a Ligretto stack holds 0 to %(max)s cards.")
                    if prefix == "stack"
                    else N_("%(name)s: the middle can hold 0 to %(max)s of their cards.")
                )
                entry.errors.append(gettext(language, message, name=name, max=limits[seat]))
            else:
                entry.errors.append(
                    gettext(language, N_("%(name)s: enter a whole number."), name=name)
                )
        else:
            counts.append(count)
    return None if entry.errors else counts


def _negative_whole(text: str) -> bool:
    """Whether *text* is a whole number with a minus sign (ASCII or U+2212)."""
    return text[:1] in ("-", "\u2212") and whole_number(text[1:].strip()) is not None


def _stops(data: FormData, players: Sequence[str]) -> set[int]:
    seats = set()
    for value in data.getlist("stop"):
        seat = whole_number(str(value), 3)
        if seat is not None and seat < len(players):
            seats.add(seat)
    return seats


async def _attempt(
    request: Request,
    service: TafelService,
    stored: StoredGame,
    token: str,
    entry: Entry,
    write: Callable[[], WriteResult],
    *,
    done: Callable[[WriteResult], str],
    page: Callable[..., HTMLResponse] | None = None,
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
        return board_page(request, fresh, token, conflict=True, status_code=409)
    except ForbiddenError:
        return bad_link(request, stored.id)
    except GameNotFoundError:
        return not_found(request)
    except ImplausibleRoundError as error:
        entry.implausible = implausible_details(language, error)
        return show(entry=entry, status_code=422)
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
        return show(entry=entry, status_code=422)
    return saved(request, stored.id, token, done(result))


def with_undo(address: str, result: WriteResult) -> str:
    """*address* with ``undo={version}``: the board then offers to take this write back."""
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


@router.post("/g/{game_id}/edit/stacks", response_model=None)
async def save_stacks(request: Request, editable: EditableGameDep, service: Service) -> Response:
    """T2: the stacks first; the caller's stack is 0."""
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    language = request_language(request)
    data = await request.form()
    players = loaded.game.players
    entry = Entry()
    stacks = read_counts(
        language,
        data,
        entry,
        players,
        "stack",
        [STACK_CARDS] * len(players),
        stops=_stops(data, players),
    )
    if stacks is None:
        return board_page(request, loaded, token, entry=entry, status_code=422)
    counts = stacks
    return await _attempt(
        request,
        service,
        loaded,
        token,
        entry,
        lambda: service.open_round(game_id, token, counts, expected_version=_version(data)),
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
        return board_page(request, loaded, token, conflict=True, status_code=409)
    entry = Entry()
    limits = [middle_limit(s) for s in pending.stacks]
    middle = read_counts(language, data, entry, game.players, "middle", limits)
    if middle is None:
        return board_page(request, loaded, token, entry=entry, status_code=422)
    counts = middle
    confirm = data.get("confirm") == "1"
    number = pending.number
    return await _attempt(
        request,
        service,
        loaded,
        token,
        entry,
        lambda: service.complete_round(
            game_id, token, number, counts, confirm=confirm, expected_version=_version(data)
        ),
        done=lambda result: with_undo(edit_base(game_id) + f"?saved={number}#status", result),
    )


def _round_page(
    request: Request,
    stored: StoredGame,
    token: str | None,
    number: int,
    *,
    entry: Entry | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    board = board_view(stored.id, stored.version, stored.game)
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
    return _round_page(request, stored, token, number)


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
    stacks = read_counts(
        language,
        data,
        entry,
        players,
        "stack",
        [STACK_CARDS] * len(players),
        stops=_stops(data, players),
    )
    middle: list[int] | None = None
    if stacks is not None:
        limits = [middle_limit(s) for s in stacks]
        middle = read_counts(language, data, entry, players, "middle", limits, optional=True)
    else:  # keep the typed middle counts in the form
        for seat in range(len(players)):
            entry.values[f"middle-{seat}"] = str(data.get(f"middle-{seat}") or "").strip()[:6]
    if entry.errors or stacks is None:
        return _round_page(request, loaded, token, number, entry=entry, status_code=422)
    confirm = data.get("confirm") == "1"
    counts, middle_counts = stacks, middle
    was_complete = loaded.game.rounds[number - 1].complete
    if was_complete and middle_counts is None:
        entry.errors.append(
            gettext(language, N_("A complete round keeps its middle counts: enter them too."))
        )
        return _round_page(request, loaded, token, number, entry=entry, status_code=422)
    return await _attempt(
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
            expected_version=_version(data),
        ),
        done=lambda result: with_undo(edit_base(game_id) + f"?corrected={number}#status", result),
        page=lambda **kw: _round_page(request, loaded, token, number, **kw),
    )


@router.post("/g/{game_id}/edit/rounds/{number}/remove", response_model=None)
async def remove_round(
    request: Request, editable: EditableGameDep, number: int, service: Service
) -> Response:
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    data = await request.form()
    return await _attempt(
        request,
        service,
        loaded,
        token,
        Entry(),
        lambda: service.remove_last_round(game_id, token, number, expected_version=_version(data)),
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
    version = _version(data)
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
        return board_page(request, fresh, token, undo_error=message, status_code=409)
    except TafelError as error:
        return board_page(
            request, loaded, token, undo_error=refusal(language, error), status_code=422
        )
    number = result.round.number if result.round else ""
    return saved(request, game_id, token, edit_base(game_id) + f"?undone={number}#status")


async def _end(request: Request, editable: EditableGame, service: Service, action: str) -> Response:
    loaded, game_id, token = editable.stored, editable.stored.id, editable.token
    data = await request.form()
    version = _version(data)
    write = service.finish if action == "finish" else service.score
    language = request_language(request)
    try:
        await run_in_threadpool(lambda: write(game_id, token, expected_version=version))
    except VersionConflictError:
        fresh = await load_game(service, game_id)
        if fresh is None:
            return not_found(request)
        return board_page(request, fresh, token, conflict=True, status_code=409)
    except TafelError as error:
        entry = Entry(end_errors=[refusal(language, error)])
        return board_page(request, loaded, token, entry=entry, status_code=422)
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
