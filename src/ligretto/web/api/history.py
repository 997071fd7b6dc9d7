"""``/api/games/{id}/history``: every change, what and when (T6)."""

from __future__ import annotations

from fastapi import APIRouter

from ligretto.web.api.schemas import ERRORS, HistoryOut
from ligretto.web.deps import Service

router = APIRouter(prefix="/api/games/{game_id}", tags=["history"])


@router.get("/history", responses=ERRORS)
def history(game_id: str, service: Service) -> list[HistoryOut]:
    """The game's changes, oldest first. No token needed."""
    return [HistoryOut.model_validate(entry.as_dict()) for entry in service.history(game_id)]
