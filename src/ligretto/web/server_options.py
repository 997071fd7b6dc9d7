"""How uvicorn serves the app: options every way of starting it shares.

``ligretto serve`` and the in-process test server both take these, so the
limits tested are the limits served.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ligretto.live.protocol import MAX_MESSAGE_BYTES

WS_MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES
"""The largest WebSocket message the server reads at all (8 KiB).

uvicorn's default (16 MiB) let 30 connections hold 1 GB before the
protocol's own 2 KiB check could refuse a message. Up to this size a long
message is read and refused by the protocol with ``too_large`` (the
connection stays); beyond it the server closes the connection with 1009
without buffering the rest.
"""

WS_PING_SECONDS = 20.0
"""Ping idle WebSocket connections this often; one that does not answer is closed."""


def uvicorn_options(trusted_proxies: Sequence[str] = ()) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config``.

    ``trusted_proxies`` (the settings' ``trusted_proxies``): only requests from
    these addresses or networks have their client address and scheme taken
    from ``X-Forwarded-For``/``X-Forwarded-Proto`` — the same proxies the rate
    limits believe. Without any, the headers are ignored (uvicorn's own default
    would believe them from 127.0.0.1).
    """
    return {
        "ws_max_size": WS_MAX_FRAME_BYTES,
        "ws_ping_interval": WS_PING_SECONDS,
        "ws_ping_timeout": WS_PING_SECONDS,
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": list(trusted_proxies),
    }
