"""One ``ligretto serve`` process reached directly, without a proxy in front.

Idle connections are closed (a connection that never sends a request, or
sends its headers a byte at a time, no longer holds a file descriptor for
ever), a connection cap answers 503 beyond it, the access log never holds
an old edit link's token, and behind a trusted proxy that says the page came
over HTTPS the edit cookie is ``Secure`` and the page's own ``https``
origin is its own.
"""

from __future__ import annotations

import contextlib
import re
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from helpers.logged_server import LoggedServer, running

pytestmark = pytest.mark.slow

WAIT = 30.0  # seconds to wait for what must happen; never a speed claim
IDLE_SOCKETS = 50
MAX_CONNECTIONS = 20


def _connect(port: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    connection.settimeout(WAIT)
    return connection


def _closed_by_server(connection: socket.socket, deadline: float | None = None) -> bool:
    """Whether the server closed it (EOF or a reset, after any bytes it sent first)
    before *deadline* (``time.monotonic()``; default: :data:`WAIT` from now)."""
    deadline = time.monotonic() + WAIT if deadline is None else deadline
    connection.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        while connection.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


@pytest.fixture(scope="module")
def quick_timeouts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    """A process that gives a connection one second for its headers."""
    folder = tmp_path_factory.mktemp("exposed-timeouts")
    env = {"LIGRETTO_HEADER_TIMEOUT": "1", "LIGRETTO_KEEP_ALIVE_TIMEOUT": "1"}
    yield from running(folder, env=env)


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoggedServer]:
    """A process with a low connection cap, behind a (pretended) trusted proxy."""
    folder = tmp_path_factory.mktemp("exposed-capped")
    env = {
        "LIGRETTO_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
        "LIGRETTO_TRUSTED_PROXIES": '["127.0.0.1"]',
    }
    yield from running(folder, env=env)


def test_idle_connections_are_closed_and_the_next_request_is_answered(
    quick_timeouts: LoggedServer,
) -> None:
    port = quick_timeouts.port
    with contextlib.ExitStack() as stack:
        silent = [stack.enter_context(_connect(port)) for _ in range(IDLE_SOCKETS)]
        # Headers that never end (a byte at a time would look the same).
        slow = [stack.enter_context(_connect(port)) for _ in range(5)]
        for connection in slow:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        # A connection that had its answer and then says nothing more.
        answered = stack.enter_context(_connect(port))
        answered.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        deadline = time.monotonic() + WAIT
        for connection in [*silent, *slow, answered]:
            assert _closed_by_server(connection, deadline)
        with httpx.Client(base_url=quick_timeouts.url, timeout=WAIT) as client:
            assert client.get("/healthz").status_code == 200


def test_a_long_answer_is_not_cut_by_the_header_timeout(quick_timeouts: LoggedServer) -> None:
    """The deadline ends with the headers: a watcher's live stream stays open past it."""
    with httpx.Client(base_url=quick_timeouts.url, timeout=WAIT) as client:
        game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
        headers = {"Authorization": f"Bearer {game['edit_token']}"}
        with client.stream("GET", f"/api/games/{game['id']}/events") as stream:
            events = (line for line in stream.iter_lines() if line.startswith("data:"))
            assert '"version":1' in next(events).replace(" ", "")
            # A connection opened now is closed after one header timeout: by
            # then the stream has outlived the deadline too.
            with _connect(quick_timeouts.port) as probe:
                assert _closed_by_server(probe)
            with httpx.Client(base_url=quick_timeouts.url, timeout=WAIT) as writer:
                saved = writer.post(
                    f"/api/games/{game['id']}/rounds", json={"stacks": [0, 3]}, headers=headers
                )
                assert saved.status_code == 201, saved.text
            assert '"version":2' in next(events).replace(" ", "")


def test_beyond_the_connection_cap_a_request_is_answered_503(capped: LoggedServer) -> None:
    with contextlib.ExitStack() as stack:
        for _ in range(MAX_CONNECTIONS):
            stack.enter_context(_connect(capped.port))
        with httpx.Client(base_url=capped.url, timeout=WAIT) as client:
            assert client.get("/healthz").status_code == 503
    with httpx.Client(base_url=capped.url, timeout=WAIT) as client:
        assert client.get("/healthz").status_code == 200


def test_an_old_edit_link_leaves_no_token_in_the_access_log(capped: LoggedServer) -> None:
    with httpx.Client(base_url=capped.url, timeout=WAIT) as client:
        game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
        gid, token = game["id"], game["edit_token"]
        assert client.get(f"/g/{gid}/edit/{token}").status_code == 303
        assert client.get(f"/g/{gid}/edit/{token}/history?lang=de").status_code == 303
        old_form = client.post(f"/g/{gid}/edit/{token}/stacks", data={"stack-0": "0"})
        assert old_form.status_code == 307
        assert client.get(f"/g/{gid}/edit/wrong-token-of-someone-else").status_code == 403
        assert client.get(f"/g/{gid}/edit/history").status_code == 200
    log = capped.log()
    assert token not in log and "wrong-token-of-someone-else" not in log
    assert f'"GET /g/{gid}/edit/[token] HTTP/1.1" 303' in log
    assert f'"GET /g/{gid}/edit/[token]/history?lang=de HTTP/1.1" 303' in log
    assert f'"POST /g/{gid}/edit/[token]/stacks HTTP/1.1" 307' in log
    assert f'"GET /g/{gid}/edit/history HTTP/1.1" 200' in log  # page names stay readable


def test_behind_a_trusted_proxy_over_https_the_cookie_is_secure(capped: LoggedServer) -> None:
    https = {"X-Forwarded-Proto": "https"}
    with httpx.Client(base_url=capped.url, timeout=WAIT) as client:
        game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
        gid, token = game["id"], game["edit_token"]
        secure = client.get(f"/g/{gid}/edit/{token}", headers=https).headers["set-cookie"]
        plain = client.get(f"/g/{gid}/edit/{token}").headers["set-cookie"]
    assert re.search(r";\s*Secure\b", secure, re.I)
    assert not re.search(r"\bSecure\b", plain, re.I)
    # The page came over HTTPS: its own origin is the https one, the http one is foreign.
    with httpx.Client(base_url=capped.url, timeout=WAIT) as client:
        client.cookies.set(f"tafel_edit_{gid}", token, path=f"/g/{gid}/edit")
        own = {**https, "Origin": f"https://127.0.0.1:{capped.port}"}
        saved = client.post(
            f"/g/{gid}/edit/stacks", data={"stack-0": "0", "stack-1": "2"}, headers=own
        )
        assert saved.status_code == 303, saved.text
        downgraded = {**https, "Origin": f"http://127.0.0.1:{capped.port}"}
        refused = client.post(f"/g/{gid}/edit/undo", data={}, headers=downgraded)
        assert refused.status_code == 403
        assert client.get(f"/api/games/{gid}").json()["rounds_count"] == 1
