"""Writes to the edit pages answered only when they come from this site's own pages.

The edit pages of a game (``/g/{id}/edit…``) and of a group
(``/groups/{id}/edit…``) accept their token from an HttpOnly cookie, for
phones without JavaScript (:func:`ligretto.web.deps.set_token_cookie`).
``SameSite=Strict`` keeps another *site* from sending that cookie along, but
not a sibling subdomain or another port of the same host: to a browser those
are the same site. So every unsafe request (``POST``, ``PUT``, ``PATCH``,
``DELETE``) below those paths — exactly where the cookie travels — is refused
with 403 when the browser says it came from elsewhere:

- ``Sec-Fetch-Site: cross-site`` or ``same-site`` (every current browser
  sends it; ``same-origin`` and ``none``, a typed address, pass);
- an ``Origin`` that is not this server's own (scheme, host and port as the
  request reached the server: behind a trusted proxy uvicorn has already
  taken the scheme from ``X-Forwarded-Proto``, and the proxy keeps ``Host``).

A request without either header (an old browser, ``curl``) passes: the
token check still decides. ``Origin: null`` passes too, since it says
nothing about where a request came from: the pages' own forms send it,
because the pages ask for ``Referrer-Policy: no-referrer`` (the Fetch
standard then serialises a form's origin as ``null``); ``Sec-Fetch-Site``,
which current browsers send beside it, still tells a foreign form.

The JSON API under ``/api`` takes its token only from the
``Authorization`` header, never from a cookie, and is not checked here.
A refusal is a page in the reader's language and changes nothing: the app
never runs.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from ligretto.web.rendering import render

COOKIE_PATHS = re.compile(r"^/(?:g|groups)/[^/]+/edit(?:/|$)")
"""The paths the edit cookies are scoped to (``edit_base``, ``group_edit_base``)."""

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

FOREIGN_FETCH_SITES = frozenset({b"cross-site", b"same-site"})

_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _normalised(scheme: str, host: str) -> str:
    """``scheme://host:port`` in lower case, the default port of the scheme left out."""
    scheme = scheme.lower()
    host = host.strip().lower()
    name, colon, port = host.rpartition(":")
    # An IPv6 address keeps its colons inside brackets: "[::1]:8000".
    has_port = colon and port.isdecimal() and (":" not in name or name.endswith("]"))
    if has_port and port == _DEFAULT_PORTS.get(scheme):
        host = name
    return f"{scheme}://{host}"


def own_origin(scope: Scope) -> str:
    """This server's origin as the request reached it: its scheme and ``Host``."""
    scheme = str(scope.get("scheme", "http"))
    for name, value in scope["headers"]:
        if name == b"host":
            return _normalised(scheme, value.decode("latin-1"))
    server = scope.get("server")
    if server is None:
        return _normalised(scheme, "")
    host, port = server
    return _normalised(scheme, f"{host}:{port}" if port is not None else str(host))


def is_foreign(scope: Scope) -> bool:
    """Whether the browser says this request was sent from another origin."""
    origin: str | None = None
    for name, value in scope["headers"]:
        if name == b"sec-fetch-site" and value.strip().lower() in FOREIGN_FETCH_SITES:
            return True
        if name == b"origin":
            origin = value.decode("latin-1").strip()
    if origin is None or origin.lower() == "null":
        return False
    scheme, separator, host = origin.partition("://")
    if not separator or not host or "/" in host:
        return True  # not an origin at all: nothing vouches for it
    return _normalised(scheme, host) != own_origin(scope)


def refuses(scope: Scope) -> bool:
    """Whether this request is a cookie-authenticated write from elsewhere."""
    return (
        scope["type"] == "http"
        and scope["method"] in UNSAFE_METHODS
        and COOKIE_PATHS.match(scope["path"]) is not None
        and is_foreign(scope)
    )


class OriginCheck:
    """Refuse writes to the edit pages that another origin sent (see the module doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not refuses(scope):
            await self.app(scope, receive, send)
            return
        # The language switch leads to the start page: the refused URL takes
        # only POST, and no page should be reached from a foreign form.
        response = render(Request(scope), "foreign_form.html", {}, status_code=403, path="/")
        response.headers["Cache-Control"] = "no-store"
        await response(scope, receive, send)
