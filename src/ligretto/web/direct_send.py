"""A WebSocket's messages written with the server's own ``send``.

Every middleware that wraps ``send`` (the process header, Starlette's
exception handling) looks only at the handshake, yet each message of an
open WebSocket passed through all of them: a coroutine per layer per
message, and a table of four sends four messages a move.  This outermost
middleware hands the server's ``send`` to the endpoint in the scope; the
endpoint still accepts and closes through Starlette (the handshake passes
every layer) and writes ``websocket.send`` messages with it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

#: The scope key under which a WebSocket's endpoint finds the server's ``send``.
SCOPE_KEY = "ligretto.direct_send"


class DirectSend:
    """Pure ASGI middleware, added last (outermost)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope = {**scope, SCOPE_KEY: send}  # a copy: the server's scope stays as it was
        await self.app(scope, receive, send)
