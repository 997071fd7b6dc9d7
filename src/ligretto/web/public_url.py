"""The server's address in shared links and QR codes: configured, or where a request arrived.

A watch link, an invite link or a QR code names the server by its full
address. It never comes from the request's ``Host`` header: any client
can send any ``Host``, and a QR code drawn from it was one client's to
poison (a link to another site) and to make expensive (a long ``Host``
took a quarter of a second of the event loop to draw, one of 2,340
characters no longer fitted a QR code and answered 500).

- With ``LIGRETTO_PUBLIC_URL`` (``ligretto serve --public-url``) every
  link starts with it: what a deployment behind a proxy sets, its name as
  people type it (``https://ligretto.example.org``).
- Without it, the address the connection reached: the server's own socket
  (uvicorn's ``scope["server"]``, the interface and port a phone in the
  room connected to), with the scheme the request came with (``https``
  only from a trusted proxy). A server on a Unix socket has none, and its
  links stay relative.

QR codes of these links are drawn once per address and kept
(``ligretto.web.qr``), so they cost a request nothing after the first.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

__all__ = ["MAX_PUBLIC_URL", "absolute", "checked_public_url", "public_base", "served_address"]

MAX_PUBLIC_URL = 200
"""Characters of a configured public URL at most: every QR code of a link
on it stays small (a QR code holds at most 2,331 bytes)."""


def checked_public_url(value: str) -> str:
    """*value* as a public URL: ``http`` or ``https``, a host, an optional port, nothing more.

    Returned without a trailing slash; :class:`ValueError` says what is wrong.
    """
    text = value.strip().rstrip("/")
    if len(text) > MAX_PUBLIC_URL:
        raise ValueError(f"a public URL has at most {MAX_PUBLIC_URL} characters")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("a public URL is http:// or https:// and a host, e.g. https://example.org")
    if parts.path or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError("a public URL is a scheme, a host and a port only, without a path")
    try:
        parts.port  # noqa: B018 - raises for a port that is no number or out of range
    except ValueError as error:
        raise ValueError(f"the public URL's port: {error}") from None
    return f"{parts.scheme}://{parts.netloc}"


def served_address(scope: Any) -> str:
    """The address a connection reached: scheme, the server's socket address and port.

    ``""`` when the server listens on a Unix socket (links stay relative).
    """
    server = scope.get("server")
    if not server or server[1] is None:
        return ""
    host, port = str(server[0]), int(server[1])
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme"))
    if scheme not in ("http", "https"):
        scheme = "http"
    if ":" in host:  # IPv6
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


def public_base(connection: HTTPConnection) -> str:
    """The start of every shared link: the configured public URL, else :func:`served_address`."""
    settings = getattr(connection.app.state, "settings", None)
    configured: str | None = getattr(settings, "public_url", None)
    return configured or served_address(connection.scope)


def absolute(connection: HTTPConnection, path: str) -> str:
    """*path* on this server as a full URL (for sharing and QR codes), never from ``Host``."""
    return public_base(connection) + path
