"""``/api/games/{id}/export.csv`` and ``export.json`` (re-import: ``POST /api/games/import``)."""

from __future__ import annotations

import csv
import io
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response

from ligretto.web.api.schemas import ERRORS
from ligretto.web.deps import Service
from ligretto.web.i18n import LANGUAGES, choose_language, translations

router = APIRouter(prefix="/api/games/{game_id}", tags=["export"])


_DECIMAL = re.compile(r"^-?\d+\.\d+$")


def N_(message: str) -> str:  # noqa: N802 - gettext's conventional marker name
    """Mark *message* for extraction (babel.cfg); it is translated where written."""
    return message


GAME_WORDS = {"round": N_("Round"), "caller": N_("Ligretto Stop called by")}
"""The regional game export's first two columns, in words."""

SEAT_WORDS = (N_("Stack"), N_("Middle"), N_("Points"), N_("Total"))
"""The words after the name in each player's four columns (stack, middle, points, total)."""

SEAT_SUFFIXES = (" stack", " middle", " points", " total")
"""The same columns' endings in the plain export (``Anna stack`` …)."""

STYLE_QUERY = Query(
    description="`rfc`: commas and English headers (RFC 4180), for programs; "
    "`regional`: semicolons, decimal commas and headers in `lang`, for spreadsheets "
    "(`de`: the same, German by default)"
)
LANG_QUERY = Query(description="The regional export's language (de, en, nb); else the reader's")


def export_language(request: Request, style: str, lang: str | None) -> str:
    """The regional export's language: ``lang``, else German for ``style=de``, else the reader's."""
    if lang in LANGUAGES:
        return lang
    if style == "de":
        return "de"
    return choose_language(
        None, request.cookies.get("lang"), request.headers.get("accept-language")
    )


def game_header(row: list[str], language: str) -> list[str]:
    """The plain game export's header row in *language* (``Anna Stapel`` …)."""
    words = translations(language)
    header = [words.gettext(GAME_WORDS["round"]), words.gettext(GAME_WORDS["caller"])]
    for index, cell in enumerate(row[2:]):
        suffix, word = SEAT_SUFFIXES[index % 4], SEAT_WORDS[index % 4]
        name = cell.removesuffix(suffix)
        header.append(f"{name} {words.gettext(word)}")
    return header


def spreadsheet(text: str, header: list[str] | None = None) -> str:
    """The export as most European spreadsheets read it: ``;`` between fields and a
    decimal comma, so that a double click opens it in columns; *header* replaces
    the first row (the column names in the reader's language)."""
    out = io.StringIO()
    table = csv.writer(out, delimiter=";", lineterminator="\r\n")
    for index, row in enumerate(csv.reader(io.StringIO(text))):
        if index == 0 and header is not None:
            row = header
        table.writerow([cell.replace(".", ",") if _DECIMAL.match(cell) else cell for cell in row])
    return out.getvalue()


@router.get("/export.csv", responses=ERRORS, response_class=Response)
def export_csv(
    game_id: str,
    service: Service,
    request: Request,
    style: Annotated[Literal["rfc", "regional", "de"], STYLE_QUERY] = "rfc",
    lang: Annotated[str | None, LANG_QUERY] = None,
) -> Response:
    """One line per round: caller, then stack, middle, points and total per player."""
    text = service.export_csv(game_id)
    suffix = ""
    if style != "rfc":
        language = export_language(request, style, lang)
        header = next(csv.reader(io.StringIO(text)))
        text, suffix = spreadsheet(text, game_header(header, language)), f"-{language}"
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
