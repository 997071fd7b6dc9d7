"""``/play/{code}/ws``: one client of one table over the WebSocket (docs/protocol.md).

Thin by design (like boardgame.io's server): the socket parses, hands a
validated message to the table, and forwards what the table answers.  The
table (``ligretto.live.table``) owns all game logic.
"""

from __future__ import annotations

import asyncio
import contextlib
import types
from collections.abc import Callable, Coroutine, Generator
from typing import Any, Final

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ligretto.live import encoder
from ligretto.live.connection import (
    CLOSE_GONE,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    Connection,
    InFlight,
)
from ligretto.live.persistence import INCOMPATIBLE
from ligretto.live.protocol import (
    Ping,
    ProtocolError,
    Reason,
    Refused,
    parse_client_message,
)
from ligretto.live.registry import CLOSED_GAME_OVER, TableCapError, TableUnreachableError
from ligretto.live.table import Table
from ligretto.metrics.cpu_split import PARSE, WRITE, timed
from ligretto.metrics.series import REFUSALS
from ligretto.store.live_tables import TableElsewhereError
from ligretto.web.direct_send import SCOPE_KEY as DIRECT_SEND
from ligretto.web.play.app_tables import registry_of
from ligretto.web.play.errors import PlayRoute
from ligretto.web.ws_protocol import READER_KEY, Reader
from ligretto.web.ws_protocol import SCOPE_KEY as WRITE_TEXT

router = APIRouter(route_class=PlayRoute)

# Refusals for flooding that are still answered before the socket closes.
_MAX_STRIKES = 200
#: A message refused for coming too fast, counted for /metrics.
_FLOODED: Final = REFUSALS.labels(limit="ws_messages")


#: Reading a client's message, counted as the "parse" stage when the CPU is split.
_parse: Final = timed(PARSE)(parse_client_message)


def closed_text(reason: str) -> str:
    """What a closed table's page says about it (``Refused.reason``)."""
    if reason == INCOMPATIBLE:
        return (
            "this table could not be restored after the server restarted; "
            "its rounds are kept on its Tafel game"
        )
    if reason == CLOSED_GAME_OVER:
        return "this table's game is over and the table has closed"
    return "this table has closed: nobody was at it for a long time"


def _text_sender(websocket: WebSocket) -> Callable[[str], Coroutine[Any, Any, None]]:
    """How this socket's messages are written: with the server's own
    ``send`` when the app hands it over (:mod:`ligretto.web.direct_send`),
    else through Starlette."""
    direct = websocket.scope.get(DIRECT_SEND)
    if direct is None:
        return websocket.send_text

    def send_text(text: str) -> Coroutine[Any, Any, None]:
        return direct({"type": "websocket.send", "text": text})  # type: ignore[no-any-return]

    return send_text


def _writer(websocket: WebSocket, conn: Connection) -> Callable[[str], None]:
    """Write a message in the caller's step, without a task of its own.

    The send is started by hand.  While the socket keeps up it ends without
    ever waiting (the message is written); if it has to wait (the socket's
    buffer is full: a slow reader), the transport's task goes on with it,
    and what the table sends meanwhile waits in the outbox behind it.
    """

    send_text = _text_sender(websocket)
    # The protocol's own write of a plain frame, where the server has one
    # (ligretto.web.ws_protocol); it declines what must wait or be compressed.
    write_now: Callable[[bytes], bool] | None = websocket.scope.get(WRITE_TEXT)

    def write(text: str) -> None:
        if write_now is not None and write_now(text.encode()):
            return
        send = send_text(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:
            # The client went away (the receiving side tells the table);
            # whatever the reason, one socket must not break a broadcast.
            conn.writer = None
            return
        conn.outbox.put_nowait(InFlight(send, waiting))  # the outbox was empty

    return timed(WRITE)(write)


@types.coroutine
def _go_on(send: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """Await the rest of a coroutine that was started by hand and is waiting
    for ``waiting``: what it waits for is passed up to the running task, and
    what the task is woken with is passed back down."""
    while True:
        try:
            woken = yield waiting
        except BaseException as exc:  # cancelled: the send is told, too
            try:
                waiting = send.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = send.send(woken)
            except StopIteration:
                return


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send what waits in this connection's outbox, in order."""
    send_text = _text_sender(websocket)
    try:
        while True:
            item = await conn.outbox.get()
            if item is None or conn.overflowed:
                if isinstance(item, InFlight):
                    item.coroutine.close()  # dropped with the client
                with contextlib.suppress(Exception):
                    await websocket.close(CLOSE_POLICY if conn.overflowed else conn.close_code)
                return
            conn.sending = True
            if isinstance(item, InFlight):
                await _go_on(item.coroutine, item.waiting)
            else:
                await send_text(item)
            conn.sending = False
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client went away; the receiving side tells the table
    finally:
        conn.writer = None


@router.websocket("/play/{code}/ws")
async def table_socket(websocket: WebSocket, code: str) -> None:
    """One client of one table; see docs/protocol.md."""
    registry = registry_of(websocket.app)
    try:
        table = await registry.find(code)
    except (TableElsewhereError, TableUnreachableError) as exc:
        # Another process serves it (or did, and its lease has not run out
        # yet), or the database is away for a moment: the page reconnects
        # after a pause and gets there.
        await websocket.accept()
        await websocket.send_text(
            Refused(
                code=Reason.TRY_AGAIN,
                reason="another server process serves this table"
                if isinstance(exc, TableElsewhereError)
                else "the server cannot reach its database just now",
            ).model_dump_json()
        )
        await websocket.close(CLOSE_TRY_AGAIN)
        return
    except TableCapError:
        await websocket.accept()
        await websocket.close(CLOSE_TRY_AGAIN)
        return
    await websocket.accept()
    if table is None:
        closed = await registry.closed_reason(code)
        if closed is not None:
            refusal = Refused(code=Reason.TABLE_CLOSED, reason=closed_text(closed))
        else:
            refusal = Refused(code=Reason.NO_SUCH_TABLE, reason="no table with this code")
        await websocket.send_text(refusal.model_dump_json())
        await websocket.close(CLOSE_GONE if closed is not None else CLOSE_NO_TABLE)
        return
    conn = Connection()
    conn.writer = _writer(websocket, conn)
    sender = asyncio.get_running_loop().create_task(_pump(websocket, conn))
    take = _taker(table, conn)
    # Whole text messages straight from the read, where the server offers
    # it (ligretto.web.ws_protocol); the rest still comes through receive().
    set_reader: Callable[[Reader | None], None] | None = websocket.scope.get(READER_KEY)
    if set_reader is not None:
        set_reader(take)
    try:
        while not sender.done():
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            take(raw)
    except WebSocketDisconnect:
        pass
    finally:
        if set_reader is not None:
            set_reader(None)
        table.left(conn)
        if not sender.done():
            conn.close()
            try:
                await asyncio.wait_for(sender, 1.0)
            except (TimeoutError, asyncio.CancelledError, Exception):
                sender.cancel()


def _taker(table: Table, conn: Connection) -> Callable[[str | bytes], None]:
    """What one client's message does: refused when it comes too fast or
    does not parse, a heartbeat answered here, anything else handed to the
    table. Never awaits, so the read may call it in its own step."""

    def take(raw: str | bytes) -> None:
        if not conn.bucket.allow():
            # Flooding: refused here, before it costs the table anything.
            _FLOODED.inc()
            conn.strikes += 1
            if conn.strikes <= 3:
                conn.send(
                    Refused(
                        code=Reason.RATE_LIMITED, reason="too many messages; slow down"
                    ).model_dump_json()
                )
            if conn.strikes > _MAX_STRIKES:
                conn.close(CLOSE_POLICY)
            return
        # A message within the rate takes one strike back (not all of them):
        # a client that floods steadily gets a few messages through every
        # second and must still reach the limit, however the refills fall.
        conn.strikes = max(0, conn.strikes - 1)
        try:
            message = _parse(raw)
        except ProtocolError as exc:
            conn.send(Refused(code=exc.code, reason=exc.reason).model_dump_json())
            return
        if isinstance(message, Ping):
            # The page's heartbeat (docs/protocol.md): answered here, not
            # behind the table's queue, so a busy table never looks like
            # a lost connection, and a ping costs the table nothing.
            conn.send(encoder.pong(message.t, table.settings.clock.now()))
            return
        table.submit(conn, message)

    return take
