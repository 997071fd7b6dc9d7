"""``Idempotency-Key`` on the API's writes: a retry gets the first answer, never a second write.

Pure ASGI middleware in front of every ``POST``, ``PUT``, ``PATCH`` and
``DELETE`` under ``/api/`` that carries the header (docs/tafel-api.md,
"Idempotency-Key"); a request without it passes untouched. With the key:

- the first request runs; a 2xx answer is kept (status, headers, body) in
  the database by :class:`~ligretto.store.idempotency.IdempotencyStore`;
- a retry with the same key and the same request (method, path, query,
  body) gets the kept answer again, with ``Idempotent-Replayed: true``,
  and writes nothing;
- the same key with another request: 422 ``idempotency_key_reused``;
- the same key while its first request still runs: 409 ``idempotency_key_in_use``;
- a key that is no 1–255 visible ASCII characters: 400 ``bad_idempotency_key``;
- a new key beyond the bounds of :class:`~ligretto.store.idempotency.KeyLimits`
  (per token, or per client for a write without one; per client for all
  its tokens): 429 ``idempotency_key_rate`` or ``too_many_idempotency_keys``
  with ``Retry-After``, before the write runs (it changes nothing).

A key is found again only by its owner: the write's token, or for a write
without one (creating a game or a group) the client that sent it, counted
as the rate limits count clients. Another client sending the same key and
body gets a write of its own, never the first one's answer (which holds
the new game's edit token).

A refusal or failure (4xx, 5xx) is not kept: it changed nothing, so a retry
with the same key runs anew (after a 409 version conflict, say, with a fresh
``If-Match``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ligretto.store.errors import StoreBusyError
from ligretto.store.idempotency import (
    MAX_KEY_LENGTH,
    Claim,
    IdempotencyStore,
    KeptAnswer,
    KeyRefusal,
    fingerprint,
    is_valid_key,
)
from ligretto.web.errors import error_body
from ligretto.web.ratelimit import RateLimits, request_client

HEADER = b"idempotency-key"
REPLAYED = "idempotent-replayed"
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Sent again by the server for every answer, not kept with it.
_NOT_KEPT = frozenset({"content-length", "date", "server"})


def parse_key(values: list[bytes]) -> str | None:
    """The key of the header's values, or None if it is not one valid key.

    The draft writes the key as a structured-field string (``"abc"``); a key
    without the quotes is taken too, as most clients send it.
    """
    if len(values) != 1:
        return None
    try:
        text = values[0].decode("ascii").strip()
    except UnicodeDecodeError:
        return None
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return text if is_valid_key(text) else None


class IdempotentWrites:
    """The middleware: looks the key up before the route runs, keeps a 2xx answer after."""

    def __init__(
        self, app: ASGIApp, store: IdempotencyStore, clients: RateLimits | None = None
    ) -> None:
        self.app = app
        self.store = store
        self.clients = clients or RateLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in _WRITES
            or not scope["path"].startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return
        values = [v for k, v in scope["headers"] if k == HEADER]
        if not values:
            await self.app(scope, receive, send)
            return
        key = parse_key(values)
        if key is None:
            await _error(
                send,
                400,
                "bad_idempotency_key",
                f"Idempotency-Key must be one key of 1 to {MAX_KEY_LENGTH} visible ASCII"
                " characters",
            )
            return
        body = await _read_body(receive)
        if body is None:  # the client went away while sending
            return
        method, path = scope["method"], scope["path"]
        credential = b"".join(v for k, v in scope["headers"] if k == b"authorization")
        client = request_client(scope, self.clients)
        try:
            claim: Claim = await run_in_threadpool(
                lambda: self.store.claim(
                    key,
                    scope=f"{method} {path}",
                    credential=credential.decode("latin-1"),
                    client=client,
                    request_hash=fingerprint(method, path, scope.get("query_string", b""), body),
                )
            )
        except StoreBusyError as error:  # outside the app's handlers: answered here
            await _error(
                send,
                503,
                "busy",
                str(error),
                headers=[(b"retry-after", str(error.retry_after).encode())],
            )
            return
        if claim.state == "refused":
            assert claim.refusal is not None
            await _refuse(send, claim.refusal)
            return
        if claim.state == "different":
            await _error(
                send,
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was used for another request; send a new key",
            )
            return
        if claim.state == "running":
            await _error(
                send,
                409,
                "idempotency_key_in_use",
                "the first request with this Idempotency-Key is still running; try again",
                headers=[(b"retry-after", b"1")],
            )
            return
        if claim.state == "done":
            assert claim.answer is not None
            await _replay(send, claim.answer)
            return
        await self._run(scope, receive, send, key, claim, body)

    async def _run(
        self, scope: Scope, receive: Receive, send: Send, key: str, claim: Claim, body: bytes
    ) -> None:
        """Run the request with its body read already; keep a 2xx answer, then send it."""
        sent_body = False

        async def replay_receive() -> Message:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        start: Message | None = None
        chunks: list[bytes] = []
        complete = False

        async def capture(message: Message) -> None:
            nonlocal start, complete
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                complete = not message.get("more_body", False)

        try:
            await self.app(scope, replay_receive, capture)
        except BaseException:
            await self._settle(self.store.release, claim.key_id)
            raise
        if start is None or not complete:
            await self._settle(self.store.release, claim.key_id)
            return
        status = int(start["status"])
        raw_headers: list[tuple[bytes, bytes]] = list(start.get("headers", []))
        content = b"".join(chunks)
        if 200 <= status < 300:
            headers = [
                (n.decode("latin-1"), v.decode("latin-1"))
                for n, v in raw_headers
                if n.decode("latin-1").lower() not in _NOT_KEPT
            ]
            # Kept before the answer leaves: a retry that races the answer
            # finds the key done, not still running.
            await self._settle(
                self.store.keep, key, claim.key_id, KeptAnswer(status, headers, content)
            )
        else:
            await self._settle(self.store.release, claim.key_id)
        await send({"type": "http.response.start", "status": status, "headers": raw_headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    @staticmethod
    async def _settle(work: Callable[..., None], *args: object) -> None:
        """Keep or release the key; a database too busy for it does not lose the answer.

        The key then stays "running" until
        :data:`~ligretto.store.idempotency.ABANDONED` has passed.
        """
        with contextlib.suppress(StoreBusyError):
            await run_in_threadpool(work, *args)


PARAMETER: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "A key of the client's choosing, new for each write and sent again"
    " unchanged with a retry of it: the retry gets the first answer"
    " (Idempotent-Replayed: true) instead of writing twice (docs/tafel-api.md)",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
}
_ANSWERS: dict[str, str] = {
    "400": "Idempotency-Key is not 1-255 visible ASCII characters",
    "409": "the first request with this Idempotency-Key still runs",
    "422": "this Idempotency-Key was used for another request",
    "429": "more new Idempotency-Keys than a token or a client may store (Retry-After)",
}


def document(app: FastAPI) -> None:
    """Name the header, and the answers it can bring, on every write of ``/api/`` in OpenAPI."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        for path, operations in schema.get("paths", {}).items():
            if not path.startswith("/api/"):
                continue
            for method, operation in operations.items():
                if method.upper() not in _WRITES:
                    continue
                operation.setdefault("parameters", []).append(PARAMETER)
                answers = operation.setdefault("responses", {})
                for status, description in _ANSWERS.items():
                    answers.setdefault(
                        status,
                        {
                            "description": description,
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/ErrorOut"}
                                }
                            },
                        },
                    )
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (the size limit's middleware outside bounds it)."""
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)


async def _replay(send: Send, answer: KeptAnswer) -> None:
    if answer.body is None:
        # The first answer was too large to keep: say so, and where it led.
        location = [
            (b"location", v.encode("latin-1")) for n, v in answer.headers if n == "location"
        ]
        await _error(
            send,
            409,
            "idempotent_answer_not_kept",
            "the request with this Idempotency-Key was done, but its answer was too large"
            " to keep; read the result (Location) instead",
            headers=[*location, (REPLAYED.encode(), b"true")],
        )
        return
    headers = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in answer.headers]
    headers += [
        (b"content-length", str(len(answer.body)).encode()),
        (REPLAYED.encode(), b"true"),
    ]
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": answer.body, "more_body": False})


Sender = Callable[[Message], Awaitable[None]]


async def _refuse(send: Sender, refusal: KeyRefusal) -> None:
    """429 for a new key beyond the bounds, in the API's error shape, with Retry-After."""
    holder = "one token (or one client without a token)" if refusal.by == "owner" else "one client"
    if refusal.code == "idempotency_key_rate":
        said = f"at most {refusal.limit} writes with a new Idempotency-Key a minute for {holder}"
    else:
        said = f"at most {refusal.limit:,} Idempotency-Keys are kept for {holder} over 24 hours"
    await _error(
        send,
        429,
        refusal.code,
        f"{said}; try again in {refusal.retry_after} s, or send the write without a key."
        " Nothing was changed.",
        headers=[(b"retry-after", str(refusal.retry_after).encode())],
    )


async def _error(
    send: Sender,
    status: int,
    code: str,
    message: str,
    *,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """An answer in the API's error shape (:func:`~ligretto.web.api.errors.error_body`)."""
    content = json.dumps(error_body(code, message)).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content, "more_body": False})
