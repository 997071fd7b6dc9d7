"""Helpers that speak the live protocol in tests."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import WebSocketTestSession

from ligretto.live.table import TableSettings

FAST = TableSettings(countdown=0.0, between_rounds=0.05, away_after=0.2, bot_pace=0.01, seed=7)


def send(ws: WebSocketTestSession, type_: str, **fields: Any) -> None:
    ws.send_text(json.dumps({"v": 1, "type": type_, **fields}))


def receive_until(ws: WebSocketTestSession, *types: str, limit: int = 500) -> dict[str, Any]:
    """Read messages until one of ``types`` arrives; return it."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in types:
            return message
    raise AssertionError(f"no {types} within {limit} messages")
