"""One client's share of the process: what it may hold open at once.

Every open connection and every request in progress (a body still being
sent, a live-update stream, a WebSocket) holds one of the process's
connections (``LIGRETTO_MAX_CONNECTIONS``). A client that holds them all —
a thousand streams, or bodies that trickle in a byte at a time — leaves
nothing for anyone else, so one client (counted as the rate limits count
it: an IPv4 address, an IPv6 /64, behind a trusted proxy the address it
forwards) may hold at most a share of them (``LIGRETTO_CLIENT_SHARE``):

- its open connections, counted by the uvicorn protocol
  (:mod:`ligretto.web.http_protocol`) as they open — not those of a trusted
  proxy, which carry everyone's requests;
- its requests in progress, counted here (:class:`ClientShare`, pure ASGI
  middleware), for a client behind a proxy too.

Past its share a request is answered 429 with ``Retry-After`` and nothing
runs: the API in its error shape (``"code": "too_many_at_once"``), the
pages a translated page, a WebSocket is refused before it opens.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from ligretto.metrics.series import REFUSALS
from ligretto.web.middleware_refusals import send_refusal
from ligretto.web.ratelimit import RateLimits, client_address, client_key

CLIENT_SHARE: Final = 0.25
"""The share of the process's connections one client may hold (a quarter)."""

RETRY_AFTER_SECONDS: Final = 5
"""What a client over its share is told to wait (a live board retries by itself)."""


def per_client(max_connections: int | None, share: float) -> int | None:
    """Connections or requests one client may hold: *share* of *max_connections*, at least 1.

    None (no share) when the process has no connection cap.
    """
    if max_connections is None:
        return None
    return max(1, math.floor(max_connections * share))


class ClientCounts:
    """How many of something each client holds, each at most *limit*."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: dict[str, int] = {}

    def take(self, client: str) -> bool:
        """One more for *client*, if it holds fewer than the limit."""
        count = self.held.get(client, 0)
        if count >= self.limit:
            return False
        self.held[client] = count + 1
        return True

    def give_back(self, client: str) -> None:
        count = self.held.get(client, 0) - 1
        if count > 0:
            self.held[client] = count
        else:
            self.held.pop(client, None)


class ClientShare:
    """Refuse a request while its client holds its share of requests in progress."""

    def __init__(self, app: ASGIApp, limits: RateLimits, limit: int | None) -> None:
        self.app = app
        self.limits = limits
        self.trusted = [ipaddress.ip_network(p, strict=False) for p in limits.trusted_proxies]
        self.counts = ClientCounts(limit) if limit is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        counts = self.counts
        if counts is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        limits = self.limits
        client = client_key(
            client_address(scope, self.trusted), limits.ipv4_prefix, limits.ipv6_prefix
        )
        if not counts.take(client):
            await _refuse(scope, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            counts.give_back(client)


#: Refusals counted for /metrics (the connections' share: ligretto.web.http_protocol).
_REFUSED: Final = REFUSALS.labels(limit="client_share_requests")


async def _refuse(scope: Scope, send: Send) -> None:
    _REFUSED.inc()
    if scope["type"] == "websocket":
        # Closing before accepting refuses the handshake; 1013: try again later.
        await send({"type": "websocket.close", "code": 1013, "reason": "too_many_at_once"})
        return
    retry_after = RETRY_AFTER_SECONDS
    await send_refusal(
        scope,
        send,
        status=429,
        code="too_many_at_once",
        detail="This address has too many requests open at once; try again in "
        f"{retry_after} s. Nothing was changed.",
        template="too_many_at_once.html",
        context={"retry_after": retry_after},
        headers=[(b"retry-after", str(retry_after).encode()), (b"connection", b"close")],
    )
