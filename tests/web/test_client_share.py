"""One client may hold only its share of requests in progress; past it, 429 and nothing runs.

The middleware is driven by hand: requests held open (a live-update stream,
a body still coming) by one client, then one more from it and one from
another client. A real process holding its share against a real client is
``tests/deploy/test_client_share.py``.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.types import Message, Receive, Scope, Send

from ligretto.web.client_share import RETRY_AFTER_SECONDS, ClientCounts, ClientShare, per_client
from ligretto.web.ratelimit import RateLimits


def _scope(client: str, path: str = "/api/games/x/events", **more: object) -> Scope:
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [],
        "client": (client, 4000),
        **more,
    }


class _Held:
    """An app whose requests stay in progress until released; it counts what ran."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.ran = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.ran += 1
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})


async def _request(app: ClientShare, scope: Scope) -> list[Message]:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def test_a_client_past_its_share_is_refused_and_another_client_is_not() -> None:
    async def scenario() -> None:
        held = _Held()
        share = ClientShare(held, RateLimits(), limit=3)
        streams = [asyncio.create_task(_request(share, _scope("192.0.2.7"))) for _ in range(3)]
        await asyncio.sleep(0.01)  # at least a turn each: ready tasks run before timers
        refused = await _request(share, _scope("192.0.2.7"))
        assert refused[0]["status"] == 429
        headers = dict(refused[0]["headers"])
        assert headers[b"retry-after"] == str(RETRY_AFTER_SECONDS).encode()
        assert json.loads(refused[1]["body"])["code"] == "too_many_at_once"
        page = await _request(share, _scope("192.0.2.7", "/groups/x", query_string=b"lang=nb"))
        assert page[0]["status"] == 429 and "For mye på en gang" in page[1]["body"].decode()
        other = asyncio.create_task(_request(share, _scope("192.0.2.8")))
        await asyncio.sleep(0.01)  # at least a turn each: ready tasks run before timers
        assert held.ran == 4  # the other client's request runs; the refused ones never did
        held.release.set()
        for answer in [*await asyncio.gather(*streams), await other]:
            assert answer[0]["status"] == 200
        again = await _request(share, _scope("192.0.2.7"))
        assert again[0]["status"] == 200  # its requests ended: its share is free again

    asyncio.run(scenario())


def test_an_ipv6_client_is_its_64_and_a_proxys_client_the_address_it_forwards() -> None:
    async def scenario() -> None:
        held = _Held()
        share = ClientShare(held, RateLimits(trusted_proxies=("127.0.0.1",)), limit=1)
        first = asyncio.create_task(_request(share, _scope("2001:db8:1:2::1")))
        behind = asyncio.create_task(
            _request(share, _scope("127.0.0.1", headers=[(b"x-forwarded-for", b"192.0.2.9")]))
        )
        await asyncio.sleep(0.01)  # at least a turn each: ready tasks run before timers
        same_64 = await _request(share, _scope("2001:db8:1:2:ffff::9"))
        assert same_64[0]["status"] == 429
        same_client = await _request(
            share, _scope("127.0.0.1", headers=[(b"x-forwarded-for", b"192.0.2.9")])
        )
        assert same_client[0]["status"] == 429
        assert held.ran == 2
        held.release.set()
        assert [(await first)[0]["status"], (await behind)[0]["status"]] == [200, 200]

    asyncio.run(scenario())


def test_a_websocket_past_the_share_is_refused_before_it_opens() -> None:
    async def scenario() -> None:
        held = _Held()
        share = ClientShare(held, RateLimits(), limit=1)
        first = asyncio.create_task(_request(share, _scope("192.0.2.7")))
        await asyncio.sleep(0.01)  # at least a turn each: ready tasks run before timers
        refused = await _request(share, _scope("192.0.2.7", "/play/ABCD/ws", type="websocket"))
        assert refused == [{"type": "websocket.close", "code": 1013, "reason": "too_many_at_once"}]
        held.release.set()
        await first

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("connections", "share", "each"),
    [(924, 0.25, 231), (80, 0.25, 20), (3, 0.1, 1), (None, 0.25, None)],
)
def test_the_share_is_a_part_of_the_connection_cap(
    connections: int | None, share: float, each: int | None
) -> None:
    assert per_client(connections, share) == each


def test_counts_are_given_back() -> None:
    counts = ClientCounts(2)
    assert counts.take("a") and counts.take("a") and not counts.take("a") and counts.take("b")
    counts.give_back("a")
    assert counts.take("a")
    counts.give_back("a")
    counts.give_back("a")
    counts.give_back("b")
    assert counts.held == {}
