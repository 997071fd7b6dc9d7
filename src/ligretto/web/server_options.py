"""How uvicorn serves the app: options every way of starting it shares.

``ligretto serve`` and the in-process test server both take these, so the
limits tested are the limits served: the WebSocket protocol and its frame size, the idle
timeout of a connection, the connection cap, the protocol's bounds on
headers and on one client's connections (:mod:`ligretto.web.http_protocol`),
and an access log that never writes an edit token.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Sequence
from typing import Any, Final

from uvicorn.config import LOGGING_CONFIG

from ligretto.live.protocol import MAX_MESSAGE_BYTES
from ligretto.web.http_protocol import HttpBounds, bounded_protocol
from ligretto.web.ws_protocol import TableWebSocketProtocol

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


KEEP_ALIVE_SECONDS: Final = 5
"""An idle connection between two requests is closed after this (uvicorn's default)."""

FILE_DESCRIPTOR_RESERVE: Final = 100
"""File descriptors kept free of client connections below the process's
open-files limit: the database, the board process's pipes, log files."""


_EDIT_PAGES: Final = frozenset(
    {
        # A game's edit pages (pages/board.py, rounds.py, history.py) ...
        "board",
        "history",
        "rounds",
        "stacks",
        "middle",
        "undo",
        "finish",
        "score",
        "forget",  # pages/forget.py, for games and groups alike
        # ... and a group's (pages/groups.py, group_members.py).
        "games",
        "members",
        "add-game",
    }
)
_AFTER_EDIT: Final = re.compile(r"(/(?:g|groups)/[^/?#\s]+/edit/)([^/?#\s]+)")

REDACTED: Final = "[token]"


def redact_tokens(text: str) -> str:
    """*text* with every path segment after ``…/edit/`` that is not a page name redacted.

    An old edit link (``/g/{id}/edit/{token}…``, pages/legacy.py) still
    works, and its path carries the token; anything there that is not one
    of the edit pages' own names is taken for a token.
    """

    def replace(match: re.Match[str]) -> str:
        segment = match.group(2)
        return match.group(0) if segment in _EDIT_PAGES else match.group(1) + REDACTED

    return _AFTER_EDIT.sub(replace, text)


class RedactTokens(logging.Filter):
    """A filter for ``uvicorn.access``: the request line never holds an edit token."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_tokens(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        elif isinstance(record.msg, str):
            record.msg = redact_tokens(record.msg)
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactTokens` on its access log."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {
        "()": f"{RedactTokens.__module__}.{RedactTokens.__qualname__}"
    }
    config["loggers"]["uvicorn.access"]["filters"] = ["redact_tokens"]
    return config


def uvicorn_options(
    trusted_proxies: Sequence[str] = (),
    *,
    keep_alive: int = KEEP_ALIVE_SECONDS,
    max_connections: int | None = None,
    bounds: HttpBounds | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run``/``uvicorn.Config``.

    ``trusted_proxies`` (the settings' ``trusted_proxies``): only requests from
    these addresses or networks have their client address and scheme taken
    from ``X-Forwarded-For``/``X-Forwarded-Proto`` — the same proxies the rate
    limits believe. Without any, the headers are ignored (uvicorn's own default
    would believe them from 127.0.0.1).

    ``keep_alive`` closes idle connections (seconds); beyond ``max_connections``
    open connections a request is answered with 503 (uvicorn's
    ``limit_concurrency``; WebSockets count, none by default). ``bounds``: the
    header deadline and bounds, and one client's share of the connections
    (default: :class:`~ligretto.web.http_protocol.HttpBounds`' defaults, no share).
    """
    return {
        # uvicorn's WebSocket protocol with the tables' direct write (web/ws_protocol.py).
        "ws": TableWebSocketProtocol,
        "ws_max_size": WS_MAX_FRAME_BYTES,
        "ws_ping_interval": WS_PING_SECONDS,
        "ws_ping_timeout": WS_PING_SECONDS,
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": list(trusted_proxies),
        "http": bounded_protocol(bounds or HttpBounds(trusted_proxies=tuple(trusted_proxies))),
        "timeout_keep_alive": keep_alive,
        "limit_concurrency": max_connections,
        "log_config": log_config(),
    }
