"""``/api/games/{id}/export.csv`` and ``export.json`` (re-import: ``POST /api/games/import``)."""

from __future__ import annotations

import csv
import io
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from ligretto.web.api.schemas import ERRORS
from ligretto.web.deps import Service

router = APIRouter(prefix="/api/games/{game_id}", tags=["export"])


_DECIMAL = re.compile(r"^-?\d+\.\d+$")


def spreadsheet_de(text: str) -> str:
    """The export as German (and most European) spreadsheets read it: ``;`` between
    fields and a decimal comma, so that a double click opens it in columns."""
    out = io.StringIO()
    table = csv.writer(out, delimiter=";", lineterminator="\r\n")
    for row in csv.reader(io.StringIO(text)):
        table.writerow([cell.replace(".", ",") if _DECIMAL.match(cell) else cell for cell in row])
    return out.getvalue()


@router.get("/export.csv", responses=ERRORS, response_class=Response)
def export_csv(
    game_id: str,
    service: Service,
    style: Annotated[
        Literal["rfc", "de"],
        Query(description="`rfc`: commas (RFC 4180); `de`: semicolons and decimal commas"),
    ] = "rfc",
) -> Response:
    """One line per round: caller, then stack, middle, points and total per player."""
    text = service.export_csv(game_id)
    suffix = ""
    if style == "de":
        text, suffix = spreadsheet_de(text), "-de"
    return Response(
        content=text.encode("utf-8-sig"),  # the BOM makes spreadsheets read UTF-8 names
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="tafel-{game_id}{suffix}.csv"'},
    )


# No response model: the export is the Tafel's exchange format
# (ligretto.tafel.exchange), answered as the domain wrote it, key for key.
@router.get("/export.json", responses=ERRORS, response_model=None)
def export_json(game_id: str, service: Service, response: Response) -> dict[str, Any]:
    """The whole game and its history; never the edit token."""
    data = service.export_json(game_id)
    response.headers["Content-Disposition"] = f'attachment; filename="tafel-{game_id}.json"'
    return data
