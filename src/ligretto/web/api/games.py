"""``/api/games``: create, read, import, finish (Beenden) and score (Werten) (T1, T5)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from ligretto.store import CreatedGame
from ligretto.web.api.errors import NOT_JSON, content_type_problem
from ligretto.web.api.responses import created_out, game_out, set_version
from ligretto.web.api.schemas import ERRORS, CreatedOut, ErrorOut, GameIn, GameOut, WriteOut
from ligretto.web.api.writes import GameWriter
from ligretto.web.deps import GameDep, Service
from ligretto.web.errors import ApiError

router = APIRouter(prefix="/api/games", tags=["games"])


def _created(request: Request, response: Response, created: CreatedGame) -> CreatedOut:
    stored = created.stored
    set_version(response, stored.version)
    response.headers["Location"] = f"/api/games/{stored.id}"
    return created_out(request, created)


@router.post("", status_code=201, responses=ERRORS)
def create_game(body: GameIn, service: Service, request: Request, response: Response) -> CreatedOut:
    """Create a game (T1). The answer holds the secret ``edit_token`` — only here."""
    created = service.create_game(
        body.players,
        mode=body.mode,
        target=body.target,
        rounds=body.rounds,
        deck=body.deck,
        row_storage=body.row_storage,
    )
    return _created(request, response, created)


class _DuplicateKeyError(ValueError):
    """A JSON object of the import names the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKeyError(key)
        data[key] = value
    return data


def parse_import(body: bytes) -> Any:
    """The import body as JSON; a key twice in one object is refused (422 ``bad_import``).

    Which of two ``"players"`` would count is up to the parser; a person
    who sent both meant something else, so neither is taken.
    """
    try:
        return json.loads(body, object_pairs_hook=_unique_keys)
    except _DuplicateKeyError as error:
        raise ApiError(
            422,
            "bad_import",
            f"the key {error.key[:40]!r} appears twice in one object of the export;"
            " nothing was imported",
            rule="T6",
            player=None,
        ) from None
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
        raise ApiError(422, "invalid_request", NOT_JSON) from None


_IMPORT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "a game from export.json",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@router.post("/import", status_code=201, responses=ERRORS, openapi_extra=_IMPORT_BODY)
async def import_game(service: Service, request: Request, response: Response) -> CreatedOut:
    """Import an export as a new game (new id and token); every round is checked again.

    The body is read as it was sent, so that a key given twice is refused
    rather than silently overwritten. Parsing and the domain's checks run
    before (and outside) the write transaction.
    """
    problem = content_type_problem(request.headers.get("content-type"))
    if problem:
        raise ApiError(422, "invalid_request", problem)
    data = await run_in_threadpool(parse_import, await request.body())
    created = await run_in_threadpool(service.import_game, data)
    return _created(request, response, created)


@router.get("/{game_id}", responses=ERRORS)
def get_game(stored: GameDep, request: Request, response: Response) -> GameOut:
    """The whole game: every round, totals, ranking, status, winners. No token needed."""
    set_version(response, stored.version)
    return game_out(request, stored)


@router.post("/{game_id}/finish", responses=ERRORS)
async def finish_game(w: GameWriter) -> WriteOut:
    """Beenden (T5): no more rounds. Also ends a target game early."""
    return await w.answer(lambda: w.service.finish(w.game_id, w.token, expected_version=w.version))


@router.post("/{game_id}/score", responses=ERRORS)
async def score_game(w: GameWriter) -> WriteOut:
    """Werten (T5): the final ranking with the winner or winners (finishes first)."""
    return await w.answer(lambda: w.service.score(w.game_id, w.token, expected_version=w.version))


_UNDO_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    428: {"model": ErrorOut, "description": "no If-Match: an Undo must name the version it undoes"},
}


@router.post("/{game_id}/undo", responses=_UNDO_ERRORS)
async def undo_last_change(w: GameWriter) -> WriteOut:
    """Undo (T6): take back the last save or removal of a round, exactly.

    Needs ``If-Match`` with the version that change made (its answer's
    ``ETag``): if anyone changed the game since, 409 and nothing changes.
    ``round`` is the round as the Undo left it (removed, pending again,
    back with its earlier counts, or back at its place).
    """
    version = w.version
    if version is None:
        raise ApiError(
            428,
            "precondition_required",
            "an Undo needs If-Match: the game version the change to undo made (its ETag)",
        )
    return await w.answer(lambda: w.service.undo_last(w.game_id, w.token, expected_version=version))
