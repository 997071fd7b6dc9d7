"""A table's messages written as frames by the WebSocket protocol itself
(``ligretto.web.ws_protocol``): the same frames the websockets library
writes, and the ASGI path wherever a frame must wait or be compressed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.frames import Frame, Opcode
from websockets.sync.client import ClientConnection, connect

from ligretto.serve_process import ServerThread
from ligretto.web.app import create_app
from ligretto.web.settings import Settings
from ligretto.web.ws_protocol import (
    TableWebSocketProtocol,
    masked_text_payload,
    text_frame_header,
)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_frame_is_the_frame_the_websockets_library_writes(size: int) -> None:
    payload = ("é" * size).encode()[:size]
    expected = Frame(Opcode.TEXT, payload).serialize(mask=False)
    assert text_frame_header(len(payload)) + payload == expected


def _masked(opcode: Opcode, payload: bytes, *, fin: bool = True) -> bytes:
    return Frame(opcode, payload, fin=fin).serialize(mask=True)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 2048, 8192])
def test_one_masked_text_frame_is_read_as_the_library_reads_it(size: int) -> None:
    payload = (b'{"v":1,"type":"ping"}' * 500)[:size]
    assert masked_text_payload(_masked(Opcode.TEXT, payload), 8192) == payload


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(_masked(Opcode.BINARY, b"{}"), id="binary"),
        pytest.param(_masked(Opcode.PING, b"hi"), id="control"),
        pytest.param(_masked(Opcode.TEXT, b"{}", fin=False), id="fragment"),
        pytest.param(Frame(Opcode.TEXT, b"{}").serialize(mask=False), id="unmasked"),
        pytest.param(_masked(Opcode.TEXT, b"x" * 8193), id="over-the-limit"),
        pytest.param(_masked(Opcode.TEXT, b"x" * 70000), id="eight-byte-length"),
        pytest.param(_masked(Opcode.TEXT, b"{}") * 2, id="two-frames"),
        pytest.param(_masked(Opcode.TEXT, b"x" * 300)[:-1], id="part-of-one"),
        pytest.param(b"\x81", id="a-byte"),
    ],
)
def test_anything_else_is_left_to_the_librarys_parser(data: bytes) -> None:
    assert masked_text_payload(data, 8192) is None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    thread = ServerThread(create_app(Settings(data_dir=tmp_path, database_url=None)))
    base = thread.start()
    try:
        yield base
    finally:
        thread.stop()


@pytest.fixture
def direct_writes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each direct write answered: True written, False declined."""
    answers: list[bool] = []
    write_text = TableWebSocketProtocol.write_text

    def counted(self: TableWebSocketProtocol, payload: bytes) -> bool:
        answers.append(write_text(self, payload))
        return answers[-1]

    monkeypatch.setattr(TableWebSocketProtocol, "write_text", counted)
    return answers


def _receive(ws: ClientConnection, *types: str) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] in types:
            return message
    raise AssertionError(f"no {types}")


def _join_and_ping(base: str, compression: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    table = httpx.post(f"{base}/api/tables", json={"seats": 2}, timeout=30).json()
    with connect(table["ws_url"], compression=compression) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "name": "Anna"}))
        welcome = _receive(ws, "welcome")
        ws.send(json.dumps({"v": 1, "type": "move", "action": "turn", "ref": 3}))
        refused = _receive(ws, "refused")
    return welcome, refused


def test_messages_go_as_plain_frames_written_by_the_protocol(
    server: str, direct_writes: list[bool]
) -> None:
    welcome, refused = _join_and_ping(server, compression=None)
    assert welcome["seat"] == 0 and welcome["table"]["seats"][0]["name"] == "Anna"
    assert len(json.dumps(welcome)) > 125  # a two-byte length; the refusal may be short
    assert (refused["code"], refused["ref"]) == ("not_started", 3)
    assert direct_writes and all(direct_writes)


def test_a_compressed_connection_takes_the_asgi_path(
    server: str, direct_writes: list[bool]
) -> None:
    welcome, refused = _join_and_ping(server, compression="deflate")
    assert welcome["seat"] == 0 and welcome["table"]["seats"][0]["name"] == "Anna"
    assert (refused["code"], refused["ref"]) == ("not_started", 3)
    assert direct_writes and not any(direct_writes)  # per-message deflate: declined


def test_frames_split_or_joined_by_the_network_are_read_all_the_same(server: str) -> None:
    table = httpx.post(f"{server}/api/tables", json={"seats": 2}, timeout=30).json()
    ping = [
        _masked(Opcode.TEXT, json.dumps({"v": 1, "type": "ping", "t": t}).encode())
        for t in (1, 2, 3)
    ]
    with connect(table["ws_url"], compression=None) as ws:
        ws.socket.sendall(ping[0] + ping[1])  # two frames in one read
        ws.socket.sendall(ping[2][:5])  # one frame over two reads
        assert json.loads(ws.recv(timeout=30))["t"] == 1
        assert json.loads(ws.recv(timeout=30))["t"] == 2
        ws.socket.sendall(ping[2][5:])
        assert json.loads(ws.recv(timeout=30))["t"] == 3


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The client messages uvicorn queued for the app (the rest went to the reader)."""
    kinds: list[str] = []
    queue_it = TableWebSocketProtocol.send_receive_event_to_app

    def counted(self: TableWebSocketProtocol) -> None:
        kinds.append(self.curr_msg_data_type)
        queue_it(self)

    monkeypatch.setattr(TableWebSocketProtocol, "send_receive_event_to_app", counted)
    return kinds


def test_a_whole_message_goes_to_the_table_without_the_apps_queue(
    server: str, queued: list[str]
) -> None:
    welcome, refused = _join_and_ping(server, compression=None)
    assert welcome["seat"] == 0 and (refused["code"], refused["ref"]) == ("not_started", 3)
    assert queued == []  # join and move were read straight to the table


def test_a_compressed_connections_messages_are_queued_as_uvicorn_does(
    server: str, queued: list[str]
) -> None:
    welcome, refused = _join_and_ping(server, compression="deflate")
    assert welcome["seat"] == 0 and (refused["code"], refused["ref"]) == ("not_started", 3)
    assert queued == ["text", "text"]


def test_a_queued_message_is_still_taken_before_a_later_whole_one(
    server: str, queued: list[str]
) -> None:
    table = httpx.post(f"{server}/api/tables", json={"seats": 2}, timeout=30).json()
    first = json.dumps({"v": 1, "type": "ping", "t": 1}).encode()
    with connect(table["ws_url"], compression=None) as ws:
        for t in range(2, 9):  # 21 messages: under the burst of 30
            # A fragmented message takes the queue (and reading pauses); the whole
            # one after it, in the same read and in the next, must not overtake it.
            head = Frame(Opcode.TEXT, first[:7], fin=False).serialize(mask=True)
            tail = Frame(Opcode.CONT, first[7:]).serialize(mask=True)
            ping = _masked(Opcode.TEXT, json.dumps({"v": 1, "type": "ping", "t": t}).encode())
            ws.socket.sendall(head + tail + ping)
            ws.socket.sendall(ping)
            assert [json.loads(ws.recv(timeout=30))["t"] for _ in range(3)] == [1, t, t]
    assert queued.count("text") >= 7
