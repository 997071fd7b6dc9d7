"""Several ``ligretto serve`` processes on one PostgreSQL database behind the shipped
HAProxy configuration (issue 14): live Tafel updates cross processes, every request
of one table code reaches one process, rate limits see the real client, and a
process's change listener survives losing its connection."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from helpers.haproxy import HAProxy
from ligretto.serve_process import ServeProcess, environment_without_database_url

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)

PLAYERS = ["Anna", "Ben", "Cleo"]
WAIT = 15.0  # seconds to wait for what must happen; never a speed claim
LOOKUPS_PER_MINUTE = 20


@dataclass
class Stack:
    """Processes ``proc-a`` and ``proc-b`` behind one HAProxy."""

    a: ServeProcess
    b: ServeProcess
    proxy: HAProxy
    database_url: str

    def stop(self) -> None:
        self.proxy.stop()
        for process in (self.a, self.b):
            process.stop()


def client(base: str, source: str = "127.0.0.2", **kwargs: Any) -> httpx.Client:
    """An HTTP client whose requests come from the loopback address ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=base, transport=transport, trust_env=False, timeout=10, **kwargs)


def start_stack(
    tmp_path: Path, database_url: str, extra_env: dict[str, str] | None = None
) -> Stack:
    env = environment_without_database_url()
    env |= extra_env or {}
    env |= {
        "LIGRETTO_DATABASE_URL": database_url,
        "LIGRETTO_RATE_LIMITS": "1",
        "LIGRETTO_RATE_TABLE_LOOKUP": f"{LOOKUPS_PER_MINUTE}/minute",
        "LIGRETTO_RATE_CREATE_TABLE": "1000/minute",
        "LIGRETTO_RATE_CREATE_GAME": "1000/minute",
    }
    processes = []
    for name in ("proc-a", "proc-b"):
        args = ["--trusted-proxy", "127.0.0.1", "--process-id", name]
        process = ServeProcess(tmp_path / name, env, args)
        process.start()
        processes.append(process)
    a, b = processes
    proxy = HAProxy(tmp_path, [a.port, b.port])
    stack = Stack(a, b, proxy, database_url)
    try:
        proxy.start()
        _wait_until(lambda: _health(a.base)["live_updates"] == "listening")
        _wait_until(lambda: _health(b.base)["live_updates"] == "listening")
        seen: set[str] = set()

        def proxy_reaches_both() -> bool:  # round robin
            with client(proxy.url) as through:
                seen.add(through.get("/healthz").json()["process"])
            return len(seen) == 2

        _wait_until(proxy_reaches_both)
    except BaseException:
        stack.stop()
        raise
    return stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> Iterator[Stack]:
    started = start_stack(tmp_path_factory.mktemp("stack"), database_url)
    try:
        yield started
    finally:
        started.stop()


def _wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            if condition():
                return
        except (httpx.HTTPError, KeyError):
            pass
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def _health(base: str) -> dict[str, Any]:
    with client(base) as c:
        answer: dict[str, Any] = c.get("/healthz").json()
        return answer


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
def test_healthz_names_the_process_and_is_not_rate_limited(stack: Stack) -> None:
    with client(stack.b.base, source="127.0.0.6") as c:
        answers = [c.get("/healthz") for _ in range(LOOKUPS_PER_MINUTE + 5)]
    assert {a.status_code for a in answers} == {200}
    assert answers[0].json() == {
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


@postgres_only
def test_when_a_process_dies_its_online_table_moves_to_another_with_the_same_cards(
    tmp_path: Path, database_url: str
) -> None:
    """The process that serves a table is killed: once its lease has run out
    (2 s here, 15 s by default) the process the proxy sends the table's
    people to takes the table over from the database, and the same seat
    token plays on with the same cards."""
    own = start_stack(tmp_path, database_url, {"LIGRETTO_TABLE_LEASE": "2"})
    url = f"ws://127.0.0.1:{own.proxy.port}"
    try:
        with client(own.proxy.url) as c:
            created = c.post(
                "/api/tables",
                json={
                    "seats": 2,
                    "name": "Anna",
                    "bots": [{"strategy": "greedy", "level": "easy"}],
                },
            )
        assert created.status_code == 201, created.text
        code, host = created.json()["code"], created.json()["host_token"]
        owner = created.headers["x-ligretto-process"]
        with ws_connect(f"{url}/play/{code}/ws", proxy=None) as ws:
            ws.send(json.dumps({"v": 1, "type": "join", "host_token": host}))
            token = _receive(ws, "welcome")["token"]
            ws.send(json.dumps({"v": 1, "type": "start"}))
            phase = ""
            while phase != "playing":
                phase = _receive(ws, "table")["table"]["phase"]
            seen: dict[int, dict[str, Any]] = {}
            for ref in range(3):
                view = _receive(ws, "view", "events")
                seen[view["seq"]] = view["view"]
                action = view["view"]["actions"][0]["text"]
                ws.send(json.dumps({"v": 1, "type": "move", "action": action, "ref": ref}))
            time.sleep(0.5)  # the journal's batches are written (50 ms each)
        (own.a if owner == "proc-a" else own.b).kill()
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "the table did not come back"
            try:
                with ws_connect(f"{url}/play/{code}/ws", proxy=None) as ws:
                    assert ws.response is not None
                    ws.send(json.dumps({"v": 1, "type": "join", "token": token}))
                    answer = _receive(ws, "welcome", "refused")
                    if answer["type"] == "refused":
                        assert answer["code"] == "try_again", answer
                        time.sleep(0.5)
                        continue
                    assert answer["seat"] == 0
                    assert ws.response.headers["X-Ligretto-Process"] != owner
                    view = _receive(ws, "view")
                    # Where it stood: the last view seen, or a later one
                    # (answers still on their way when the process died).
                    assert view["seq"] >= max(seen)
                    if view["seq"] in seen:
                        assert view["view"] == seen[view["seq"]]
                    countdown = _receive(ws, "countdown")
                    assert countdown["resume"] is True
                    break
            except (OSError, TimeoutError, ConnectionClosed):
                # The proxy has not noticed yet, or the table is still held
                # by the dead process's lease (try_again, 1013).
                time.sleep(0.5)
    finally:
        own.stop()
