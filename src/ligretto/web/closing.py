"""Closing a connection whose request was not read to its end: the answer first.

An answer given before a request has arrived whole (a body over its limit,
a body too slow, a client over its share, headers too large) ends the
connection, and the rest of the request is never read. But a socket closed
while unread bytes wait in it is reset by the kernel at once, and a reset
may throw away the answer on its way to the client (RFC 9112, section 9.6).
So the connection is closed in stages: reading stops, the answer is
followed by the end of this side's stream (a half-close), and the socket is
closed when the client's side has acknowledged both — or after
:data:`LINGER_SECONDS`, whatever happened. Meanwhile nothing is read: what
the client still sends waits in the kernel's buffers, whose size bounds it.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Final

LINGER_SECONDS: Final = 5.0
"""The longest a closing connection waits for its answer to be acknowledged."""

UNKNOWN_LINGER_SECONDS: Final = 1.0
"""How long it waits where the socket cannot say (not TCP on Linux)."""

POLL_SECONDS: Final = 0.01

# Linux's TCP states (include/net/tcp_states.h) once this side's end of the
# stream has been acknowledged, and so everything before it.
_DELIVERED: Final = frozenset({5, 6, 7})  # FIN_WAIT2, TIME_WAIT, CLOSE


def delivered(transport: asyncio.BaseTransport) -> bool | None:
    """Whether the client acknowledged everything sent and the half-close after it.

    None where the kernel cannot say (no ``TCP_INFO``: not Linux, not TCP).
    """
    sock = transport.get_extra_info("socket")
    tcp_info = getattr(socket, "TCP_INFO", None)
    if sock is None or tcp_info is None:
        return None
    try:
        state = sock.getsockopt(socket.IPPROTO_TCP, tcp_info, 8)[0]
    except (OSError, AttributeError):
        return None
    return state in _DELIVERED


def close_after_answer(
    transport: asyncio.Transport,
    loop: asyncio.AbstractEventLoop,
    linger: float = LINGER_SECONDS,
) -> None:
    """Stop reading, half-close after what was written, close once it was received."""
    if transport.is_closing():
        return
    transport.pause_reading()
    if not transport.can_write_eof():
        transport.close()
        return
    transport.write_eof()  # after the buffered answer
    deadline = loop.time() + linger
    unknown_deadline = loop.time() + min(linger, UNKNOWN_LINGER_SECONDS)

    def check() -> None:
        if transport.is_closing():
            return
        done = transport.get_write_buffer_size() == 0 and delivered(transport)
        now = loop.time()
        if done or now >= deadline or (done is None and now >= unknown_deadline):
            transport.close()  # the unread rest goes with it
            return
        loop.call_later(POLL_SECONDS, check)

    loop.call_later(POLL_SECONDS, check)
