"""A middleware's refusal, sent before any route runs: one shape for all of them.

The body limits (413, 408), the rate limits (429) and one client's share
(429) refuse a request outside the routes, so the routes' error handlers
never see it. Under ``/api`` the answer is the API's error shape
(``{"detail", "code"}``), elsewhere a page in the reader's language; it is
never cached, and a refusal that leaves a body unread closes the
connection. (The protocol's own refusals, before there is a request to
read a language from, are :mod:`ligretto.web.http_refusals`.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.requests import Request
from starlette.types import Scope, Send

from ligretto.web.rendering import render


async def send_refusal(
    scope: Scope,
    send: Send,
    *,
    status: int,
    code: str,
    detail: str,
    template: str,
    context: Mapping[str, object],
    headers: list[tuple[bytes, bytes]],
) -> None:
    """Answer *status*: ``{"detail": detail, "code": code}`` under ``/api``,
    else *template* drawn with *context*; *headers* go with either."""
    headers = list(headers)
    path: str = scope["path"]
    if path == "/api" or path.startswith("/api/"):
        body = json.dumps({"detail": detail, "code": code}).encode()
        headers.append((b"content-type", b"application/json"))
    else:
        # The language switch leads to the start page: the refused URL may
        # take only POST, and an edit link's token stays out of the links.
        page = render(Request(scope), template, dict(context), status_code=status, path="/")
        body = bytes(page.body)
        headers.append((b"content-type", b"text/html; charset=utf-8"))
        headers.append((b"cache-control", b"no-store"))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
