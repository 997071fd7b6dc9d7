"""Per-client rate limits, as pure ASGI middleware around the whole app.

One client must not be able to fill the server for everyone: open every
table the server allows, create games by the thousand, or guess invite
codes by trying them. The requests that do such things are counted per
client address in moving windows (the ``limits`` library keeps the windows);
a client over a limit gets 429 with ``Retry-After`` and nothing runs — the
API in its error shape (``{"detail", "code": "rate_limited"}``), the pages
a translated page, a WebSocket connection is refused before it opens.

The client address is the peer's address. Behind a reverse proxy every
request comes from the proxy, so the address is taken from the
``X-Forwarded-For`` header, but only when the peer is one of the
configured trusted proxies (otherwise anyone could claim any address).

A client is counted by its network, not its full address: an IPv6 client
is usually handed a whole /64 (2^64 addresses it may use at will), so
counting per address would give it unlimited buckets. IPv6 addresses count
by their /64 and IPv4 addresses by themselves (/32), both configurable.
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from ligretto.metrics.series import REFUSALS
from ligretto.web.middleware_refusals import send_refusal

_CODE = r"[^/]+"  # a table code as the path carries it, checked by the route


@dataclass(frozen=True, slots=True)
class RateRule:
    """Requests that share one limit: a name, the methods and path patterns."""

    name: str
    methods: frozenset[str]
    pattern: re.Pattern[str]


RULES: Sequence[RateRule] = (
    # Opening a table (the global table cap must not be one client's).
    RateRule(
        "create_table",
        frozenset({"POST"}),
        re.compile(r"/play/?|/play/quick/?|/play/practice/?|/api/tables/?"),
    ),
    # Creating a Tafel game or a group, from the pages' forms or the API.
    RateRule(
        "create_game",
        frozenset({"POST"}),
        re.compile(
            rf"/?|/api/games/?|/groups/?|/groups/{_CODE}/edit/games/?"
            rf"|/api/groups/?|/api/groups/{_CODE}/games/?"
        ),
    ),
    # A group's import and export read or write every round of every game
    # (seconds of a thread's time for the largest): fewer than a game's.
    RateRule("group_import", frozenset({"POST"}), re.compile(r"/api/groups/import/?")),
    RateRule(
        "group_export", frozenset({"GET", "HEAD"}), re.compile(rf"/api/groups/{_CODE}/export\.json")
    ),
    # Imports are large and checked round by round.
    RateRule("import_game", frozenset({"POST"}), re.compile(r"/api/games/import/?")),
    # Looking up a table by its code, or connecting to it: invite codes
    # must not be guessable by trying them quickly. A table's kept rounds
    # and their replays answer differently for a code in use too.
    # The lobby: its list (read, or followed as a stream by /play) and the
    # quick match; a public listing names codes, so it is counted too.
    RateRule(
        "lobby", frozenset({"GET", "HEAD", "POST"}), re.compile(r"/api/lobby(?:/match|/events)?/?")
    ),
    RateRule(
        "table_lookup",
        frozenset({"GET", "POST", "PUT", "WEBSOCKET"}),
        re.compile(
            rf"/play/{_CODE}/?|/play/{_CODE}/ws|/play/{_CODE}/seat-link|/api/tables/{_CODE}"
            rf"|/api/tables/{_CODE}/rounds|/api/tables/{_CODE}/rounds/{_CODE}/replay"
            rf"|/api/tables/{_CODE}/public"
            rf"|/play/{_CODE}/rounds/{_CODE}/replay"
        ),
    ),
)


#: Refusals counted for /metrics, by the rule's name.
_REFUSED: Final = {rule.name: REFUSALS.labels(limit=rule.name) for rule in RULES}


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The limits per client address, in the ``limits`` notation (``"20/minute"``)."""

    create_table: str = "20/minute"
    create_game: str = "30/minute"
    import_game: str = "10/minute"
    group_import: str = "5/minute"
    group_export: str = "5/minute"
    table_lookup: str = "60/minute"
    lobby: str = "60/minute"
    trusted_proxies: tuple[str, ...] = ()
    enabled: bool = True
    ipv4_prefix: int = 32
    ipv6_prefix: int = 64

    def __post_init__(self) -> None:
        if not 0 <= self.ipv4_prefix <= 32:
            raise ValueError(f"ipv4_prefix must be between 0 and 32, not {self.ipv4_prefix}")
        if not 0 <= self.ipv6_prefix <= 128:
            raise ValueError(f"ipv6_prefix must be between 0 and 128, not {self.ipv6_prefix}")


class RateLimit:
    """Refuse a client's requests over its limits with 429 and ``Retry-After``."""

    def __init__(self, app: ASGIApp, limits: RateLimits | None = None) -> None:
        self.app = app
        self.settings = limits or RateLimits()
        self.items: dict[str, RateLimitItem] = {
            rule.name: parse(getattr(self.settings, rule.name)) for rule in RULES
        }
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.trusted = [
            ipaddress.ip_network(p, strict=False) for p in self.settings.trusted_proxies
        ]

    def rule_for(self, scope: Scope) -> RateRule | None:
        method = "WEBSOCKET" if scope["type"] == "websocket" else scope.get("method", "")
        path: str = scope["path"]
        for rule in RULES:
            if method in rule.methods and rule.pattern.fullmatch(path):
                return rule
        return None

    def client(self, scope: Scope) -> str:
        """The client's address: the peer, or what a trusted proxy says it is."""
        return client_address(scope, self.trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not self.settings.enabled:
            await self.app(scope, receive, send)
            return
        rule = self.rule_for(scope)
        if rule is None:
            await self.app(scope, receive, send)
            return
        item = self.items[rule.name]
        limits = self.settings
        client = client_key(self.client(scope), limits.ipv4_prefix, limits.ipv6_prefix)
        if self.limiter.hit(item, rule.name, client):
            await self.app(scope, receive, send)
            return
        _REFUSED[rule.name].inc()
        reset = self.limiter.get_window_stats(item, rule.name, client).reset_time
        retry_after = max(1, math.ceil(reset - time.time()))
        await _refuse(scope, send, retry_after)


Networks = Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network]


def client_address(scope: Scope, trusted: Networks) -> str:
    """A request's client address: the peer, or what a *trusted* proxy says it is."""
    peer = (scope.get("client") or ("unknown", 0))[0]
    if not trusted or not in_networks(peer, trusted):
        return str(peer)
    forwarded = [
        hop.strip()
        for name, value in scope["headers"]
        if name == b"x-forwarded-for"
        for hop in value.decode("latin-1").split(",")
    ]
    # The right-most address that is not one of our proxies is the client.
    for hop in reversed(forwarded):
        if not in_networks(hop, trusted):
            return hop if _valid(hop) else str(peer)
    return str(peer)


def request_client(scope: Scope, limits: RateLimits) -> str:
    """The client a request counts for, as the rate limits count it (its network).

    Other per-client limits (the lab's quota of studies) count by the same key.
    """
    trusted = [ipaddress.ip_network(p, strict=False) for p in limits.trusted_proxies]
    return client_key(client_address(scope, trusted), limits.ipv4_prefix, limits.ipv6_prefix)


def client_key(address: str, ipv4_prefix: int, ipv6_prefix: int) -> str:
    """The bucket a client address counts in: its network of the given prefix.

    An IPv4 address written as IPv6 (``::ffff:192.0.2.1``, from a dual-stack
    socket) counts as the IPv4 address it is; anything that is not an IP
    address (a Unix socket, a test client's name) counts as itself.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        # A zone (``fe80::1%eth0``) names the link, not the client.
        ip = ip.ipv4_mapped or ipaddress.IPv6Address(ip.packed)
    prefix = ipv4_prefix if ip.version == 4 else ipv6_prefix
    return str(ipaddress.ip_network((ip, prefix), strict=False))


def in_networks(address: str, networks: Networks) -> bool:
    """Whether *address* is in one of *networks* (False for what is no address)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


async def _refuse(scope: Scope, send: Send, retry_after: int) -> None:
    if scope["type"] == "websocket":
        # Closing before accepting refuses the handshake (HTTP 403).
        await send({"type": "websocket.close", "code": 1008, "reason": "rate_limited"})
        return
    await send_refusal(
        scope,
        send,
        status=429,
        code="rate_limited",
        detail=f"Too many requests from this address; try again in {retry_after} s."
        " Nothing was changed.",
        template="too_many.html",
        context={"retry_after": retry_after},
        headers=[(b"retry-after", str(retry_after).encode())],
    )
