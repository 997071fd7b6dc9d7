"""An open WebSocket writes its messages with the server's own ``send``: the
handshake passes every middleware, the messages after it pass none."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar

from fastapi.testclient import TestClient
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ligretto.web.app import create_app
from ligretto.web.direct_send import SCOPE_KEY, DirectSend
from ligretto.web.settings import Settings


def test_a_websocket_scope_gets_the_servers_send_and_other_scopes_nothing() -> None:
    seen: list[Scope] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope)

    async def server_send(message: Message) -> None: ...

    async def receive() -> Message:
        return {}

    async def scenario() -> None:
        middleware = DirectSend(inner)
        websocket: Scope = {"type": "websocket", "path": "/play/X/ws"}
        await middleware(websocket, receive, server_send)
        await middleware({"type": "http", "path": "/"}, receive, server_send)
        assert SCOPE_KEY not in websocket  # the server's scope is not changed

    asyncio.run(scenario())
    assert seen[0][SCOPE_KEY] is server_send
    assert seen[0]["path"] == "/play/X/ws"
    assert SCOPE_KEY not in seen[1]


class SendLog:
    """Pure ASGI middleware that notes the type of every message sent through it."""

    types: ClassVar[list[str]] = []

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def noted(message: Message) -> None:
            SendLog.types.append(message["type"])
            await send(message)

        await self.app(scope, receive, noted)


def test_the_apps_table_socket_writes_past_every_middleware(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    # Just inside DirectSend (the outermost): where the other middlewares are.
    outermost: Any = app.user_middleware[0].cls
    assert outermost is DirectSend
    app.user_middleware.insert(1, Middleware(SendLog))
    SendLog.types = []
    with TestClient(app) as client:
        table: dict[str, Any] = client.post("/api/tables", json={"seats": 2, "name": "Anna"}).json()
        with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
            ws.send_json({"v": 1, "type": "join", "token": table["host_token"]})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome"
            assert ws.receive_json()["type"] in {"table", "view"}  # more messages follow
    assert "websocket.accept" in SendLog.types  # the handshake passed the middlewares
    assert "websocket.send" not in SendLog.types  # the messages did not
