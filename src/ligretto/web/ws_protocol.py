"""uvicorn's WebSocket protocol with a direct write of a table's text messages.

A message sent through ASGI passes uvicorn's ``send`` coroutine (an
``asyncio.Event`` wait, the message's type checks), the websockets
library's frame object, its serialisation through a byte stream and a list
joined for the transport: about a third of what a move cost the server
before (``benchmarks/live.py``'s split by stage). A server's text frame is
a header of two to ten bytes before the UTF-8 payload (RFC 6455, 5.2:
unmasked, no extension), so while the connection is plainly open the
protocol writes the frame to the transport itself
(:meth:`TableWebSocketProtocol.write_text`), and the endpoint finds that
write in the scope under :data:`SCOPE_KEY`.

The same holds the other way. A client's move arrives as one masked text
frame in one read; uvicorn would queue it for the app, pause reading (an
``epoll_ctl``), wake the endpoint's task to take it, and resume reading
(another), per move (``benchmarks/live.py``: the stage "the rest" fell
from 29–31 % of a move's CPU to 24 % without them). While the endpoint has registered a reader
(:meth:`TableWebSocketProtocol.set_reader`, found in the scope under
:data:`READER_KEY`) and nothing waits in the app's queue before it, the
protocol hands such a message to that reader at once, in the read's own
step; the order is the one the queue would give, since the queue is empty.

Everything else stays uvicorn's: the handshake, reading, pings, closing;
and a message that cannot go at once — the transport paused (a slow
reader), a close begun, a compression extension negotiated — is refused by
the direct write and takes the ASGI path, which waits or compresses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

try:  # the library's C version, as its own parser uses
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - built without its C extension
    from websockets.utils import apply_mask

#: The scope key under which a WebSocket's endpoint finds :meth:`TableWebSocketProtocol.write_text`.
SCOPE_KEY: Final = "ligretto.write_text"
#: The scope key under which it finds :meth:`TableWebSocketProtocol.set_reader`.
READER_KEY: Final = "ligretto.set_reader"

#: Takes one client text message in the read's own step; never raises.
Reader = Callable[[str], None]

_OPEN: Final = State.OPEN


def masked_text_payload(data: bytes, max_size: int | None) -> bytes | None:
    """The payload of ``data`` if it is exactly one final, masked text frame
    of at most ``max_size`` bytes (RFC 6455, 5.2), unmasked; else ``None``."""
    if len(data) < 6 or data[0] != 0x81 or not data[1] & 0x80:
        return None  # not FIN + text without reserved bits, or unmasked
    size = data[1] & 0x7F
    start = 2
    if size == 126:
        size = int.from_bytes(data[2:4], "big")
        start = 4
    elif size == 127:
        return None  # never within the server's frame limit
    if len(data) != start + 4 + size or (max_size is not None and size > max_size):
        return None
    return apply_mask(data[start + 4 :], data[start : start + 4])


def text_frame_header(size: int) -> bytes:
    """The header of an unmasked, final text frame of ``size`` payload bytes (RFC 6455, 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 1 << 16:
        return b"\x81\x7e" + size.to_bytes(2, "big")
    return b"\x81\x7f" + size.to_bytes(8, "big")


class TableWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol (``websockets``' sans-I/O one) plus
    :meth:`write_text`, handed to the app in the scope."""

    reader: Reader | None = None

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # a handshake uvicorn took: the app runs with this scope
            self.scope[SCOPE_KEY] = self.write_text  # type: ignore[typeddict-unknown-key]
            self.scope[READER_KEY] = self.set_reader  # type: ignore[typeddict-unknown-key]

    def set_reader(self, reader: Reader | None) -> None:
        """Hand whole text messages to ``reader`` as they are read (``None``:
        through the app's queue again, as uvicorn does)."""
        self.reader = reader

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if (
            conn.state is _OPEN
            and not conn.extensions
            and conn.current_size is None  # no fragmented message under way
            and not conn.reader.buffer  # the parser waits at a frame's start
        ):
            payload = masked_text_payload(data, conn.max_message_size)
            if payload is not None:
                reader = self.reader
                # Reading is paused while the app's queue holds a message
                # (uvicorn resumes it once the app took the last), so the
                # queue is empty here; checked all the same, as the order
                # of a client's messages rests on it (R3).
                if reader is not None and not self.close_sent and self.queue.empty():
                    try:
                        text = payload.decode()
                    except UnicodeDecodeError:
                        pass  # uvicorn's path closes with 1007
                    else:
                        try:
                            reader(text)
                        except Exception:  # a bug must not take the connection's reads
                            self.logger.exception("a client message's reader failed")
                        return
                # uvicorn's own delivery: decoded, queued for the app, reading paused.
                self.curr_msg_data_type = "text"
                self.frames = [payload]
                self.send_receive_event_to_app()
                return
        super().data_received(data)

    def write_text(self, payload: bytes) -> bool:
        """Write one text message (its UTF-8 ``payload``) now, if it may go
        now as a plain frame; ``False`` (nothing written) if it must take
        the ASGI path: the handshake not answered yet, a close sent or
        received, the transport paused, or an extension (per-message
        deflate) that must encode every frame."""
        if (
            not self.writable.is_set()
            or self.close_sent
            or self.conn.state is not _OPEN
            or self.conn.extensions
            or not self.handshake_complete
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(text_frame_header(len(payload)) + payload)
        return True
