"""A limit on the size of request bodies, as pure ASGI middleware.

Without it a huge body to the JSON API or a page form is read whole into
memory. Bad input gets a clear answer and changes nothing: an oversized
request is refused with 413 before any route runs (``Content-Length`` is
checked up front) or, for a chunked body, as soon as the bytes received
pass the limit — the route is then still reading its input, so nothing has
been written. ``/api`` answers in the API's error shape
(``{"detail": ..., "code": "too_large"}``), the pages with a message in
the reader's language.

WebSocket connections (online play) and bodiless methods (GET, HEAD:
every page, the exports and the server-sent events stream) pass through
untouched.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ligretto.web.pages.rendering import render

MIB = 1024 * 1024
DEFAULT_LIMIT = 1 * MIB
"""Every form and API body: a 16-player round is a few hundred bytes."""

IMPORT_LIMIT = 6 * MIB
"""``POST /api/games/import``: the largest game an export can hold, with room.

A game has at most 1000 rounds (``ligretto.tafel.limits.MAX_ROUNDS``) and
16 players. Its export (every round with counts, points and totals by name,
plus a history of two entries per round) measures 1.1 MiB with short names
and 4.6 MiB with 16 names of the longest length (40 characters, T1) in
Latin letters; 6 MiB leaves a third more for corrections in the history and
accented letters. Past that is not a game but a load on the server: a body
is parsed into objects several times its size. (Exports of that length
whose 16 names are all 40 characters of a script that takes three bytes a
letter, CJK, reach 11.6 MiB and are refused.)"""

GROUP_IMPORT_LIMIT = 32 * MIB
"""``POST /api/groups/import``: a group's export holds all its games.

A game of ten rounds of six players exports in about 4 KiB, so a group of
a thousand such evenings is about 4 MiB; 32 MiB leaves room for long
games and long names, and stays far below what would load the server."""

GROUP_IMPORT_VALUES = 2_500_000
"""``POST /api/groups/import``: the most JSON values a group's export may hold.

Parsed, a JSON text takes several times its size in memory, and how many
times depends on what it holds: 32 MiB of empty lists would take 700 MB.
Before parsing, the body's values are counted (a comma each, four for each
object or list, which weigh more) and a body over this bound is refused with
413. A round of a six-player game counts about 50 (eight players: 58), so
the bound admits the 50,000 rounds of ``ligretto.tafel.limits.MAX_GROUP_ROUNDS``
for tables of up to six and bounds what any body can cost (docs/limits.md)."""


def json_values(body: bytes) -> int:
    """The weight of a JSON text's values, counted without parsing (an upper bound).

    >>> json_values(b'{"a":[1,2],"b":{}}')
    14
    """
    return body.count(b",") + 4 * (body.count(b"{") + body.count(b"["))


LARGER_LIMITS: Mapping[tuple[str, str], int] = {
    ("POST", "/api/games/import"): IMPORT_LIMIT,
    ("POST", "/api/groups/import"): GROUP_IMPORT_LIMIT,
}

_BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


class _TooLargeError(Exception):
    """Raised from ``receive`` when a streamed body passes the limit."""


def describe(limit: int) -> str:
    """``1 MiB``, ``6 MiB`` or a byte count for odd limits."""
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit} bytes"


class BodySizeLimit:
    """Refuse request bodies over *limit* bytes (per route: *larger*) with 413."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = DEFAULT_LIMIT,
        larger: Mapping[tuple[str, str], int] = LARGER_LIMITS,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger)

    def limit_for(self, method: str, path: str) -> int:
        return self.larger.get((method, path.rstrip("/") or "/"), self.limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _BODILESS:
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["method"], scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(scope, send, limit)  # the app never runs: nothing written
            return

        received = 0
        exceeded = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, exceeded
            if exceeded:
                raise _TooLargeError
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise _TooLargeError
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if exceeded:
                # The framework turned the failed read into its own answer
                # (FastAPI: 400 "error parsing the body"); ours replaces it.
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except Exception:
            # Whatever the failed read became on its way out (_TooLargeError
            # itself, or a parser's wrapper of it), the answer is ours.
            if not exceeded:
                raise
        if exceeded and not started:
            await _refuse(scope, send, limit)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            # A malformed header is the server's to refuse; the count still applies.
            return int(text) if text.isdecimal() else None
    return None


async def _refuse(scope: Scope, send: Send, limit: int) -> None:
    headers = [(b"connection", b"close")]  # the rest of the body is not read
    path: str = scope["path"]
    if path == "/api" or path.startswith("/api/"):
        body = json.dumps(
            {
                "detail": f"The request body is larger than {describe(limit)};"
                " nothing was changed.",
                "code": "too_large",
            }
        ).encode()
        headers.append((b"content-type", b"application/json"))
    else:
        body = _page(scope, limit)
        headers.append((b"content-type", b"text/html; charset=utf-8"))
        headers.append((b"cache-control", b"no-store"))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _page(scope: Scope, limit: int) -> bytes:
    # The language switch leads to the start page: the refused URL may take
    # only POST, and an edit link's token stays out of the links.
    response = render(
        Request(scope), "too_large.html", {"limit": describe(limit)}, status_code=413, path="/"
    )
    return bytes(response.body)
