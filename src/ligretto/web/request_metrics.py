"""HTTP requests counted by route template, method and status (ASGI middleware).

The route is the template the request matched (``/g/{game_id}/edit``), read
from the scope after the app has answered, never the path itself: a game's
id, a table's code or an old edit link's token never becomes a label. A
request that matched no route counts as ``none``, a method outside the
usual ones as ``other``; a refusal by a middleware before any route ran
counts as ``none`` with its status. An exception that reaches this
middleware is counted as 500 (Starlette's outermost layer answers it so).
WebSockets are not counted here: their seats are (``ligretto_seats``).
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ligretto.metrics.series import HTTP_REQUESTS

NO_ROUTE: Final = "none"

METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_of(scope: Scope) -> str:
    """The template of the route that answered (a mount's own path), or ``none``."""
    path = getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) and path else NO_ROUTE


class RequestMetrics:
    """Pure ASGI middleware, added outermost but for :class:`DirectSend`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500

        async def noting_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting_send)
        finally:
            method = scope["method"]
            HTTP_REQUESTS.labels(
                route_of(scope), method if method in METHODS else "other", str(status)
            ).inc()
