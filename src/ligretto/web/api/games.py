"""``/api/games``: create, read, import, finish (Beenden) and score (Werten) (T1, T5)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response

from ligretto.store import CreatedGame
from ligretto.web.api.responses import created_out, game_out, set_version, write_out
from ligretto.web.api.schemas import ERRORS, CreatedOut, GameIn, GameOut, WriteOut
from ligretto.web.deps import EditToken, ExpectedVersion, GameDep, Service

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


@router.post("/import", status_code=201, responses=ERRORS)
def import_game(
    data: Annotated[dict[str, Any], Body(description="a game from export.json")],
    service: Service,
    request: Request,
    response: Response,
) -> CreatedOut:
    """Import an export as a new game (new id and token); every round is checked again."""
    return _created(request, response, service.import_game(data))


@router.get("/{game_id}", responses=ERRORS)
def get_game(stored: GameDep, request: Request, response: Response) -> GameOut:
    """The whole game: every round, totals, ranking, status, winners. No token needed."""
    set_version(response, stored.version)
    return game_out(request, stored)


@router.post("/{game_id}/finish", responses=ERRORS)
def finish_game(
    game_id: str,
    service: Service,
    token: EditToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> WriteOut:
    """Beenden (T5): no more rounds. Also ends a target game early."""
    result = service.finish(game_id, token, expected_version=version)
    set_version(response, result.stored.version)
    return write_out(request, result)


@router.post("/{game_id}/score", responses=ERRORS)
def score_game(
    game_id: str,
    service: Service,
    token: EditToken,
    version: ExpectedVersion,
    request: Request,
    response: Response,
) -> WriteOut:
    """Werten (T5): the final ranking with the winner or winners (finishes first)."""
    result = service.score(game_id, token, expected_version=version)
    set_version(response, result.stored.version)
    return write_out(request, result)
