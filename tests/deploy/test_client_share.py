"""One client cannot take the process: past its share it is refused, and others are answered.

Against a real ``ligretto serve`` whose connection cap is set low
(``LIGRETTO_MAX_CONNECTIONS=80``, so one client's share is 20): one address
(127.0.0.2) opens as many connections as the whole cap — bodies that
trickle, live-update streams, idle sockets opened again as fast as they are
closed — while another address (127.0.0.1) goes on asking. The attack
measured against a process used 950 connections against a cap of 924; the
share logic is the same at 80. At least 95 % of the other address's
requests must be answered, and the attacker's connections past its share
are answered 429 with ``Retry-After``. Behind a trusted proxy the share
counts the address the proxy forwards.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from helpers.logged_server import LoggedServer, running
from helpers.raw_http import WAIT, Exchange, connect, request_head
from ligretto.web.client_share import RETRY_AFTER_SECONDS

pytestmark = pytest.mark.slow

MAX_CONNECTIONS = 80
SHARE = 20  # a quarter (LIGRETTO_CLIENT_SHARE's default)
ATTACKER = "127.0.0.2"
ANSWERED = 0.95


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    folder = tmp_path_factory.mktemp("share")
    # The trickling bodies are held for the whole test, not refused for their pace.
    env = {"LIGRETTO_MAX_CONNECTIONS": str(MAX_CONNECTIONS), "LIGRETTO_BODY_TIMEOUT": "120"}
    yield from running(folder, env=env)


@pytest.fixture(scope="module")
def behind_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    folder = tmp_path_factory.mktemp("share-proxied")
    env = {
        "LIGRETTO_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
        "LIGRETTO_TRUSTED_PROXIES": '["127.0.0.1"]',
    }
    yield from running(folder, env=env)


def _new_game(base: str) -> dict[str, str]:
    with httpx.Client(base_url=base, timeout=WAIT) as client:
        body = {"players": ["Anna", "Ben"], "mode": "target", "target": 1000}
        game: dict[str, str] = client.post("/api/games", json=body).json()
    return game


def _others_answered(base: str, game: dict[str, str]) -> float:
    """The share of another address's requests answered with success: /healthz,
    a game's board, a round entered."""
    statuses = []
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    with httpx.Client(base_url=base, timeout=WAIT) as client:
        for n in range(20):
            statuses.append(client.get("/healthz").status_code)
            statuses.append(client.get(f"/api/games/{game['id']}").status_code)
            stacks = [0, 3] if n % 2 else [3, 0]
            rounds = f"/api/games/{game['id']}/rounds"
            statuses.append(client.post(rounds, json={"stacks": stacks}, headers=auth).status_code)
            statuses.append(
                client.put(f"{rounds}/{n + 1}", json={"middle": [10, 10]}, headers=auth).status_code
            )
    return sum(200 <= status < 300 for status in statuses) / len(statuses)


def _hold(stack: ExitStack, port: int, head: bytes, then: bytes = b"") -> list[Exchange]:
    """The whole cap's worth of connections from the attacker, each sent *head* (and *then*)."""
    exchanges = []
    for _ in range(MAX_CONNECTIONS):
        exchange = stack.enter_context(Exchange(port, ATTACKER))
        exchange.send(head + then)
        exchanges.append(exchange)
    return exchanges


def _past_share(exchanges: list[Exchange], refused: int) -> list[Exchange]:
    """The connections answered and closed, once *refused* of them are (or after WAIT)."""
    deadline = time.monotonic() + WAIT
    while sum(e.done.is_set() for e in exchanges) < refused and time.monotonic() < deadline:
        time.sleep(0.05)
    ended = [e for e in exchanges if e.done.is_set()]
    for exchange in ended:
        assert exchange.status == 429, exchange.answer[:200]
        assert exchange.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    return ended


def test_bodies_that_trickle_from_one_address_leave_the_others_answered(
    server: LoggedServer,
) -> None:
    game = _new_game(server.url)
    head = request_head(
        "POST",
        f"/api/games/{game['id']}/rounds",
        {
            "Authorization": f"Bearer {game['edit_token']}",
            "Content-Type": "application/json",
            "Content-Length": "1000",
        },
    )
    with ExitStack() as stack:
        exchanges = _hold(stack, server.port, head, b"{")
        refused = _past_share(exchanges, MAX_CONNECTIONS - SHARE)
        share = _others_answered(server.url, game)
        assert share >= ANSWERED, share
        assert len(refused) == MAX_CONNECTIONS - SHARE
        assert not any(e.answer for e in exchanges if e not in refused)  # still held


def test_live_update_streams_from_one_address_leave_the_others_answered(
    server: LoggedServer,
) -> None:
    game = _new_game(server.url)
    head = request_head("GET", f"/api/games/{game['id']}/events")
    with ExitStack() as stack:
        exchanges = _hold(stack, server.port, head)
        refused = _past_share(exchanges, MAX_CONNECTIONS - SHARE)
        share = _others_answered(server.url, game)
        assert share >= ANSWERED, share
        assert len(refused) == MAX_CONNECTIONS - SHARE
        streaming = [e for e in exchanges if e not in refused]
        assert all(e.answered.wait(WAIT) and e.status == 200 for e in streaming)


def test_idle_sockets_opened_again_as_fast_as_they_close_leave_the_others_answered(
    server: LoggedServer,
) -> None:
    game = _new_game(server.url)
    stopping = threading.Event()
    opened = 0

    def reopen() -> None:
        nonlocal opened
        sockets: list[socket.socket] = []
        while not stopping.is_set():
            sockets = [s for s in sockets if s.fileno() != -1]
            try:
                connection = connect(server.port, ATTACKER)
            except OSError:
                continue
            opened += 1
            connection.setblocking(False)
            sockets.append(connection)
            # Closed by the server (refused past the share): close ours and open anew.
            for held in sockets:
                try:
                    if held.recv(65536) == b"":
                        held.close()
                except BlockingIOError:
                    pass
                except OSError:
                    held.close()
            time.sleep(0.001)
        for held in sockets:
            held.close()

    attacker = threading.Thread(target=reopen, daemon=True)
    attacker.start()
    try:
        share = _others_answered(server.url, game)
    finally:
        stopping.set()
        attacker.join(WAIT)
    assert opened > MAX_CONNECTIONS
    assert share >= ANSWERED, share


def test_behind_a_trusted_proxy_the_share_counts_the_forwarded_client(
    behind_proxy: LoggedServer,
) -> None:
    game = _new_game(behind_proxy.url)
    path = f"/api/games/{game['id']}/events"
    attacker, other = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "203.0.113.8"}
    with ExitStack() as stack:
        streams = []
        for _ in range(SHARE + 5):
            exchange = stack.enter_context(Exchange(behind_proxy.port))
            exchange.send(request_head("GET", path, attacker))
            streams.append(exchange)
        refused = _past_share(streams, 5)
        assert len(refused) == 5
        assert all(e.json()["code"] == "too_many_at_once" for e in refused)
        with httpx.Client(base_url=behind_proxy.url, timeout=WAIT) as client:
            board = f"/api/games/{game['id']}"
            assert client.get(board, headers=other).status_code == 200
            assert client.get(board, headers=attacker).status_code == 429
        streaming = [e for e in streams if e not in refused]
        assert all(e.answered.wait(WAIT) and e.status == 200 for e in streaming)
