"""``X-Ligretto-Process`` on every answer: which server process gave it.

Behind a proxy with several processes this shows where a request landed
(all requests of one table code must land on the same one; see
``docs/deploy.md``). The value is the settings' ``process_id``.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-ligretto-process"


class ProcessHeader:
    """Pure ASGI middleware: add the header to HTTP answers and WebSocket handshakes."""

    def __init__(self, app: ASGIApp, process_id: str) -> None:
        self.app = app
        self.value = process_id.encode("latin-1", "replace")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_with_header(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers = list(message.get("headers", []))
                headers.append((HEADER, self.value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_header)
