"""The rules page: how to play Ligretto, for newcomers (docs/rules.md R1–R6, T1–T5).

The long text is one template per language (``templates/rules/<lang>.html``);
they fill the sections of ``templates/rules.html``, whose headings and the
drawing of the cards (``templates/rules/_drawing.html``) go through the
catalogues like every other page. The language is chosen as on every page:
``?lang=``, the cookie, then Accept-Language.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ligretto.web.pages.rendering import render, request_language

router = APIRouter()

RULES_PATH = "/rules"


def rules_template(language: str) -> str:
    """The template with the rules written in *language* (one of LANGUAGES)."""
    return f"rules/{language}.html"


@router.get(RULES_PATH, response_class=HTMLResponse)
async def rules_page(request: Request) -> HTMLResponse:
    return render(
        request,
        rules_template(request_language(request)),
        {"current_page": "rules"},
    )
