"""Jinja2 templates in the reader's language (German, English, Norwegian Bokmål).

One template environment per language, each with its Babel catalogue
installed through ``jinja2.ext.i18n``: rendering needs no per-request
global state, so concurrent requests in different languages never mix.

Every part of the web app draws its pages here (the Tafel's pages, online
play, the lab, the middleware's refusal pages), so this module knows none of
them: a part whose templates need globals of their own per language (the
board's cells and rows) adds them with :func:`add_language_globals`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from ligretto.rules.result import points
from ligretto.tafel import limits
from ligretto.web.bot_words import bot_words
from ligretto.web.i18n import LANGUAGE_NAMES, LANGUAGES, choose_language, translations
from ligretto.web.text import format_points

WEB_DIR = Path(__file__).resolve().parent
TEMPLATE_DIR = WEB_DIR / "templates"
STATIC_DIR = WEB_DIR / "static"
STATIC_PREFIX = "/static"
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 3600


@cache
def _static_version(path: str) -> str:
    """A short hash of a static file, so browsers reload it after a change."""
    try:
        return hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"


def static_url(path: str) -> str:
    return f"{STATIC_PREFIX}/{path}?v={_static_version(path)}"


IMPORTED_MODULES = (
    "js/games.js",
    "js/forget.js",
    "js/tokens.js",
    "js/drafts.js",
    "js/entry_fields.js",
    "js/board_live.js",
    "js/offline.js",
    "js/offline/conflict.js",
    "js/offline/draw.js",
    "js/offline/entry.js",
    "js/offline/indicator.js",
    "js/offline/keep.js",
    "js/offline/state.js",
    "js/offline/sync.js",
    "js/offline/table.js",
    "js/offline/templates.js",
    "js/offline/texts.js",
    "js/offline/view.js",
    "js/outbox.js",
    "js/rules.js",
    "js/undo.js",
    "play/page.js",
    "play/state.js",
    "play/socket.js",
    "play/board.js",
    "play/cards.js",
    "play/lobby.js",
    "play/input.js",
    "play/scores.js",
    "play/device.js",
    "play/reader.js",
    "play/reader_moves.js",
    "play/announcer.js",
    "play/rating.js",
    "play/redraw.js",
)
"""Modules that other modules import (keep in step with the imports: a browser
test checks that every script loads versioned)."""


@cache
def import_map() -> str:
    """The pages' import map: each imported module at its versioned address.

    The entry scripts get their version from :func:`static_url`; the map gives
    the modules they import theirs, so after an update a browser never runs a
    new entry with an old cached module. The text is the same on every page,
    so the Content-Security-Policy allows it by its hash.
    """
    imports = {static_url(path).split("?")[0]: static_url(path) for path in IMPORTED_MODULES}
    return json.dumps({"imports": imports}, separators=(",", ":"), sort_keys=True)


LanguageGlobals = Callable[[str], Mapping[str, object]]
"""Makes a part's template globals for one language."""

_LANGUAGE_GLOBALS: list[LanguageGlobals] = []


def add_language_globals(make: LanguageGlobals) -> None:
    """Give every environment the globals ``make(language)`` returns.

    Called by the part that owns them, when it is imported (before its
    templates are drawn); environments made before are made anew."""
    _LANGUAGE_GLOBALS.append(make)
    environment.cache_clear()


@cache
def environment(language: str) -> Environment:
    """The template environment speaking *language*."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates are part of the installed package: they change with a
        # new release, never while it runs. Checking their files for changes
        # cost a stat() per include, hundreds for a long game's board.
        auto_reload=False,
    )
    # Same whitespace policy as the extraction (babel.cfg: trimmed = true).
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.filters["points"] = format_points
    for make in _LANGUAGE_GLOBALS:
        env.globals.update(make(language))
    env.globals["static_url"] = static_url
    env.globals["import_map"] = Markup(import_map())  # our own URLs, no "<" in them
    # T1–T3 limits for the forms' min/max/maxlength: written once, in tafel.limits.
    env.globals["limits"] = limits
    # The bots' names in this language, as /play and the lab show them.
    env.globals["bot_words"] = bot_words(language)
    # R5's points per stack card for the point previews (board.js), from rules.result.
    env.globals["stack_penalty"] = -points(0, 1)
    # An image, not the emoji: not every phone's font has a trophy.
    env.globals["trophy"] = Markup(
        f'<img class="trophy" src="{static_url("icons/trophy.svg")}" alt="" width="24" height="24">'
    )
    return env


def request_language(request: Request) -> str:
    """``?lang=`` first, then the cookie, then the browser's Accept-Language."""
    return choose_language(
        request.query_params.get("lang"),
        request.cookies.get(LANGUAGE_COOKIE),
        request.headers.get("accept-language"),
    )


def language_links(request: Request, path: str | None = None) -> list[tuple[str, str, str]]:
    """(code, name, url) for the language switch: the same page in each language."""
    target = path or request.url.path
    links = []
    for code in LANGUAGES:
        query = dict(request.query_params) if path is None else {}
        query["lang"] = code
        links.append((code, LANGUAGE_NAMES[code], f"{target}?{urlencode(query)}"))
    return links


def render(
    request: Request,
    template: str,
    context: Mapping[str, Any],
    *,
    status_code: int = 200,
    path: str | None = None,
) -> HTMLResponse:
    """Render *template* in the request's language.

    *path* is the page to switch languages on when the response answers a
    form post (its URL only takes POST). An explicit ``?lang=`` is kept in
    a cookie so the next pages speak it too.
    """
    language = request_language(request)
    html = (
        environment(language)
        .get_template(template)
        .render(
            lang=language,
            language_links=language_links(request, path),
            **context,
        )
    )
    response = HTMLResponse(html, status_code=status_code)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(
            LANGUAGE_COOKIE,
            language,
            max_age=LANGUAGE_COOKIE_MAX_AGE,
            samesite="lax",
            httponly=True,
        )
    # Pages change with every round; a phone must never show a stale board.
    response.headers["Cache-Control"] = "no-store"
    return response
