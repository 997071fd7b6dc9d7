"""Limits on request bodies, their size and their pace, as pure ASGI middleware.

Without them a huge body to the JSON API or a page form is read whole into
memory, and a body sent a byte at a time holds its connection for ever.
Bad input gets a clear answer and changes nothing: an oversized request is
refused with 413 before any route runs (``Content-Length`` is checked up
front) or, for a chunked body, as soon as the bytes received pass the
limit; a body that arrives slower than :class:`BodyPace` allows is refused
with 408 — the route is then still reading its input, so nothing has been
written. ``/api`` answers in the API's error shape (``{"detail": ...,
"code": "too_large"}``, ``"too_slow"``), the pages with a message in the
reader's language. Every refusal closes the connection: the server reads
no more of the body (:mod:`ligretto.web.http_protocol` closes a connection
whose request was answered before it arrived whole).

WebSocket connections (online play) and bodiless methods (GET, HEAD:
every page, the exports and the server-sent events stream) pass through
untouched.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ligretto.metrics.series import REFUSALS
from ligretto.web.middleware_refusals import send_refusal

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


BODY_GRACE_SECONDS: Final = 10.0
"""Seconds a body may take before :data:`BODY_MIN_RATE` applies (a form on a weak signal)."""

BODY_MIN_RATE: Final = 1024
"""Bytes a second a body must arrive at, on average, after its first seconds."""


@dataclass(frozen=True, slots=True)
class BodyPace:
    """How fast a body must arrive: its first *n* bytes within ``grace + n / min_rate`` seconds.

    Counted from when the request's headers were complete. A phone on a
    weak signal sends a form within the grace; a 6 MiB import at the
    minimum rate may take an hour and a half. A body slower than that is
    no upload but a client holding a connection (docs/limits.md).
    """

    grace: float = BODY_GRACE_SECONDS
    min_rate: float = BODY_MIN_RATE

    def __post_init__(self) -> None:
        if not self.grace > 0 or not self.min_rate > 0:
            raise ValueError(f"the body's grace and rate must be positive, not {self}")

    def due(self, received: int) -> float:
        """Seconds after the headers by which more than *received* bytes must have come."""
        return self.grace + received / self.min_rate


LARGER_LIMITS: Mapping[tuple[str, str], int] = {
    ("POST", "/api/games/import"): IMPORT_LIMIT,
    ("POST", "/api/groups/import"): GROUP_IMPORT_LIMIT,
}

_BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


class _RefusedBodyError(Exception):
    """Raised from ``receive`` when a streamed body passes the limit or falls behind."""


def describe(limit: int) -> str:
    """``1 MiB``, ``6 MiB`` or a byte count for odd limits."""
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit} bytes"


class BodyLimits:
    """Refuse request bodies over *limit* bytes (per route: *larger*) with 413,
    and bodies slower than *pace* with 408."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = DEFAULT_LIMIT,
        larger: Mapping[tuple[str, str], int] = LARGER_LIMITS,
        pace: BodyPace | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger)
        self.pace = pace or BodyPace()

    def limit_for(self, method: str, path: str) -> int:
        return self.larger.get((method, path.rstrip("/") or "/"), self.limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _BODILESS:
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["method"], scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(scope, send, 413, limit, self.pace)  # the app never runs: nothing written
            return

        loop = asyncio.get_running_loop()
        began = loop.time()
        pace = self.pace
        received = 0
        refusal: int | None = None  # the status once the body is refused
        started = False
        complete = False

        async def counting_receive() -> Message:
            nonlocal received, refusal, complete
            if refusal is not None:
                raise _RefusedBodyError
            if complete:
                return await receive()  # only http.disconnect comes after the body
            try:
                async with asyncio.timeout_at(began + pace.due(received)):
                    message = await receive()
            except TimeoutError:
                refusal = 408
                raise _RefusedBodyError from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > limit:
                    refusal = 413
                    raise _RefusedBodyError
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refusal is not None:
                # The framework turned the failed read into its own answer
                # (FastAPI: 400 "error parsing the body"); ours replaces it.
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except Exception:
            # Whatever the failed read became on its way out (_RefusedBodyError
            # itself, or a parser's wrapper of it), the answer is ours.
            if refusal is None:
                raise
        if refusal is not None and not started:
            await _refuse(scope, send, refusal, limit, pace)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            # A malformed header is the server's to refuse; the count still applies.
            return int(text) if text.isdecimal() else None
    return None


#: Refusals counted for /metrics, by the limit's name.
_REFUSED: Final = {
    413: REFUSALS.labels(limit="body_too_large"),
    408: REFUSALS.labels(limit="body_too_slow"),
}


async def _refuse(scope: Scope, send: Send, status: int, limit: int, pace: BodyPace) -> None:
    _REFUSED[status].inc()
    if status == 413:
        detail = f"The request body is larger than {describe(limit)}; nothing was changed."
    else:
        detail = (
            f"The request body arrived too slowly (at least {pace.min_rate:g} bytes a second"
            f" after the first {pace.grace:g} s); nothing was changed."
        )
    await send_refusal(
        scope,
        send,
        status=status,
        code="too_large" if status == 413 else "too_slow",
        detail=detail,
        template="too_large.html" if status == 413 else "too_slow.html",
        context={"limit": describe(limit)},
        headers=[(b"connection", b"close")],  # the rest of the body is not read
    )
