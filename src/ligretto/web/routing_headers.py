"""Headers a proxy in front of several server processes routes by (``docs/deploy.md``).

- ``X-Ligretto-Process`` on every answer: which process gave it (the
  settings' ``process_id``), to see where a request landed.
- ``X-Ligretto-Table`` on the answer that opens an online table: its code.
  A table is run by the process that opened it, so the proxy
  (``deploy/haproxy.cfg``) remembers from this header where to send every
  later request under ``/play/{code}/…`` and ``/api/tables/{code}``.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-ligretto-process"
TABLE_HEADER = "X-Ligretto-Table"


def opened_table(code: str) -> dict[str, str]:
    """The headers of an answer that opened the table ``code``."""
    return {TABLE_HEADER: code}


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
