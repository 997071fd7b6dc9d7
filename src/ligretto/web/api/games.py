"""``/api/games``: create, read, import, finish (Beenden) and score (Werten) (T1, T5)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse

from ligretto.store import CreatedGame
from ligretto.web.api.responses import game_body, versioned, write_answer
from ligretto.web.api.schemas import ERRORS, CreatedOut, GameIn, GameOut, WriteOut
from ligretto.web.deps import EditToken, ExpectedVersion, Service, absolute, edit_path

router = APIRouter(prefix="/api/games", tags=["games"])


def _created(request: Request, created: CreatedGame) -> JSONResponse:
    stored = created.stored
    body = game_body(request, stored)
    body["edit_token"] = created.edit_token
    body["edit_url"] = absolute(request, edit_path(stored.id, created.edit_token))
    response = versioned(body, stored.version, status_code=201)
    response.headers["Location"] = f"/api/games/{stored.id}"
    return response


@router.post("", status_code=201, response_model=CreatedOut, responses=ERRORS)
def create_game(body: GameIn, service: Service, request: Request) -> JSONResponse:
    """Create a game (T1). The answer holds the secret ``edit_token`` — only here."""
    created = service.create_game(
        body.players,
        mode=body.mode,
        target=body.target,
        rounds=body.rounds,
        deck=body.deck,
        row_storage=body.row_storage,
    )
    return _created(request, created)


@router.post("/import", status_code=201, response_model=CreatedOut, responses=ERRORS)
def import_game(
    data: Annotated[dict[str, Any], Body(description="a game from export.json")],
    service: Service,
    request: Request,
) -> JSONResponse:
    """Import an export as a new game (new id and token); every round is checked again."""
    return _created(request, service.import_game(data))


@router.get("/{game_id}", response_model=GameOut, responses=ERRORS)
def get_game(game_id: str, service: Service, request: Request) -> JSONResponse:
    """The whole game: every round, totals, ranking, status, winners. No token needed."""
    stored = service.get_game(game_id)
    return versioned(game_body(request, stored), stored.version)


@router.post("/{game_id}/finish", response_model=WriteOut, responses=ERRORS)
def finish_game(
    game_id: str,
    service: Service,
    token: EditToken,
    version: ExpectedVersion,
    request: Request,
) -> JSONResponse:
    """Beenden (T5): no more rounds. Also ends a target game early."""
    return write_answer(request, service.finish(game_id, token, expected_version=version))


@router.post("/{game_id}/score", response_model=WriteOut, responses=ERRORS)
def score_game(
    game_id: str,
    service: Service,
    token: EditToken,
    version: ExpectedVersion,
    request: Request,
) -> JSONResponse:
    """Werten (T5): the final ranking with the winner or winners (finishes first)."""
    return write_answer(request, service.score(game_id, token, expected_version=version))
