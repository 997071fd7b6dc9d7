"""``/api/games/{id}/export.csv`` and ``export.json`` (re-import: ``POST /api/games/import``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from ligretto.web.api.schemas import ERRORS
from ligretto.web.deps import Service

router = APIRouter(prefix="/api/games/{game_id}", tags=["export"])


@router.get("/export.csv", responses=ERRORS, response_class=Response)
def export_csv(game_id: str, service: Service) -> Response:
    """One line per round: caller, then stack, middle, points and total per player."""
    text = service.export_csv(game_id)
    return Response(
        content=text.encode("utf-8-sig"),  # the BOM makes spreadsheets read UTF-8 names
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="tafel-{game_id}.csv"'},
    )


# No response model: the export is the Tafel's exchange format
# (ligretto.tafel.exchange), answered as the domain wrote it, key for key.
@router.get("/export.json", responses=ERRORS, response_model=None)
def export_json(game_id: str, service: Service, response: Response) -> dict[str, Any]:
    """The whole game and its history; never the edit token."""
    data = service.export_json(game_id)
    response.headers["Content-Disposition"] = f'attachment; filename="tafel-{game_id}.json"'
    return data
