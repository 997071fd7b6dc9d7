"""uvicorn's HTTP/1.1 protocol (httptools) with the bounds a directly reached process needs.

uvicorn reads whatever a client sends: headers without end (48 MiB of them
took a process from 119 MB to 1.1 GB; one 64 MiB header value held the
event loop for seconds while the parser glued its pieces together), the
rest of a body it has already answered, any number of connections from one
client. :class:`BoundedHttp` counts what it reads, as it arrives, before
the parser builds anything of it:

- **a deadline for the headers** (``LIGRETTO_HEADER_TIMEOUT``), from when
  the connection opened or its previous answer was sent;
- **the request line and headers** at most :data:`MAX_HEAD_BYTES`
  together and :data:`MAX_HEADERS` headers (431), the address at most
  :data:`MAX_URL_BYTES` (414), answered by the protocol itself
  (:mod:`ligretto.web.http_refusals`);
- **an answer before the body has arrived whole** (413, 408, 429, any
  refusal) closes the connection without reading the rest, once the
  answer is delivered (:mod:`ligretto.web.closing`); uvicorn would read
  and throw away the rest of the body to keep the connection;
- **one client's open connections** at most its share
  (:mod:`ligretto.web.client_share`), counted by the peer's address unless
  the peer is a trusted proxy; past it the connection is answered 429 at
  once and closed.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from ligretto.metrics.series import REFUSALS
from ligretto.web.client_share import RETRY_AFTER_SECONDS, ClientCounts
from ligretto.web.closing import close_after_answer
from ligretto.web.http_refusals import (
    Refusal,
    headers_too_large,
    too_many_connections,
    url_too_long,
)
from ligretto.web.ratelimit import Networks, client_key, in_networks

#: Refusals counted for /metrics, by the refusal's code (one client's share
#: of the connections under its own name: the requests' is client_share's).
_REFUSED: Final = {
    "headers_too_large": REFUSALS.labels(limit="headers_too_large"),
    "url_too_long": REFUSALS.labels(limit="url_too_long"),
    "too_many_at_once": REFUSALS.labels(limit="client_share_connections"),
}
_HEADERS_TOO_LATE: Final = REFUSALS.labels(limit="headers_too_slow")

HEADER_SECONDS: Final = 10.0
"""A connection must deliver a request's complete headers this long after it
opened, or after the previous answer: otherwise it is closed.

uvicorn's keep-alive timeout starts only after a first answer, so a
connection that never sends a byte, or sends its headers a byte at a time,
would stay open for ever and hold one of the process's file descriptors
(the shipped HAProxy's ``timeout http-request 10s`` does the same for a
proxied process)."""

MAX_HEAD_BYTES: Final = 32 * 1024
"""The request line and all headers together. A browser sends 1–2 KiB; the
shipped HAProxy passes at most 15 KiB (its buffer of 16 KiB less what it
may add)."""

MAX_HEADERS: Final = 100
"""Headers in one request (Apache's and gunicorn's bound; HAProxy's is 101)."""

MAX_URL_BYTES: Final = 8 * 1024
"""The address with its query (Apache reads a request line of 8 KiB). The
longest the pages make is an old edit link, about 100 bytes."""


@dataclass(frozen=True, slots=True)
class HttpBounds:
    """What one server's connections may hold (``docs/limits.md``, "Connections")."""

    header_timeout: float = HEADER_SECONDS
    max_head_bytes: int = MAX_HEAD_BYTES
    max_headers: int = MAX_HEADERS
    max_url_bytes: int = MAX_URL_BYTES
    connections_per_client: int | None = None
    """Open connections one client may hold; None: no share (no connection cap)."""
    trusted_proxies: tuple[str, ...] = ()
    ipv4_prefix: int = 32
    ipv6_prefix: int = 64

    def __post_init__(self) -> None:
        if not self.header_timeout > 0:
            raise ValueError(f"the header timeout must be positive, not {self.header_timeout!r}")
        if min(self.max_head_bytes, self.max_headers, self.max_url_bytes) < 1:
            raise ValueError(f"the header bounds must be positive: {self}")


class _RefusedError(Exception):
    """Raised in a parser callback to stop the parser; the refusal is kept on the protocol."""


class BoundedHttp(HttpToolsProtocol):
    """One connection; :attr:`bounds` and :attr:`client_connections` are its server's."""

    bounds: ClassVar[HttpBounds] = HttpBounds()
    client_connections: ClassVar[ClientCounts | None] = None
    trusted: ClassVar[Networks] = ()

    url: bytes = b""
    _header_deadline: asyncio.TimerHandle | None = None
    _reading_head = True
    _head_bytes = 0
    _heads = 0
    _header_count = 0
    _refusal: Refusal | None = None
    _closing = False
    _client: str | None = None
    _keep_alive = True

    # -- the connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()
        self._take_share()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_header_deadline()
        self._give_back_share()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        # The WebSocket's protocol takes the connection over (and its end):
        # it counts among the client's requests in progress instead.
        self._give_back_share()
        super().handle_websocket_upgrade()

    def data_received(self, data: bytes) -> None:
        if self._closing:
            return
        if not self._reading_head:
            super().data_received(data)
            return
        room = self.bounds.max_head_bytes - self._head_bytes
        if len(data) <= room:
            self._head_bytes += len(data)
            super().data_received(data)
            return
        # Only what the head may still take goes to the parser (which would
        # otherwise keep every byte of an endless header); the rest follows
        # once the head has ended within it.
        heads = self._heads
        self._head_bytes += room
        super().data_received(data[:room])
        if self._closing or self.transport.is_closing():
            return
        if self.transport.get_protocol() is not self:  # a WebSocket took the connection over
            return
        if self._heads == heads:
            self._refuse(headers_too_large(self.bounds.max_headers, self.bounds.max_head_bytes))
            return
        self.data_received(data[room:])

    # -- the parser's callbacks

    def on_message_begin(self) -> None:
        self._header_count = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.bounds.max_url_bytes:
            self._refusal = url_too_long(self.bounds.max_url_bytes)
            raise _RefusedError

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.bounds.max_headers:
            self._refusal = headers_too_large(self.bounds.max_headers, self.bounds.max_head_bytes)
            raise _RefusedError
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._clear_header_deadline()
        self._reading_head = False
        self._heads += 1
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
        self._reading_head = True
        self._head_bytes = 0
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            cycle.keep_alive = self._keep_alive

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to every parser error, ours among them.
        if self._refusal is not None:
            self._refuse(self._refusal)
        else:
            super().send_400_response(msg)

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

    def _refuse(self, refusal: Refusal, *, linger: bool = True) -> None:
        _REFUSED[refusal.code].inc()
        self._closing = True
        self._clear_header_deadline()
        self.transport.write(refusal.answer(api=_under_api(self.url)))
        self.flow.pause_reading()
        if linger:
            close_after_answer(self.transport, self.loop)
        else:
            self.transport.close()

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
            _HEADERS_TOO_LATE.inc()
            self.transport.close()

    # -- the client's share

    def _take_share(self) -> None:
        counts, bounds = self.client_connections, self.bounds
        peer = self.client[0] if self.client else None
        if counts is None or peer is None or in_networks(peer, self.trusted):
            return
        client = client_key(peer, bounds.ipv4_prefix, bounds.ipv6_prefix)
        if counts.take(client):
            self._client = client
        else:
            # Closed at once, not once the answer is delivered: a connection
            # past the share must not hold a place among all the connections
            # meanwhile (its request, if any came yet, is a few bytes).
            self._refuse(too_many_connections(RETRY_AFTER_SECONDS), linger=False)

    def _give_back_share(self) -> None:
        if self._client is not None and self.client_connections is not None:
            self.client_connections.give_back(self._client)
        self._client = None


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


def _under_api(url: bytes) -> bool:
    return url == b"/api" or url.startswith((b"/api/", b"/api?"))


def bounded_protocol(bounds: HttpBounds) -> type[BoundedHttp]:
    """The protocol class uvicorn builds one server's connections from."""
    return type(
        "BoundedHttp",
        (BoundedHttp,),
        {
            "bounds": bounds,
            "client_connections": (
                ClientCounts(bounds.connections_per_client)
                if bounds.connections_per_client is not None
                else None
            ),
            "trusted": tuple(ipaddress.ip_network(p, strict=False) for p in bounds.trusted_proxies),
        },
    )
