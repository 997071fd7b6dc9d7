"""``/metrics`` of two ``ligretto serve`` processes sharing one metrics directory,
scraped through the shipped HAProxy's ``metrics`` frontend: whichever process
answers reports both, the counters move with what either did, and a process
that is killed takes its seats and tables out of the sums but not its counts."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from helpers.haproxy import HAProxy
from helpers.metrics import Samples, scrape, total
from ligretto.child_process import free_port
from ligretto.serve_process import ServeProcess, environment_without_database_url

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)

WAIT = 60.0  # seconds to wait for what must happen; never a speed claim
PLAYERS = {"players": ["Anna", "Ben"], "mode": "target", "target": 99}
CREATED = {"route": "/api/games", "method": "POST", "status": "201"}


def _until(url: str, holds: Callable[[Samples], bool]) -> Samples:
    """Scrape ``url`` until what it shows ``holds``; the last scrape."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            samples = scrape(url)
            if holds(samples):
                return samples
        except httpx.HTTPError:
            pass  # the proxy has not seen the process up (or down) yet
        assert time.monotonic() < deadline, "the metrics never showed it"
        time.sleep(0.2)


def _create_games(base: str, count: int) -> None:
    with httpx.Client(base_url=base, trust_env=False, timeout=30) as c:
        for _ in range(count):
            assert c.post("/api/games", json=PLAYERS).status_code == 201


@postgres_only
def test_any_process_reports_both_and_a_killed_ones_seats_leave_the_sums(
    tmp_path: Path, database_url: str
) -> None:
    env = environment_without_database_url() | {
        "LIGRETTO_DATABASE_URL": database_url,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
    }
    ports = {name: free_port() for name in ("proc-a", "proc-b")}
    processes = [
        ServeProcess(
            tmp_path / name,
            env,
            ["--process-id", name, "--metrics-address", f"127.0.0.1:{port}"],
        )
        for name, port in ports.items()
    ]
    proxy: HAProxy | None = None
    try:
        for process in processes:
            process.start()
        a, b = processes
        proxy = HAProxy(tmp_path, [a.port, b.port], metrics_servers=list(ports.values()))
        proxy.start()
        through = f"{proxy.metrics_url}/metrics"
        direct = [f"http://127.0.0.1:{port}/metrics" for port in ports.values()]

        # Games created on each process are counted once, whoever is asked.
        _create_games(a.base, 2)
        _create_games(b.base, 3)
        for url in [through, through, through, *direct]:
            _until(url, lambda s: total(s, "ligretto_http_requests_total", **CREATED) == 5)

        # A person at a table of process B, with two bots; one move, refused
        # before the game starts, is received and answered.
        with httpx.Client(base_url=b.base, trust_env=False, timeout=30) as c:
            created = c.post(
                "/api/tables",
                json={
                    "seats": 3,
                    "name": "Anna",
                    "bots": [{"strategy": "greedy", "level": "easy"}] * 2,
                },
            )
        assert created.status_code == 201, created.text
        code, host = created.json()["code"], created.json()["host_token"]
        with ws_connect(f"ws://127.0.0.1:{b.port}/play/{code}/ws", proxy=None) as ws:
            ws.send(json.dumps({"v": 1, "type": "join", "host_token": host}))
            ws.send(json.dumps({"v": 1, "type": "move", "action": "turn", "ref": 1}))
            while json.loads(ws.recv(timeout=WAIT))["type"] != "refused":
                pass
            seated = _until(
                through,
                lambda s: (
                    total(s, "ligretto_moves_answered_total") == 1
                    and total(s, "ligretto_seats", occupant="person") == 1
                ),
            )
            assert total(seated, "ligretto_moves_received_total") == 1
            assert total(seated, "ligretto_move_answer_seconds_count") == 1
            assert total(seated, "ligretto_seats", occupant="bot") == 2
            assert total(seated, "ligretto_tables", phase="lobby") == 1
            b.kill()
        # B's seats and table leave the sums at the next scrape; what it counted stays.
        after = _until(
            direct[0],
            lambda s: total(s, "ligretto_seats") == 0 and total(s, "ligretto_tables") == 0,
        )
        assert total(after, "ligretto_http_requests_total", **CREATED) == 5
        assert total(after, "ligretto_moves_received_total") == 1
        _until(through, lambda s: total(s, "ligretto_seats", occupant="bot") == 0)
    finally:
        if proxy is not None:
            proxy.stop()
        for process in processes:
            process.stop()
