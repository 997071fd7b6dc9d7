"""A person at an online table over a real WebSocket (docs/protocol.md).

For tests against ``ligretto serve`` running as a process: :class:`Person`
connects with the ``websockets`` client, joins, keeps what the table told
it — every view by ``(round_no, seq)``, the newest seat token, the newest
``table`` — and makes legal moves from its newest view, one at a time.
:func:`api` speaks the JSON API without any proxy.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))

#: Moves a person sends per second at most: below the server's limit of 20
#: messages a second per connection (docs/protocol.md, ``rate_limited``).
MOVES_PER_SECOND = 16.0


def api(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    """``(status, JSON answer or text)`` of one request, errors included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with _DIRECT.open(request, timeout=10) as answer:
            status, raw = answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read().decode()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


class Person:
    """One seat's connection; what it was told is kept across reconnections."""

    def __init__(self, ws_url: str, name: str) -> None:
        self.ws_url = ws_url
        self.name = name
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.host_token: str | None = None
        self.table: dict[str, Any] = {}
        #: Every view this seat received, by (round_no, seq).
        self.views: dict[tuple[int, int], dict[str, Any]] = {}
        #: (round_no, seq) of the newest view.
        self.newest: tuple[int, int] = (0, 0)
        #: Every message since the last :meth:`connect`, in order.
        self.received: list[dict[str, Any]] = []
        self.round_over: dict[int, dict[str, Any]] = {}
        #: The server's close code (``None``: none came, e.g. the process died).
        self.close_code: int | None = None
        self.closed = False
        self.accepted = 0
        self._ref = 0
        self._last_move = 0.0

    # ------------------------------------------------------------ the socket

    def connect(self) -> None:
        # No proxy from the environment; an unbounded queue, so every frame
        # the server sent is read off the socket at once (also right before
        # the server dies).
        # Entered like ``with connect(...)``; :meth:`close` closes it.
        self.ws = connect(self.ws_url, proxy=None, max_queue=None, open_timeout=10).__enter__()
        self.received = []
        self.close_code = None
        self.closed = False

    def send(self, type_: str, **fields: Any) -> None:
        assert self.ws is not None, "not connected"
        # The server may have closed first (4404, 4410): what it said is still read.
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(json.dumps({"v": 1, "type": type_, **fields}))

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message (kept), or ``None`` after ``timeout`` or once closed."""
        assert self.ws is not None, "not connected"
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except ConnectionClosed as exc:
            self.closed = True
            self.close_code = exc.rcvd.code if exc.rcvd is not None else None
            return None
        message: dict[str, Any] = json.loads(raw)
        self._keep(message)
        return message

    def receive_until(self, *types: str, timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is None and self.closed:
                break
            if message is not None and message["type"] in types:
                return message
        raise AssertionError(f"{self.name}: no {types} within {timeout:g} s ({self.close_code})")

    def drain(self) -> None:
        """Read what has arrived already, without waiting."""
        while self.receive(0) is not None:
            pass

    def drain_until_closed(self, timeout: float = 15.0) -> int | None:
        """Read everything until the server's side is gone; its close code."""
        deadline = time.monotonic() + timeout
        while not self.closed:
            assert time.monotonic() < deadline, f"{self.name}: the socket is still open"
            self.receive(0.2)
        self.close()
        return self.close_code

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):  # already closed by the server
                self.ws.close()

    def _keep(self, message: dict[str, Any]) -> None:
        self.received.append(message)
        kind = message["type"]
        if kind in ("view", "events"):
            key = (message["round_no"], message["seq"])
            self.views[key] = message["view"]
            self.newest = max(self.newest, key)
        elif kind == "welcome":
            self.seat = message["seat"]
            if message["token"] is not None:
                self.token = message["token"]
            if message.get("host_token"):
                self.host_token = message["host_token"]
            self.table = message["table"]
        elif kind == "table":
            self.table = message["table"]
        elif kind == "round_over":
            self.round_over[message["round_no"]] = message

    # ------------------------------------------------------------- the table

    def join(self, **fields: Any) -> dict[str, Any]:
        """``join`` (a fresh connection); the ``welcome`` or ``refused``."""
        self.connect()
        self.send("join", **fields)
        return self.receive_until("welcome", "refused")

    def rejoin(self) -> dict[str, Any]:
        """Take the seat again with the newest seat token (and the host token)."""
        fields: dict[str, Any] = {"token": self.token}
        if self.host_token is not None:
            fields["host_token"] = self.host_token
        return self.join(**fields)

    @property
    def phase(self) -> str:
        return str(self.table.get("phase", ""))

    def wait_for_phase(self, *phases: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while self.phase not in phases:
            assert time.monotonic() < deadline, f"{self.name}: phase {self.phase}, not {phases}"
            self.receive(0.1)

    def move(self) -> bool:
        """Play the first legal action of the newest view (plays to the middle
        come first) and wait for the answer; whether it was accepted.

        Never faster than :data:`MOVES_PER_SECOND`; nothing is in flight
        when this returns.
        """
        self.drain()
        if self.phase != "playing" or self.newest[0] != self.table.get("round_no"):
            return False
        actions = self.views[self.newest]["actions"]
        if not actions:
            return False
        pause = self._last_move + 1 / MOVES_PER_SECOND - time.monotonic()
        if pause > 0:
            time.sleep(pause)  # at least this long between moves: within the rate limit
        self._last_move = time.monotonic()
        self._ref += 1
        ref = self._ref
        self.send("move", action=actions[0]["text"], ref=ref)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = self.receive(deadline - time.monotonic())
            if message is None:
                break
            if message.get("ref") == ref:
                if message["type"] == "events":
                    self.accepted += 1
                    return True
                return False  # refused: a race lost, or the round ended
        raise AssertionError(f"{self.name}: no answer to move {ref} ({self.close_code})")
