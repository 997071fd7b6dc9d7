"""A refused body costs the process nothing: it is refused before it is read, and never read after.

Against a real ``ligretto serve``: a group import of four times the import
limit, sent with ``Content-Length`` and chunked, while ``/healthz`` is asked
again and again. What holds on any machine is asserted: the refusal came
while the client had sent only a part of the body, the client could not
send the rest, the answer arrived and the connection ended in order (not
with a reset, which may destroy an answer on its way), the process's peak
memory grew by less than the limit, and ``/healthz`` was answered
throughout. How fast is ``benchmarks/refusals.py``'s to measure.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import httpx
import pytest

from helpers.group_load import peak_rss_mb
from helpers.large_bodies import oversized_import
from helpers.raw_http import WAIT, Exchange, HealthProbe, chunked, connect, pieces, request_head
from ligretto.serve_process import ServeProcess, environment_without_database_url
from ligretto.web.limits import GROUP_IMPORT_LIMIT, MIB

pytestmark = pytest.mark.slow

PAUSE = 0.001
"""Seconds between two 64 KiB pieces of a body: the client sends no faster than
the server could read, so the kernel's buffers stay nearly empty and the count
of bytes sent is the count of bytes the server took."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    # The rate limits would refuse the repeated imports first (they have tests of their own).
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    process = ServeProcess(tmp_path_factory.mktemp("refusals") / "data", env)
    process.start()
    try:
        with httpx.Client(base_url=process.base, timeout=WAIT) as client:
            # Warm: the paths a refusal runs through have run once.
            for _ in range(3):
                assert client.post("/api/groups/import", json={}).status_code == 422
        yield process
    finally:
        process.stop()


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_an_import_past_its_limit_is_refused_before_the_rest_is_read(
    server: ServeProcess, framing: str
) -> None:
    body = oversized_import()
    assert len(body) > 4 * GROUP_IMPORT_LIMIT
    headers = {"Content-Type": "application/json"}
    if framing == "chunked":
        headers["Transfer-Encoding"] = "chunked"
        sent = chunked(pieces(body))
    else:
        headers["Content-Length"] = str(len(body))
        sent = pieces(body)
    memory_before = peak_rss_mb(server.pid)
    with HealthProbe(server.base) as probe, Exchange(server.port) as exchange:
        exchange.send(request_head("POST", "/api/groups/import", headers))
        exchange.send_all(sent, pause=PAUSE)
        assert exchange.wait()
        probe.answered(2)
    report = {
        "sent_at_answer_mib": (exchange.sent_at_answer or 0) / MIB,
        "sent_mib": exchange.sent / MIB,
        "body_mib": len(body) / MIB,
        "memory_mb": (memory_before, peak_rss_mb(server.pid)),
        "ended": exchange.ended,
    }
    assert exchange.status == 413, report
    assert exchange.json()["code"] == "too_large"
    assert exchange.headers["connection"] == "close"
    # Refused while the client had sent only a part (with Content-Length: at
    # once; chunked: when the JSON values passed their bound, before the bytes
    # passed theirs), and the rest never read: the client could not send it.
    assert exchange.sent_at_answer is not None
    assert exchange.sent_at_answer < GROUP_IMPORT_LIMIT, report
    assert exchange.sent < len(body) / 2, report
    assert exchange.ended == "eof", report  # the answer, then the server's orderly end
    assert (peak_rss_mb(server.pid) - memory_before) * 1e6 < GROUP_IMPORT_LIMIT, report
    assert len(probe.statuses) >= 3 and set(probe.statuses) == {200}, probe.statuses


def test_an_answer_before_the_body_ends_the_connection_without_reading_the_rest(
    server: ServeProcess,
) -> None:
    """uvicorn would read and throw away the rest of a body it has answered, to keep
    the connection: here 30 MiB of a group import of the wrong content type."""
    declared = 30 * MIB
    with Exchange(server.port) as exchange:
        head = {"Content-Type": "text/plain", "Content-Length": str(declared)}
        exchange.send(request_head("POST", "/api/groups/import", head))
        exchange.send_all((b" " * 65536 for _ in range(declared // 65536)), pause=PAUSE)
        assert exchange.wait()
    assert exchange.status == 422, exchange.answer[:300]
    assert exchange.headers["connection"] == "close"
    assert exchange.sent < declared / 2, exchange.sent
    assert exchange.ended == "eof", exchange.ended


def test_a_body_read_whole_keeps_its_connection(server: ServeProcess) -> None:
    """Answers after the whole body keep the connection for the next request."""
    with connect(server.port) as connection:
        body = json.dumps({"players": ["Anna", "Ben"]}).encode()
        head = {"Content-Type": "application/json", "Content-Length": str(len(body))}
        for _ in range(2):
            connection.sendall(request_head("POST", "/api/games", head) + body)
            answer = _read_answer(connection)
            assert answer.startswith(b"HTTP/1.1 201 "), answer[:200]
            assert b"connection: close" not in answer.lower()
        connection.sendall(request_head("GET", "/healthz"))
        assert _read_answer(connection).startswith(b"HTTP/1.1 200 ")


def _read_answer(connection: socket.socket) -> bytes:
    """One answer with a Content-Length, read whole."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(rest) < length:
        rest += connection.recv(65536)
    return head + b"\r\n\r\n" + rest
