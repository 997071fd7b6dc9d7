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

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ligretto.web.rendering import render, request_language

router = APIRouter()

RULES_PATH = "/rules"
ACCESSIBILITY_PATH = "/accessibility"
HELP_PAGES = {RULES_PATH: "rules", ACCESSIBILITY_PATH: "accessibility"}
"""Each help page's path and name: its templates' folder and the menu's ``current_page``."""


def help_template(page: str, language: str) -> str:
    """The template with help page *page* written in *language* (one of LANGUAGES)."""
    return f"{page}/{language}.html"


def help_page(page: str) -> Callable[[Request], Awaitable[HTMLResponse]]:
    """The endpoint of help page *page* (a value of HELP_PAGES), in the request's language."""

    async def serve(request: Request) -> HTMLResponse:
        return render(
            request,
            help_template(page, request_language(request)),
            {"current_page": page},
        )

    return serve


for _path, _page in HELP_PAGES.items():
    router.add_api_route(
        _path, help_page(_page), methods=["GET"], response_class=HTMLResponse, name=f"{_page}_page"
    )
