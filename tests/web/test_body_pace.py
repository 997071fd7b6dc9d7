"""A body that arrives slower than its pace is refused with 408 and reaches no route.

Its first *n* bytes must arrive within ``grace + n / min_rate`` seconds of
the headers (``BodyPace``). The middleware is driven here by hand, with a
client that sends part of a body and then nothing; a real process refusing
such a client is ``tests/deploy/test_request_bounds.py``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

import pytest
from starlette.types import Message, Receive, Scope, Send

from ligretto.web.limits import BodyLimits, BodyPace

Trickle = Callable[[], Awaitable[Message]]


async def _route(scope: Scope, receive: Receive, send: Send) -> None:
    """Reads the whole body, then answers 201 with its length (a route that saves)."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await send({"type": "http.response.start", "status": 201, "headers": []})
    await send({"type": "http.response.body", "body": str(len(body)).encode()})


def _trickle(pieces: list[bytes], pause: float, *, whole: bool = False) -> Trickle:
    """A client sending *pieces* *pause* seconds apart, then (unless the body
    is *whole* then) waiting for ever."""
    left = list(pieces)

    async def receive() -> Message:
        if not left:
            await asyncio.Event().wait()
        await asyncio.sleep(pause)  # at least this long between pieces
        piece = left.pop(0)
        return {"type": "http.request", "body": piece, "more_body": bool(left) or not whole}

    return receive


def _run(pace: BodyPace, path: str, receive: Trickle, query: bytes = b"") -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "query_string": query,
        "headers": [(b"content-type", b"application/json")],
    }
    asyncio.run(BodyLimits(_route, pace=pace)(scope, receive, send))
    return sent


def test_a_body_slower_than_its_pace_is_refused_with_408_and_the_route_answers_nothing() -> None:
    pace = BodyPace(grace=0.2, min_rate=100)
    # Ten bytes at once, then nothing: due after 0.2 + 10 / 100 = 0.3 s.
    answer = _run(pace, "/api/games", _trickle([b"x" * 10], 0.0))
    start, body = answer
    assert start["status"] == 408
    assert (b"connection", b"close") in start["headers"]
    assert json.loads(body["body"]) == {
        "detail": "The request body arrived too slowly (at least 100 bytes a second after"
        " the first 0.2 s); nothing was changed.",
        "code": "too_slow",
    }


def test_a_form_too_slow_gets_a_page_in_the_readers_language() -> None:
    answer = _run(BodyPace(grace=0.1), "/g/x/edit/stacks", _trickle([], 0.0), b"lang=de")
    start, body = answer
    assert start["status"] == 408
    assert dict(start["headers"])[b"content-type"].startswith(b"text/html")
    assert "Das Formular kam zu langsam an" in body["body"].decode()


def test_a_body_keeping_its_pace_is_read_to_its_end() -> None:
    # Five pieces as fast as they come: always within the pace (how late a
    # busy machine lets a piece come is not this test's to judge).
    steady = _trickle([b"x" * 20] * 5, 0.0, whole=True)
    answer = _run(BodyPace(grace=0.1, min_rate=100), "/api/games", steady)
    assert answer[0]["status"] == 201
    assert answer[1]["body"] == b"100"


def test_each_byte_moves_the_deadline_on_by_the_pace() -> None:
    pace = BodyPace(grace=0.2, min_rate=100)
    assert pace.due(0) == 0.2  # the first bytes within the grace
    assert pace.due(10) == 0.2 + 0.1  # then 100 bytes a second: 10 more bytes, 0.1 s more
    assert pace.due(1000) == 0.2 + 10.0


@pytest.mark.parametrize(("grace", "rate"), [(0, 100), (1, 0), (-1, 5)])
def test_a_pace_must_be_positive(grace: float, rate: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        BodyPace(grace=grace, min_rate=rate)
