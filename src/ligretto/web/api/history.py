"""``/api/games/{id}/history``: every change, what and when (T6)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ligretto.web.api.schemas import ERRORS, HistoryOut
from ligretto.web.deps import Service

router = APIRouter(prefix="/api/games/{game_id}", tags=["history"])


@router.get("/history", response_model=list[HistoryOut], responses=ERRORS)
def history(game_id: str, service: Service) -> JSONResponse:
    """The game's changes, oldest first. No token needed."""
    return JSONResponse([entry.as_dict() for entry in service.history(game_id)])
