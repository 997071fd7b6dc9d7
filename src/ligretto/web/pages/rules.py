"""The help pages: how to play Ligretto (docs/rules.md R1–R6, T1–T5), and its accessibility.

The long text is one template per language (``templates/rules/<lang>.html``);
they fill the sections of ``templates/rules.html``, whose headings and the
drawing of the cards (``templates/rules/_drawing.html``) go through the
catalogues like every other page. The language is chosen as on every page:
``?lang=``, the cookie, then Accept-Language.

The accessibility page (``/accessibility``) is built the same way: its text
in ``templates/accessibility/<lang>.html``, its headings, sample cards and
the table of keys in ``templates/accessibility.html`` (the keys come from
``templates/play/_keys.html``, the table's own list of keys).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ligretto.web.pages.rendering import render, request_language

router = APIRouter()

RULES_PATH = "/rules"
ACCESSIBILITY_PATH = "/accessibility"


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


def accessibility_template(language: str) -> str:
    """The template with the accessibility page written in *language* (one of LANGUAGES)."""
    return f"accessibility/{language}.html"


@router.get(ACCESSIBILITY_PATH, response_class=HTMLResponse)
async def accessibility_page(request: Request) -> HTMLResponse:
    return render(
        request,
        accessibility_template(request_language(request)),
        {"current_page": "accessibility"},
    )
