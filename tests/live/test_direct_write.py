"""Messages are written in the table's own step while the socket keeps up,
and queued, in order, behind a write that has to wait (a slow reader).

Each test runs twice: writing through Starlette's ``send_text``, and with
the server's own ``send`` that the app hands over in the scope
(:mod:`ligretto.web.direct_send`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ligretto.live.connection import OUTBOX_SIZE, Connection
from ligretto.web.direct_send import SCOPE_KEY
from ligretto.web.play.table_socket import _pump, _writer


class FakeSocket:
    """Like uvicorn's: a send waits while the transport's buffer is full."""

    def __init__(self, direct: bool) -> None:
        self.sent: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed: int | None = None
        self.broken = False
        self.direct = direct
        self.scope: dict[str, Any] = {SCOPE_KEY: self._server_send} if direct else {}

    async def _server_send(self, message: dict[str, Any]) -> None:
        assert message["type"] == "websocket.send"
        await self._write(message["text"])

    async def send_text(self, text: str) -> None:
        assert not self.direct, "a message went through Starlette"
        await self._write(text)

    async def _write(self, text: str) -> None:
        await self.writable.wait()
        if self.broken:
            raise OSError("connection reset")
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


DIRECT = False


@pytest.fixture(autouse=True, params=["starlette", "direct"])
def _path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(globals(), "DIRECT", request.param == "direct")


def _connect() -> tuple[FakeSocket, Connection, asyncio.Task[None]]:
    socket = FakeSocket(DIRECT)
    conn = Connection()
    ws: Any = socket
    conn.writer = _writer(ws, conn)
    return socket, conn, asyncio.get_running_loop().create_task(_pump(ws, conn))


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def test_a_message_is_written_before_the_table_moves_on() -> None:
    async def scenario() -> None:
        socket, conn, pump = _connect()
        conn.send("one")
        conn.send("two")
        assert socket.sent == ["one", "two"]  # no await in between: written at once
        assert conn.outbox.empty()
        pump.cancel()

    asyncio.run(scenario())


def test_behind_a_write_that_waits_everything_queues_in_order() -> None:
    async def scenario() -> None:
        socket, conn, pump = _connect()
        conn.send("a")
        socket.writable.clear()  # the client stopped reading
        for text in ("b", "c", "d"):
            conn.send(text)
        await _settle()
        assert socket.sent == ["a"]
        assert conn.sending  # the pump goes on with "b"...
        waiting = [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
        assert waiting == ["c", "d"]  # ...and "c" and "d" wait behind it
        for item in waiting:
            conn.outbox.put_nowait(item)
        socket.writable.set()  # it reads again
        await _settle()
        assert socket.sent == ["a", "b", "c", "d"]
        conn.send("e")
        assert socket.sent[-1] == "e"  # caught up: written at once again
        pump.cancel()

    asyncio.run(scenario())


def test_a_client_that_never_reads_again_is_dropped_not_waited_for() -> None:
    async def scenario() -> None:
        socket, conn, pump = _connect()
        socket.writable.clear()
        for n in range(OUTBOX_SIZE + 5):
            conn.send(f"m{n}")
        assert conn.overflowed
        socket.writable.set()
        await asyncio.wait_for(pump, 1)
        assert socket.closed == 1008  # a policy close, not an endless wait
        assert conn.writer is None

    asyncio.run(scenario())


def test_a_broken_socket_does_not_break_the_broadcast() -> None:
    async def scenario() -> None:
        socket, conn, pump = _connect()
        socket.broken = True
        conn.send("lost")  # no exception reaches the table
        assert conn.writer is None
        conn.send("queued")  # nobody writes it: the receiving side ends the connection
        await _settle()
        assert socket.sent == []
        assert pump.done()

    asyncio.run(scenario())


def test_close_comes_after_what_was_queued() -> None:
    async def scenario() -> None:
        socket, conn, pump = _connect()
        socket.writable.clear()
        conn.send("last words")
        conn.close(4410)
        socket.writable.set()
        await asyncio.wait_for(pump, 1)
        assert socket.sent == ["last words"]
        assert socket.closed == 4410

    asyncio.run(scenario())


def test_a_pump_cancelled_during_a_waiting_write_cancels_that_write() -> None:
    async def scenario() -> None:
        socket, conn, pump = _connect()
        socket.writable.clear()
        conn.send("never")
        await _settle()
        pump.cancel()
        await asyncio.gather(pump, return_exceptions=True)
        socket.writable.set()
        await _settle()
        assert socket.sent == []
        assert pump.cancelled()

    asyncio.run(scenario())
