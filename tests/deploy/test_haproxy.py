"""Several ``ligretto serve`` processes on one PostgreSQL database behind the shipped
HAProxy configuration (issue 14): live Tafel updates cross processes, every request
of one table code reaches one process, rate limits see the real client and hold
for the whole deployment, and a process's change listener survives losing its
connection."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from limits import parse
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from helpers.haproxy import HAProxy
from helpers.haproxy_stack import LOOKUPS_PER_MINUTE, WAIT, Stack, client, start_stack
from helpers.haproxy_stack import health as _health
from helpers.haproxy_stack import wait_until as _wait_until
from ligretto.web.ratelimit import RateLimits

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)

PLAYERS = ["Anna", "Ben", "Cleo"]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> Iterator[Stack]:
    started = start_stack(tmp_path_factory.mktemp("stack"), database_url)
    try:
        yield started
    finally:
        started.stop()


def _versions(stream: httpx.Response) -> Iterator[int]:
    """The versions an event stream announces, as they come (pings skipped)."""
    event = ""
    for line in stream.iter_lines():
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "version":
            yield int(json.loads(line.split(":", 1)[1])["version"])


def _new_game(base: str) -> tuple[str, dict[str, str]]:
    with client(base) as c:
        created = c.post("/api/games", json={"players": PLAYERS, "target": 500})
        assert created.status_code == 201, created.text
        body = created.json()
        return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


def _enter_round(base: str, gid: str, auth: dict[str, str], number: int) -> None:
    with client(base, headers=auth) as c:
        opened = c.post(f"/api/games/{gid}/rounds", json={"stacks": [0, 4, 6]})
        assert opened.status_code == 201, opened.text
        done = c.put(f"/api/games/{gid}/rounds/{number}", json={"middle": [12, 8, 6]})
        assert done.status_code == 200, done.text


@postgres_only
def test_t6_a_watcher_on_process_b_sees_a_round_entered_through_process_a(stack: Stack) -> None:
    gid, auth = _new_game(stack.a.base)
    with client(stack.b.base) as watcher, watcher.stream("GET", f"/api/games/{gid}/events") as s:
        assert s.headers["x-ligretto-process"] == "proc-b"
        versions = _versions(s)
        assert next(versions) == 1
        _enter_round(stack.a.base, gid, auth, 1)  # two writes on process A: 2 and 3
        assert _next_at_least(versions, 3) == 3
    # The same through the proxy: a stream on whichever process, writes on any.
    with client(stack.proxy.url) as watcher, watcher.stream("GET", f"/api/games/{gid}/events") as s:
        versions = _versions(s)
        assert next(versions) == 3
        seen: set[str] = set()
        for number in (2, 3):  # round robin: the writes land on both processes
            with client(stack.proxy.url, headers=auth) as writer:
                for answer in (
                    writer.post(f"/api/games/{gid}/rounds", json={"stacks": [0, 4, 6]}),
                    writer.put(f"/api/games/{gid}/rounds/{number}", json={"middle": [12, 8, 6]}),
                ):
                    assert answer.is_success, answer.text
                    seen.add(answer.headers["x-ligretto-process"])
        assert seen == {"proc-a", "proc-b"}
        assert _next_at_least(versions, 7) == 7


def _next_at_least(versions: Iterator[int], want: int) -> int:
    for version in versions:
        if version >= want:
            return version
    raise AssertionError("the stream ended")


@postgres_only
def test_every_request_for_one_table_code_reaches_the_process_that_opened_it(
    stack: Stack,
) -> None:
    opened: dict[str, str] = {}
    with client(stack.proxy.url) as c:
        for _ in range(6):
            answer = c.post("/api/tables", json={"seats": 2, "name": "Anna"})
            assert answer.status_code == 201, answer.text
            assert answer.headers["x-ligretto-table"] == answer.json()["code"]
            opened[answer.json()["code"]] = answer.headers["x-ligretto-process"]
        assert set(opened.values()) == {"proc-a", "proc-b"}  # opened round robin
        for code, owner in opened.items():
            page = c.get(f"/play/{code}")
            assert (page.status_code, page.headers["x-ligretto-process"]) == (200, owner)
            info = c.get(f"/api/tables/{code.lower()}")  # codes are found in any case
            assert (info.status_code, info.headers["x-ligretto-process"]) == (200, owner)
            link = c.post(f"/play/{code}/seat-link", json={"token": "not-a-seat-token"})
            assert link.json()["code"] == "bad_token"  # the table was found
            assert link.headers["x-ligretto-process"] == owner
            with ws_connect(
                f"ws://127.0.0.1:{stack.proxy.port}/play/{code}/ws",
                proxy=None,
                source_address=("127.0.0.2", 0),
            ) as ws:
                assert ws.response is not None
                assert ws.response.headers["X-Ligretto-Process"] == owner
        # A code nobody opened goes where its hash points, every time.
        misses = [c.get(path) for path in ("/api/tables/ZZZZZZ", "/play/zzzzzz", "/play/ZZZZZZ")]
        assert [m.status_code for m in misses] == [404, 404, 404]
        assert len({m.headers["x-ligretto-process"] for m in misses}) == 1


@postgres_only
def test_rate_limits_count_the_client_behind_the_proxy_and_nobody_can_claim_another_address(
    stack: Stack,
) -> None:
    lookup = "/api/tables/YYYYYY"  # one code: always the same process
    with client(stack.proxy.url, source="127.0.0.3") as first:
        answers = [first.get(lookup).status_code for _ in range(LOOKUPS_PER_MINUTE)]
        assert answers == [404] * LOOKUPS_PER_MINUTE
        refused = first.get(lookup)
        assert refused.status_code == 429
        owner = refused.headers["x-ligretto-process"]
        # Claiming to be somebody else does not help: the proxy drops the claim.
        spoofed = first.get(lookup, headers={"X-Forwarded-For": "192.0.2.7"})
        assert spoofed.status_code == 429
    with client(stack.proxy.url, source="127.0.0.4") as second:
        # Another person behind the same proxy has a budget of their own, and
        # cannot spend the first one's by naming their address.
        assert second.get(lookup).status_code == 404
        assert second.get(lookup, headers={"X-Forwarded-For": "127.0.0.3"}).status_code == 404
    # Straight to the process, bypassing the proxy: not a trusted proxy, so
    # its X-Forwarded-For is not believed either.
    direct_base = stack.a.base if owner == "proc-a" else stack.b.base
    with client(direct_base, source="127.0.0.5") as direct:
        assert direct.get(lookup, headers={"X-Forwarded-For": "127.0.0.3"}).status_code == 404


# The proxy's limits are the processes' defaults (tests/deploy/test_haproxy_config.py).
TABLES_PER_MINUTE = parse(RateLimits().create_table).amount
GAMES_PER_MINUTE = parse(RateLimits().create_game).amount
TABLE = {"seats": 2, "name": "Anna"}


@postgres_only
def test_opening_tables_is_limited_for_the_whole_deployment_not_per_process(
    stack: Stack,
) -> None:
    # The processes here allow 1,000 a minute each: what refuses is the proxy.
    with client(stack.proxy.url, source="127.0.0.7") as first:
        opened = [first.post("/api/tables", json=TABLE) for _ in range(TABLES_PER_MINUTE)]
        assert [a.status_code for a in opened] == [201] * TABLES_PER_MINUTE
        by_process = [a.headers["x-ligretto-process"] for a in opened]
        # Round robin: each process saw about half, well under a process's limit.
        assert by_process.count("proc-a") < TABLES_PER_MINUTE
        assert by_process.count("proc-b") < TABLES_PER_MINUTE
        refused = first.post("/api/tables", json=TABLE)
        assert refused.status_code == 429
        assert refused.json() == {
            "detail": "Too many requests from this address; try again in 60 s. "
            "Nothing was changed.",
            "code": "rate_limited",
        }
        assert refused.headers["retry-after"] == "60"
        assert "x-ligretto-process" not in refused.headers  # no process was asked
        # The pages' forms share the limit and get a page (in the three languages).
        page = first.post("/play/quick", data={"name": "Anna"}, follow_redirects=False)
        assert page.status_code == 429
        assert page.headers["content-type"].startswith("text/html")
        assert "Too many requests" in page.text and "Zu viele Anfragen" in page.text
        # Naming somebody else does not help: the proxy counts the address it sees.
        spoofed = first.post("/api/tables", json=TABLE, headers={"X-Forwarded-For": "127.0.0.8"})
        assert spoofed.status_code == 429
    with client(stack.proxy.url, source="127.0.0.8") as second:
        assert second.post("/api/tables", json=TABLE).status_code == 201


def _request_from(port: int, source: str, path: str, body: dict[str, Any]) -> tuple[int, str, str]:
    """POST ``body`` as JSON through a proxy that takes the client's address from
    the PROXY protocol header: as if it came from ``source``. The status, the
    headers (lower-cased) and the body."""
    payload = json.dumps(body).encode()
    head = (
        f"PROXY TCP6 {source} ::1 50000 {port}\r\n"
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(head + payload)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status_line, _, rest = answer.decode("latin-1").partition("\r\n")
    headers, _, text = rest.partition("\r\n\r\n")
    return int(status_line.split()[1]), headers.lower(), text


@postgres_only
def test_the_proxy_counts_an_ipv6_client_by_its_64(stack: Stack, tmp_path: Path) -> None:
    """The shipped configuration, told the client's address by the PROXY
    protocol (the only change), since the loopback has one IPv6 address."""
    proxy = HAProxy(tmp_path, [stack.a.port, stack.b.port], bind_options="accept-proxy")
    proxy.start()
    try:
        game = {"players": PLAYERS, "target": 500}
        statuses = [
            _request_from(proxy.port, f"2001:db8:1:2::{n:x}", "/api/games", game)[0]
            for n in range(1, GAMES_PER_MINUTE + 1)
        ]
        assert statuses == [201] * GAMES_PER_MINUTE  # each from another address
        status, headers, body = _request_from(
            proxy.port, "2001:db8:1:2:ffff::1", "/api/games", game
        )
        assert (status, json.loads(body)["code"]) == (429, "rate_limited")
        assert "x-ligretto-process" not in headers  # refused by the proxy
        assert _request_from(proxy.port, "2001:db8:1:3::1", "/api/games", game)[0] == 201
    finally:
        proxy.stop()


@postgres_only
def test_the_change_listener_reconnects_after_its_backend_is_terminated(stack: Stack) -> None:
    gid, auth = _new_game(stack.a.base)
    admin = create_engine(stack.database_url)

    def listener_pids() -> list[int]:
        with admin.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT pid FROM pg_stat_activity "
                    "WHERE application_name = 'ligretto-listener proc-b'"
                )
            )
            return [int(pid) for pid in rows.scalars()]

    try:
        with (
            client(stack.b.base) as watcher,
            watcher.stream("GET", f"/api/games/{gid}/events") as s,
        ):
            versions = _versions(s)
            assert next(versions) == 1
            (old,) = listener_pids()
            with admin.begin() as conn:
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": old})
            _wait_until(lambda: len(pids := listener_pids()) == 1 and pids[0] != old)
            _wait_until(lambda: _health(stack.b.base)["live_updates"] == "listening")
            _enter_round(stack.a.base, gid, auth, 1)
            assert _next_at_least(versions, 3) == 3
    finally:
        admin.dispose()


@postgres_only
def test_the_proxys_log_never_holds_an_old_edit_links_token(stack: Stack) -> None:
    with client(stack.proxy.url) as c:
        created = c.post("/api/games", json={"players": PLAYERS}).json()
    game_id, secret = created["id"], created["edit_token"]
    with client(stack.proxy.url) as c:
        for path in (
            f"/g/{game_id}/edit/{secret}",
            f"/g/{game_id}/edit/{secret}/history",
            f"/g/{game_id}/%65dit/{secret}",  # percent-encoded: the process decodes it
        ):
            moved = c.get(path)
            assert moved.status_code == 303, (path, moved.status_code)
            assert moved.headers["location"].endswith(f"#t={secret}")
        assert c.get(f"/g/{game_id}/edit/history").status_code == 200

    def logged() -> bool:
        return f"/g/{game_id}/edit/history HTTP" in stack.proxy.log_path.read_text()

    _wait_until(logged)
    log = stack.proxy.log_path.read_text()
    assert secret not in log
    assert log.count(f"/g/{game_id}/edit/[token]") == 3
    assert f"/g/{game_id}/edit/[token]/history" in log


@postgres_only
def test_healthz_names_the_process_and_is_not_rate_limited(stack: Stack) -> None:
    with client(stack.b.base, source="127.0.0.6") as c:
        answers = [c.get("/healthz") for _ in range(LOOKUPS_PER_MINUTE + 5)]
    assert {a.status_code for a in answers} == {200}
    assert {k: v for k, v in answers[0].json().items() if k != "loop_lag_ms"} == {
        "status": "ok",
        "process": "proc-b",
        "database": "ok",
        "live_updates": "listening",
    }
    assert answers[0].headers["x-ligretto-process"] == "proc-b"
    assert answers[0].headers["cache-control"] == "no-store"


@postgres_only
def test_when_a_process_dies_the_tafel_carries_on_through_the_proxy(
    tmp_path: Path, database_url: str
) -> None:
    own = start_stack(tmp_path, database_url)
    try:
        gid, auth = _new_game(own.proxy.url)
        _enter_round(own.proxy.url, gid, auth, 1)
        own.b.kill()  # SIGKILL: no goodbye
        for number in range(2, 6):  # the proxy retries elsewhere, then marks it down
            _enter_round(own.proxy.url, gid, auth, number)
        with client(own.proxy.url) as c:
            game = c.get(f"/api/games/{gid}")
        assert game.headers["x-ligretto-process"] == "proc-a"
        rounds = [(r["n"], r["complete"]) for r in game.json()["rounds"]]
        assert rounds == [(n, True) for n in range(1, 6)]
    finally:
        own.stop()


def _receive(ws: Any, *types: str, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if message["type"] in types:
            return message
    raise AssertionError(f"no {types} within {limit} messages")


class Person:
    """One person at a table through the proxy: joins, keeps the newest view,
    plays the first legal move (a card to the middle when there is one), and
    agrees to "We're stuck" when the table offers it (R4: a deal where no
    card fits anywhere ends only so)."""

    def __init__(self, url: str, code: str, join: dict[str, Any]) -> None:
        # Entered like ``with ws_connect(...)``; :meth:`close` closes it.
        self.ws = ws_connect(f"{url}/play/{code}/ws", proxy=None).__enter__()
        self.ws.send(json.dumps({"v": 1, "type": "join", **join}))
        welcome = _receive(self.ws, "welcome", "refused")
        if welcome["type"] == "refused":
            self.ws.close()
            raise ConnectionRefusedError(welcome["code"])
        self.token: str = welcome["token"]
        self.seat: int = welcome["seat"]
        self.process = (self.ws.response.headers if self.ws.response else {})["X-Ligretto-Process"]
        self.views: dict[int, dict[str, Any]] = {}
        self.last: dict[str, Any] | None = None
        self.over: dict[str, Any] | None = None
        self.ref = 0
        self.stuck_offered = False
        self.agreed = False

    def read(self) -> None:
        """Everything that has arrived, without waiting."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.01))
            except TimeoutError:
                return
            self._note(message)

    def drain(self) -> None:
        """Everything the server sent until the connection closed (its process died)."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=WAIT))
            except (ConnectionClosed, TimeoutError):
                return
            self._note(message)

    def _note(self, message: dict[str, Any]) -> None:
        if message["type"] in ("view", "events"):
            self.views[message["seq"]] = message["view"]
            self.last = message
        elif message["type"] == "round_over":
            self.over = message
        elif message["type"] == "table":
            self.stuck_offered = bool(message["table"].get("stuck_offered"))
            self.agreed = self.agreed and self.stuck_offered  # a new offer, a new answer

    def move(self) -> None:
        if self.last is None or self.over is not None:
            return
        if self.stuck_offered and not self.agreed:
            self.agreed = True
            self.ws.send(json.dumps({"v": 1, "type": "stuck"}))
            return
        actions = self.last["view"]["actions"]
        plays = [a for a in actions if a["kind"] == "play"]
        if actions:
            self.ref += 1
            text = (plays or actions)[0]["text"]
            self.ws.send(json.dumps({"v": 1, "type": "move", "action": text, "ref": self.ref}))

    def close(self) -> None:
        self.ws.close()


def _rejoin(url: str, code: str, join: dict[str, Any]) -> Person:
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the table did not come back"
        try:
            return Person(url, code, join)
        except (OSError, TimeoutError, ConnectionClosed, ConnectionRefusedError) as exc:
            # The proxy has not noticed yet, or the dead process's lease still
            # holds the table (try_again, 1013): the pages try again too.
            assert not isinstance(exc, ConnectionRefusedError) or str(exc) == "try_again"
            time.sleep(0.5)


@postgres_only
def test_when_a_process_dies_its_online_table_moves_to_another_with_the_same_cards(
    tmp_path: Path, database_url: str
) -> None:
    """Two people and a bot through the proxy; the process that serves the
    table is killed mid-round. Once its lease has run out (2 s here, 15 s by
    default) the process the proxy sends the people to takes the table over
    from the database: the same seat tokens, the same cards, the round
    resumes and is played to its end, and it lands on the table's Tafel game."""
    own = start_stack(tmp_path, database_url, {"LIGRETTO_TABLE_LEASE": "2"})
    url = f"ws://127.0.0.1:{own.proxy.port}"
    try:
        with client(own.proxy.url) as c:
            created = c.post(
                "/api/tables",
                json={
                    "seats": 3,
                    "name": "Anna",
                    "end": {"mode": "rounds", "rounds": 1},
                    "bots": [{"strategy": "greedy", "level": "easy"}],
                },
            )
        assert created.status_code == 201, created.text
        code, host = created.json()["code"], created.json()["host_token"]
        owner = created.headers["x-ligretto-process"]
        anna = Person(url, code, {"host_token": host})
        ben = Person(url, code, {"name": "Ben"})
        assert anna.process == ben.process == owner
        anna.ws.send(json.dumps({"v": 1, "type": "start"}))
        people = [anna, ben]
        deadline = time.monotonic() + 30
        while max(anna.views, default=0) < 8:  # after the countdown, into the round
            assert time.monotonic() < deadline, "no moves"
            time.sleep(0.2)
            for p in people:
                p.read()
                p.move()
        (own.a if owner == "proc-a" else own.b).kill()
        for p in people:
            p.drain()  # every view the process sent before it died
            p.close()
        seen = {p.seat: dict(p.views) for p in people}
        assert max(seen[0]) > 3, "moves were made before the process died"
        anna = _rejoin(url, code, {"token": anna.token, "host_token": host})
        ben = _rejoin(url, code, {"token": ben.token})
        people = [anna, ben]
        for p in people:
            assert p.process != owner
            p.read()
            view = next(iter(p.views.items()), None)
            assert view is not None
            seq, cards = view
            # Where it stood: a view the seat saw (at most the moves of the
            # last 50 ms before the kill are gone).
            assert seq in seen[p.seat] and cards == seen[p.seat][seq], seq
        # A deal may leave no card that fits: then the table offers "We're
        # stuck" after 45 s without a card to the middle, and both agree.
        deadline = time.monotonic() + 180
        while anna.over is None or ben.over is None:
            assert time.monotonic() < deadline, "the round did not end"
            time.sleep(0.1)
            for p in people:
                p.read()
                p.move()
        assert anna.over["game_over"] is True
        with client(own.proxy.url) as c:
            info = c.get(f"/api/tables/{code}").json()
            game_id = info["tafel_game"]
            game = c.get(f"/api/games/{game_id}").json()
        assert [r["complete"] for r in game["rounds"]] == [True]
        assert game["status"] == "finished"
        # The round shown at the table is the round on the board (seat order).
        assert list(game["rounds"][0]["stacks"].values()) == anna.over["stacks"]
        assert list(game["rounds"][0]["middle"].values()) == anna.over["middle"]
        for p in people:
            p.close()
    finally:
        own.stop()
