"""A directly reached process bounds every request: its headers, its address, its body's pace.

Against a real ``ligretto serve`` on a free port of 127.0.0.1, with what no
client library sends: 48 MiB of short headers (which took a process from
119 MB to over 1 GB), one header value of 64 MiB (which held the event loop
for seconds), a hundred headers and one more, an address past 8 KiB, a body
a byte at a time. Each is refused with its status (431, 414, 408), changes
nothing, and leaves ``/healthz`` answered; the process's peak memory stays
under 300 MB.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from helpers.group_load import peak_rss_mb
from helpers.logged_server import LoggedServer, running
from helpers.raw_http import WAIT, Exchange, HealthProbe, request_head
from ligretto.web.http_protocol import MAX_HEADERS, MAX_URL_BYTES
from ligretto.web.limits import MIB

pytestmark = pytest.mark.slow

PEAK_MEMORY_MB = 300
"""The process's peak memory through every attack here (at rest: about 120 MB)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    """A process that gives a body one second before its pace applies."""
    folder = tmp_path_factory.mktemp("bounds")
    yield from running(folder, env={"LIGRETTO_BODY_TIMEOUT": "1"})


def _flood(server: LoggedServer, first: bytes, piece: bytes, total: int) -> Exchange:
    """A request that starts with *first*, goes on with *piece* up to *total* bytes
    and then ends its headers (if the server still reads)."""
    with HealthProbe(server.url) as probe, Exchange(server.port) as exchange:
        exchange.send(first)
        exchange.send_all(piece for _ in range(total // len(piece)))
        exchange.send(b"\r\n\r\n")
        assert exchange.wait()
        probe.answered(2)
    assert set(probe.statuses) == {200}, probe.statuses
    return exchange


def test_48_mib_of_short_headers_are_refused_with_431_and_memory_stays_bounded(
    server: LoggedServer,
) -> None:
    total = 48 * MIB
    exchange = _flood(
        server, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-A: b\r\n" * 8192, total
    )
    assert exchange.status == 431, exchange.answer[:200]
    assert "Request headers too large" in exchange.body.decode()
    assert exchange.sent < total / 2  # the server stopped reading
    assert peak_rss_mb(server.pid) < PEAK_MEMORY_MB


def test_one_64_mib_header_value_is_refused_with_431(server: LoggedServer) -> None:
    total = 64 * MIB
    head = b"GET /api/games/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
    exchange = _flood(server, head, b"v" * 65536, total)
    assert exchange.status == 431, exchange.answer[:200]
    assert exchange.json()["code"] == "headers_too_large"
    assert exchange.sent < total / 2
    assert peak_rss_mb(server.pid) < PEAK_MEMORY_MB


def _answer(server: LoggedServer, path: str, headers: dict[str, str] | None = None) -> Exchange:
    """A GET with *headers* and ``Connection: close``, read to the connection's end."""
    with Exchange(server.port) as exchange:
        exchange.send(request_head("GET", path, {**(headers or {}), "Connection": "close"}))
        assert exchange.wait()
    return exchange


def test_a_hundred_headers_pass_and_one_more_is_refused(server: LoggedServer) -> None:
    # Host and Connection count: 100 in all, then 101.
    extra = {f"X-H{n}": "1" for n in range(MAX_HEADERS - 2)}
    assert _answer(server, "/healthz", extra).status == 200
    extra["X-One-More"] = "1"
    refused = _answer(server, "/api/games/x", extra)
    assert refused.status == 431
    assert refused.json() == {
        "detail": "The request's headers are larger than the server reads (at most 100"
        " headers, 32 KiB together with the address). Nothing was changed.",
        "code": "headers_too_large",
    }


def test_an_address_past_8_kib_is_refused_with_414(server: LoggedServer) -> None:
    path = "/healthz?pad="
    fits = path + "x" * (MAX_URL_BYTES - len(path))
    assert _answer(server, fits).status == 200
    refused = _answer(server, fits + "x")
    assert refused.status == 414
    assert refused.headers["content-type"] == "text/html; charset=utf-8"
    assert "Adresse zu lang" in refused.body.decode()  # one page in en, de, nb
    api = _answer(server, "/api/games/" + "x" * MAX_URL_BYTES)
    assert api.status == 414 and api.json()["code"] == "url_too_long"


def test_a_body_a_byte_at_a_time_is_refused_with_408_and_saves_nothing(
    server: LoggedServer,
) -> None:
    with httpx.Client(base_url=server.url, timeout=WAIT) as client:
        game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
    body = b'{"stacks": [0, 3]}' + b" " * 82
    head = request_head(
        "POST",
        f"/api/games/{game['id']}/rounds",
        {
            "Authorization": f"Bearer {game['edit_token']}",
            "Content-Type": "application/json",
            "Content-Length": str(len(body)),
        },
    )
    with Exchange(server.port) as exchange:
        exchange.send(head)
        # A byte every quarter second: the whole body would take 25 s; its
        # pace allows one second and a kilobyte a second after it.
        for byte in body:
            if exchange.done.is_set() or not exchange.send(bytes([byte])):
                break
            exchange.done.wait(0.25)
        assert exchange.wait()
    assert exchange.status == 408, exchange.answer[:300]
    assert exchange.json()["code"] == "too_slow"
    assert exchange.ended == "eof"
    assert exchange.sent < len(head) + len(body)
    with httpx.Client(base_url=server.url, timeout=WAIT) as client:
        assert client.get(f"/api/games/{game['id']}").json()["rounds"] == []
