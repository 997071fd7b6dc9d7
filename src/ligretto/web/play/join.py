"""Joining a table: by the code a person types, and the QR code of the
table's join link (shown large in the lobby)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ligretto.live.registry import TableCapError, TableUnreachableError, typed_code
from ligretto.store.live_tables import TableElsewhereError
from ligretto.web.play.app_tables import registry_of
from ligretto.web.public_url import absolute
from ligretto.web.qr import qr_svg_document
from ligretto.web.rendering import render, request_language
from ligretto.web.text import N_, gettext

router = APIRouter(include_in_schema=False)


@router.get("/play/join", response_model=None)
async def join_by_code(request: Request, code: str = "") -> Response:
    """Join with a code: to the table the typed code names, or back to the
    form with what is wrong.  Forgiving (``typed_code``); changes nothing.

    Declared before ``/play/{code}``, which would take "join" for a code.
    """
    language = request_language(request)
    typed = code[:32]
    found = typed_code(typed)
    if found is None:
        error = gettext(
            language,
            N_("A table code has six letters and digits, e.g. %(code)s. Check it and try again."),
            code="8DZAT9",  # an example in the alphabet of the codes
        )
        return _join_page(request, typed, error)
    registry = registry_of(request.app)
    try:
        known = await registry.find(found) is not None
    except (TableElsewhereError, TableCapError, TableUnreachableError):
        known = True  # busy or served elsewhere: the table page says when to come back
    # A closed table's own page says why it closed.
    if not known and await registry.closed_reason(found) is None:
        error = gettext(
            language,
            N_("There is no table with the code %(code)s on this server. It may have ended."),
            code=found,
        )
        return _join_page(request, typed, error)
    return RedirectResponse(f"/play/{found}", status_code=303)


def _join_page(request: Request, typed: str, error: str) -> HTMLResponse:
    return render(
        request, "play/join.html", {"typed": typed, "error": error}, status_code=404, path="/play"
    )


@router.get("/play/{code}/qr.svg", response_model=None)
async def join_qr(request: Request, code: str) -> Response:
    """The QR code of the table's join link, shown large in the lobby (a
    friend across the room scans it).  Only for a table this process has:
    its lobby is open, so the table is (404 otherwise, and nothing drawn).
    Drawn once per table (``qr_svg_document`` keeps it), from the server's
    public address, never from the request's ``Host``."""
    if typed_code(code) != code or registry_of(request.app).get(code) is None:
        return Response(status_code=404)
    svg = qr_svg_document(absolute(request, f"/play/{code}"))
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"}
    )
