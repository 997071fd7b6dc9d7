"""No single request stalls a server process: while the largest group the limits
allow is imported, exported and counted, ``/healthz`` and a Tafel entry on
another game still answer at once (issue 29).

Against a real ``ligretto serve`` on a free port of 127.0.0.1, on SQLite and
(when a test server is given) PostgreSQL. The one test here measures answer
times: the limits exist to bound them, so it asserts generous bounds (p99
under 250 ms, none over 1 s) — the issue measured 30 s and more.
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

import httpx
import pytest

from ligretto.serve_process import ServeProcess, environment_without_database_url
from ligretto.tafel import Game
from ligretto.tafel.group_exchange import group_to_json
from ligretto.tafel.limits import MAX_GROUP_ROUNDS
from ligretto.tafel.stats import PlayedGame
from ligretto.web.limits import GROUP_IMPORT_LIMIT, GROUP_IMPORT_VALUES, json_values

pytestmark = pytest.mark.slow

PLAYERS = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Frida"]
ROUNDS_PER_GAME = 100
P99_BOUND = 0.25
WORST_BOUND = 1.0
OVERLOADED = 2.0
"""Load average per core past which the p99 bound is not judged."""


@cache
def largest_group() -> bytes:
    """A group export of MAX_GROUP_ROUNDS rounds of six players (a family's lifetime)."""
    start = datetime(2006, 1, 1, 19, tzinfo=UTC)
    played = []
    for index in range(MAX_GROUP_ROUNDS // ROUNDS_PER_GAME):
        game = Game(PLAYERS, mode="rounds", agreed_rounds=ROUNDS_PER_GAME)
        for n in range(1, ROUNDS_PER_GAME + 1):
            caller = (index + n) % len(PLAYERS)
            stacks = [0 if seat == caller else (seat + n) % 10 + 1 for seat in range(6)]
            middle = [10 + (seat * n) % 20 for seat in range(6)]
            game.open_round(stacks)
            game.complete_round(n, middle, confirm=True)
        played.append(PlayedGame(f"g{index}", start + timedelta(days=2 * index), game))
    data = group_to_json(
        group_id="family", version=1, name="Family", members=PLAYERS, season=None, games=played
    )
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    assert len(body) <= GROUP_IMPORT_LIMIT and json_values(body) <= GROUP_IMPORT_VALUES
    return body


class Prober:
    """Asks ``/healthz`` and enters a round on another game, again and again, timing each."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        created = self.client.post(
            "/api/games", json={"players": ["Anna", "Ben"], "mode": "target", "target": 1000}
        ).json()
        self.game, self.token = created["id"], created["edit_token"]
        self.times: dict[str, list[float]] = {"healthz": [], "entry": []}
        self.failures: list[str] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.rounds = 0

    def __enter__(self) -> Prober:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=60)
        self.client.close()

    def _timed(self, what: str, method: str, path: str, **kwargs: object) -> None:
        started = time.perf_counter()
        answer = self.client.request(method, path, **kwargs)  # type: ignore[arg-type]
        self.times[what].append(time.perf_counter() - started)
        if answer.status_code >= 300:
            self.failures.append(f"{method} {path}: {answer.status_code} {answer.text[:200]}")

    def _run(self) -> None:
        auth = {"Authorization": f"Bearer {self.token}"}
        while not self.stopping.is_set():
            self._timed("healthz", "GET", "/healthz")
            # A round where each player calls in turn: the totals sink, the game goes on.
            self.rounds += 1
            caller = self.rounds % 2
            stacks = [0, 10] if caller == 0 else [10, 0]
            middle = [10, 0] if caller == 0 else [0, 10]
            rounds = f"/api/games/{self.game}/rounds"
            self._timed("entry", "POST", rounds, json={"stacks": stacks}, headers=auth)
            self._timed(
                "entry", "PUT", f"{rounds}/{self.rounds}", json={"middle": middle}, headers=auth
            )
            self.stopping.wait(0.05)


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServeProcess]:
    env = environment_without_database_url()
    if not database_url.startswith("sqlite"):
        env["LIGRETTO_DATABASE_URL"] = database_url
    process = ServeProcess(tmp_path / "data", env)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def _import(client: httpx.Client, body: bytes) -> str:
    answer = client.post(
        "/api/groups/import", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 201, answer.text[:500]
    group_id: str = answer.json()["id"]
    return group_id


def _export(client: httpx.Client, group_id: str) -> int:
    size = 0
    with client.stream("GET", f"/api/groups/{group_id}/export.json") as answer:
        assert answer.status_code == 200
        for piece in answer.iter_bytes():
            size += len(piece)
    return size


def _stats(client: httpx.Client, group_id: str) -> None:
    for _ in range(600):
        answer = client.get(f"/api/groups/{group_id}/stats")
        if answer.status_code == 200:
            return
        assert answer.status_code == 202, answer.text
        time.sleep(0.1)
    raise AssertionError("the statistics were never ready")


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def test_the_largest_group_import_export_and_stats_never_stall_other_requests(
    server: ServeProcess,
) -> None:
    body = largest_group()
    client = httpx.Client(base_url=server.base, timeout=120)
    with client, Prober(server.base) as prober:
        first = _import(client, body)
        # Then its export and its first statistics at once.
        errors: list[BaseException] = []

        def run(work: object) -> None:
            try:
                work()  # type: ignore[operator]
            except BaseException as error:  # reported below, in this thread
                errors.append(error)

        sizes: list[int] = []
        jobs = [
            threading.Thread(target=run, args=(lambda: sizes.append(_export(client, first)),)),
            threading.Thread(target=run, args=(lambda: _stats(client, first),)),
        ]
        for job in jobs:
            job.start()
        for job in jobs:
            job.join()
        assert not errors, errors
    assert sizes and sizes[0] > len(body) / 2
    assert not prober.failures, prober.failures[:3]
    report: dict[str, object] = {"peak_rss_mb": round(_peak_rss_mb(server.pid))}
    report["loop_lag_ms"] = httpx.get(f"{server.base}/healthz").json()["loop_lag_ms"]
    for what, times in prober.times.items():
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
        report[what] = {
            "n": len(ordered),
            "median_ms": round(statistics.median(ordered) * 1000),
            "p99_ms": round(p99 * 1000),
            "max_ms": round(ordered[-1] * 1000),
        }
        assert len(ordered) >= 20, report
        assert ordered[-1] < WORST_BOUND, report
    print(report)
    # A machine already running more than twice as many busy processes as it
    # has cores keeps any runnable thread waiting for a core for hundreds of
    # milliseconds, whatever the server does: p99 then says nothing about it.
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    if load > OVERLOADED:
        pytest.skip(f"the machine is overloaded ({load:.1f} per core): p99 not judged; {report}")
    for what, figures in report.items():
        if isinstance(figures, dict) and "p99_ms" in figures:
            assert figures["p99_ms"] < P99_BOUND * 1000, (what, report)
