"""Security headers on every response, as pure ASGI middleware.

- ``Content-Security-Policy``: scripts, styles, images and connections only
  from this site; no inline script or style except the pages' import map,
  allowed by its hash (it is the same text on every page). ``frame-ancestors
  'none'`` keeps the pages out of other sites' frames, so nobody can lay a
  host's table under a decoy and trick a tap on Start or Remove bot.
- ``X-Frame-Options: DENY`` says the same to browsers that predate
  ``frame-ancestors``.
- ``X-Content-Type-Options: nosniff``: a download is never run as a script.
- ``Referrer-Policy: no-referrer``: the address of a page (an edit link
  holds its token) never travels to another request.
- ``Cache-Control: no-store`` on every answer that carries or sets an edit
  token (:func:`carries_token`): an edit page or form of a game or a group,
  an answer that sets its edit cookie or leads to an address with the
  token in its fragment (``#t=…``, ``#seat=…``), and every API write (a
  new game's answer holds its token). A phone passed round the table keeps
  no copy of them in its cache, whatever a page sets itself.

FastAPI's interactive API documentation (``/docs``, ``/redoc``) loads its
scripts from a CDN with an inline start script; those two pages get a
policy that allows exactly that, and nothing else does.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ligretto.web.rendering import import_map

_EDIT_PATH = re.compile(r"/(?:g|groups)/[^/]+/edit(?:/|$)")
_TOKEN_COOKIES = (b"tafel_edit_", b"tafel_group_")
_TOKEN_FRAGMENTS = (b"#t=", b"#seat=")
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def carries_token(scope: Scope, headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether an answer to *scope* with *headers* carries or sets an edit token."""
    path: str = scope.get("path", "")
    if _EDIT_PATH.match(path):
        return True
    if scope.get("method") in _WRITES and path.startswith("/api/"):
        return True
    for name, value in headers:
        lowered = name.lower()
        if lowered == b"set-cookie" and value.startswith(_TOKEN_COOKIES):
            return True
        if lowered == b"location" and any(f in value for f in _TOKEN_FRAGMENTS):
            return True
    return False


_CDN = "https://cdn.jsdelivr.net"
_DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


@cache
def content_security_policy() -> str:
    """The policy of every page and API answer (see the module docstring)."""
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' {_hash(import_map())}",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "font-src 'self'",
            "manifest-src 'self'",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        f"script-src 'self' 'unsafe-inline' {_CDN}",
        f"style-src 'self' {_CDN}",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        "frame-ancestors 'none'",
    ]
)


class SecurityHeaders:
    """Add the headers above to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope["path"] in _DOCS_PATHS else content_security_policy()
        extra = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if carries_token(scope, headers):
                    headers = [h for h in headers if h[0].lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in extra if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
