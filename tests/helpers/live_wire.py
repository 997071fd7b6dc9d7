"""Helpers that speak the live protocol in tests."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from ligretto.live.registry import TableRegistry
from ligretto.live.settings import TableSettings
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round

# Bots that think for ever: the round ends only when the stall guard, with
# no person at the table, settles it as stuck (R4) -- so a round is in
# progress for as long as a test looks at it.
STALLING = TableSettings(
    countdown=0.0, between_rounds=60.0, bot_pace=1000.0, stall_after=1.0, seed=5
)
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


STACK = ["Y10", "Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "G9"]


def race_position(players: int, seed: int, options: RuleOptions) -> Round:
    """Pile 0 is R1; both seats have R2 open in row position 0 (R3 race)."""
    seat = {"stack": STACK, "row": [["R2"], ["B3"], ["B4"], ["B5"], ["B6"]]}
    return Round.from_snapshot(
        {
            "players": players,
            "options": options.to_dict(),
            "seats": [seat, seat],
            "middle": [{"id": 0, "cards": [{"card": "R1", "owner": 1}]}],
        },
        seed=seed,
        fill_hand=True,
    )


RACE = dataclasses.replace(FAST, dealer=race_position)


def open_table(client: TestClient, **spec: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"seats": 2, "name": "Anna", **spec})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def join(ws: WebSocketTestSession, **fields: Any) -> dict[str, Any]:
    send(ws, "join", **fields)
    return receive_until(ws, "welcome", "refused")


def started_two_player_table(
    client: TestClient,
) -> tuple[dict[str, Any], WebSocketTestSession, WebSocketTestSession, dict[str, Any]]:
    table = open_table(client)
    url = f"/play/{table['code']}/ws"
    anna = client.websocket_connect(url).__enter__()
    ben = client.websocket_connect(url).__enter__()
    assert join(anna, token=table["host_token"])["seat"] == 0
    welcome_ben = join(ben, name="Ben")
    assert welcome_ben["seat"] == 1
    send(anna, "start")
    for ws in (anna, ben):
        receive_until(ws, "countdown")
        table_msg = receive_until(ws, "table")
        while table_msg["table"]["phase"] != "playing":
            table_msg = receive_until(ws, "table")
    return table, anna, ben, welcome_ben


def table_until(ws: WebSocketTestSession, done: Any) -> dict[str, Any]:
    """Read ``table`` messages until one satisfies ``done``; return its table."""
    for _ in range(2000):
        table: dict[str, Any] = receive_until(ws, "table")["table"]
        if done(table):
            return table
    raise AssertionError("the table never got there")


def tables_of(client: TestClient) -> TableRegistry:
    registry: TableRegistry = client.app.state.tables  # type: ignore[attr-defined]
    return registry


def code_of(response: Any) -> str:
    match = re.fullmatch(r"/play/(\w+)#t=[\w-]+", response.headers["location"])
    assert match, response.headers["location"]
    return match.group(1)


def closed_with(ws: WebSocketTestSession) -> int:
    """The close code that ends ``ws`` (after the messages before it)."""
    for _ in range(500):
        message = ws.receive()
        if message["type"] == "websocket.close":
            code: int = message["code"]
            return code
    raise AssertionError("the socket was not closed")
