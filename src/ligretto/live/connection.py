"""One client connection as the table sees it: an outbox, never a socket.

The table never awaits a client.  It hands finished JSON text to the
connection and moves on.  While the socket keeps up, the transport's
:attr:`Connection.writer` writes it at once, in the table's own step (a
message no longer waits for a task of its own to be woken: that hop cost
more than the write).  Otherwise it goes into the connection's bounded
outbox, which the transport (the WebSocket route) drains in its own task,
in order.  A client too slow to keep up fills its outbox and is dropped
instead of slowing the table down.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

from ligretto.live.ratelimit import TokenBucket

OUTBOX_SIZE = 512

#: WebSocket close codes the server uses (docs/protocol.md).
CLOSE_NORMAL = 1000
#: A policy violation: flooding, or a client too slow to keep up.
CLOSE_POLICY = 1008
#: The host revoked the seat link this connection played with.
CLOSE_REVOKED = 4403
#: The host removed the person this connection played for (``removed``).
CLOSE_REMOVED = 4409
#: The person this connection played for left the table (``left``).
CLOSE_LEFT = 4408
#: No table has this code (the page stops reconnecting).
CLOSE_NO_TABLE = 4404
#: Try again later: another process serves the table, or this one is full.
CLOSE_TRY_AGAIN = 1013
#: The table has closed (could not be restored, or was over); the page says why.
CLOSE_GONE = 4410

_ids = itertools.count(1)

#: Takes one message into the socket now, without waiting (a write that
#: has to wait is put in front of the outbox by it).  Set by the transport.
Writer = Callable[[str], None]


class Connection:
    """A joined (or joining) client of one table."""

    __slots__ = (
        "bucket",
        "close_code",
        "host",
        "host_token",
        "id",
        "joined",
        "outbox",
        "overflowed",
        "seat",
        "sending",
        "strikes",
        "taken_over",
        "writer",
    )

    def __init__(self, *, rate: float = 20.0, burst: float = 30.0) -> None:
        self.id = next(_ids)
        # ``None`` in the outbox tells the sender to close the socket; an
        # :class:`InFlight` is a write that began at once and must finish first.
        self.outbox: asyncio.Queue[str | InFlight | None] = asyncio.Queue(OUTBOX_SIZE)
        self.writer: Writer | None = None
        # The transport's task is writing a message it took from the outbox.
        self.sending = False
        self.bucket = TokenBucket(rate, burst)
        self.joined = False
        self.seat: int | None = None
        self.host = False
        # The host token this connection joined with (echoed in "welcome").
        self.host_token: str | None = None
        self.overflowed = False
        # Refusals for flooding in a row; too many and the socket is closed.
        self.strikes = 0
        # Another connection came with this seat's token and plays it now.
        self.taken_over = False
        # How the socket is closed once the outbox asks for it.
        self.close_code = CLOSE_NORMAL

    def send(self, text: str) -> None:
        """Write one message at once if nothing waits before it, else queue
        it; a full outbox marks the client as too slow."""
        if self.overflowed:
            return
        writer = self.writer
        if writer is not None and not self.sending and self.outbox.empty():
            writer(text)
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True

    def close(self, code: int = CLOSE_NORMAL) -> None:
        """Ask the transport to close this connection after what is queued."""
        self.close_code = code
        try:
            self.outbox.put_nowait(None)
        except asyncio.QueueFull:
            self.overflowed = True


class InFlight:
    """A write that began at once and then had to wait (the socket's buffer
    was full): the transport's task goes on with it before anything else."""

    __slots__ = ("coroutine", "waiting")

    def __init__(self, coroutine: Any, waiting: Any) -> None:
        self.coroutine = coroutine  # the send, started by hand
        self.waiting = waiting  # what it waits for (a future)
