"""uvicorn's HTTP/1.1 protocol (httptools) with the bounds a directly reached process needs.

uvicorn reads whatever a client sends, including the rest of a body it has
already answered. :class:`BoundedHttp` adds:

- **a deadline for the headers** (``LIGRETTO_HEADER_TIMEOUT``), from when
  the connection opened or its previous answer was sent;
- **an answer before the body has arrived whole** (413, any refusal)
  closes the connection without reading the rest, once the answer is
  delivered (:mod:`ligretto.web.closing`); uvicorn would read and throw
  away the rest of the body to keep the connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from ligretto.web.closing import close_after_answer

HEADER_SECONDS: Final = 10.0
"""A connection must deliver a request's complete headers this long after it
opened, or after the previous answer: otherwise it is closed.

uvicorn's keep-alive timeout starts only after a first answer, so a
connection that never sends a byte, or sends its headers a byte at a time,
would stay open for ever and hold one of the process's file descriptors
(the shipped HAProxy's ``timeout http-request 10s`` does the same for a
proxied process)."""


@dataclass(frozen=True, slots=True)
class HttpBounds:
    """What one server's connections may hold (``docs/limits.md``, "Connections")."""

    header_timeout: float = HEADER_SECONDS

    def __post_init__(self) -> None:
        if not self.header_timeout > 0:
            raise ValueError(f"the header timeout must be positive, not {self.header_timeout!r}")


class BoundedHttp(HttpToolsProtocol):
    """One connection; :attr:`bounds` are its server's."""

    bounds: ClassVar[HttpBounds] = HttpBounds()

    _header_deadline: asyncio.TimerHandle | None = None
    _closing = False
    _keep_alive = True

    # -- the connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_header_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self._closing:
            super().data_received(data)

    # -- the parser's callbacks

    def on_headers_complete(self) -> None:
        self._clear_header_deadline()
        previous = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is previous:  # an upgrade to a WebSocket: no request of ours
            return
        # Until its body has arrived whole, an answer closes the connection
        # (uvicorn then says so in the answer's headers and closes it through
        # the cycle's transport, whose close is ours).
        self._keep_alive = cycle.keep_alive
        cycle.keep_alive = False
        cycle.transport = _AnswerTransport(self.transport, lambda: self._close_after(cycle))

    def on_message_complete(self) -> None:
        super().on_message_complete()
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            cycle.keep_alive = self._keep_alive

    def on_response_complete(self) -> None:
        if self._closing:
            self.server_state.total_requests += 1
            return
        super().on_response_complete()
        # uvicorn armed its keep-alive timer: the connection waits for the
        # next request (not when it closes or a pipelined request runs).
        if self.timeout_keep_alive_task is not None:
            self._arm_header_deadline()

    # -- closing

    def _close_after(self, cycle: RequestResponseCycle) -> None:
        """The cycle's answer is written and ends the connection."""
        if self.transport.is_closing():
            return
        if not cycle.more_body:
            self.transport.close()  # the request was read whole: nothing is left unread
            return
        self._closing = True
        self._clear_header_deadline()
        self.flow.pause_reading()
        close_after_answer(self.transport, self.loop)

    # -- the header deadline

    def _arm_header_deadline(self) -> None:
        self._clear_header_deadline()
        self._header_deadline = self.loop.call_later(
            self.bounds.header_timeout, self._headers_too_late
        )

    def _clear_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_too_late(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class _AnswerTransport(asyncio.Transport):
    """What a request's cycle writes its answer to: the connection; its close is the protocol's."""

    def __init__(self, transport: asyncio.Transport, close: Callable[[], None]) -> None:
        super().__init__()
        self._transport = transport
        self._close = close

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._transport.write(data)

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def close(self) -> None:
        self._close()

    def get_extra_info(self, name: str, default: object = None) -> object:
        return self._transport.get_extra_info(name, default)


def bounded_protocol(bounds: HttpBounds) -> type[BoundedHttp]:
    """The protocol class uvicorn builds one server's connections from."""
    return type("BoundedHttp", (BoundedHttp,), {"bounds": bounds})
