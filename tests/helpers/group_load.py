"""The largest group the limits allow, imported, exported and counted while other requests run.

Shared by ``tests/web/test_group_load.py`` (which asserts what must hold:
every probe answered, memory bounded) and ``benchmarks/group_load.py``
(which measures how fast the probes were answered, against the same server
idle). Both run a real ``ligretto serve`` (:func:`serve`).

The scenario (:func:`attack`): the group of :data:`MAX_GROUP_ROUNDS` rounds
of six players is imported, then its export and its first statistics are
asked for at once. Meanwhile a :class:`Prober` asks ``/healthz`` and enters
rounds on an unrelated game, again and again, timing each answer.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from ligretto.serve_process import ServeProcess, environment_without_database_url
from ligretto.tafel import Game
from ligretto.tafel.group_exchange import group_to_json
from ligretto.tafel.limits import MAX_GROUP_ROUNDS, MAX_MEMBERS
from ligretto.tafel.stats import PlayedGame
from ligretto.web.limits import GROUP_IMPORT_LIMIT, GROUP_IMPORT_VALUES, json_values

PLAYERS = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Frida"]
ROUNDS_PER_GAME = 100


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
    if len(body) > GROUP_IMPORT_LIMIT or json_values(body) > GROUP_IMPORT_VALUES:
        raise AssertionError("the largest group no longer fits the import's limits")
    return body


WIDE_SEATS = 16
"""Players of each game of the widest group: ordinary playing cards seat 16 (R1)."""


@cache
def widest_group(rounds: int) -> bytes:
    """A group export of MAX_MEMBERS members and games of 16 players, *rounds* in all.

    The widest group the import takes: each round of 16 players counts about
    108 JSON values, so the import's count of values (GROUP_IMPORT_VALUES)
    stops it near 23,000 rounds, before MAX_GROUP_ROUNDS.
    """
    members = [f"Member {n:03d}" for n in range(MAX_MEMBERS)]
    start = datetime(2006, 1, 1, 19, tzinfo=UTC)
    played = []
    for index in range(rounds // 10):
        players = [members[(index * 7 + k) % MAX_MEMBERS] for k in range(WIDE_SEATS)]
        game = Game(players, mode="rounds", agreed_rounds=10, deck="cards")
        for n in range(1, 11):
            caller = (index + n) % WIDE_SEATS
            stacks = [0 if s == caller else (s + n) % 10 + 1 for s in range(WIDE_SEATS)]
            game.open_round(stacks)
            game.complete_round(n, [10 + (s * n) % 20 for s in range(WIDE_SEATS)], confirm=True)
        played.append(PlayedGame(f"g{index}", start + timedelta(days=index), game))
    data = group_to_json(
        group_id="wide", version=1, name="Wide", members=members, season=None, games=played
    )
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    if len(body) > GROUP_IMPORT_LIMIT or json_values(body) > GROUP_IMPORT_VALUES:
        raise AssertionError("the widest group no longer fits the import's limits")
    return body


@contextmanager
def serve(data_dir: Path, database_url: str | None = None) -> Iterator[ServeProcess]:
    """A started ``ligretto serve`` on SQLite in *data_dir*, or on *database_url*."""
    # The probes ask far faster than a person would (tests/web/test_rate_limits.py
    # tests the limits on their own).
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    if database_url is not None and not database_url.startswith("sqlite"):
        env["LIGRETTO_DATABASE_URL"] = database_url
    process = ServeProcess(data_dir, env)
    process.start()
    try:
        yield process
    finally:
        process.stop()


class Prober:
    """Asks ``/healthz`` and enters a round on another game, again and again, timing each.

    ``times`` holds the seconds of each answer by kind (``healthz``,
    ``entry``); ``lags`` the event loop's latest lag each ``/healthz``
    reported (ms, ``loop_lag_ms.last``: one of the watchdog's measurements
    every probe); ``failures`` every answer that was not a success, with its
    status (a 503 is the server refusing for being busy).
    """

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=60)
        created = self.client.post(
            "/api/games", json={"players": ["Anna", "Ben"], "mode": "target", "target": 1000}
        ).json()
        self.game, self.token = created["id"], created["edit_token"]
        self.times: dict[str, list[float]] = {"healthz": [], "entry": []}
        self.lags: list[float] = []
        self.failures: list[str] = []
        self.statuses: dict[int, int] = {}
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

    def _timed(self, what: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
        started = time.perf_counter()
        answer = self.client.request(method, path, **kwargs)
        self.times[what].append(time.perf_counter() - started)
        self.statuses[answer.status_code] = self.statuses.get(answer.status_code, 0) + 1
        if answer.status_code >= 300:
            self.failures.append(f"{method} {path}: {answer.status_code} {answer.text[:200]}")
        return answer

    def _run(self) -> None:
        auth = {"Authorization": f"Bearer {self.token}"}
        while not self.stopping.is_set():
            health = self._timed("healthz", "GET", "/healthz")
            if health.status_code == 200:
                self.lags.append(float(health.json()["loop_lag_ms"]["last"]))
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


def import_group(client: httpx.Client, body: bytes) -> str:
    """Import *body* as a new group; its id."""
    answer = client.post(
        "/api/groups/import", content=body, headers={"Content-Type": "application/json"}
    )
    if answer.status_code != 201:
        raise AssertionError(f"import: {answer.status_code} {answer.text[:500]}")
    group_id: str = answer.json()["id"]
    return group_id


def export_size(client: httpx.Client, group_id: str) -> int:
    """Bytes of the group's streamed export."""
    size = 0
    with client.stream("GET", f"/api/groups/{group_id}/export.json") as answer:
        if answer.status_code != 200:
            raise AssertionError(f"export: {answer.status_code}")
        for piece in answer.iter_bytes():
            size += len(piece)
    return size


def wait_for_stats(client: httpx.Client, group_id: str) -> None:
    """Ask for the group's statistics until they are ready (202 until then)."""
    for _ in range(1200):
        answer = client.get(f"/api/groups/{group_id}/stats")
        if answer.status_code == 200:
            return
        if answer.status_code != 202:
            raise AssertionError(f"stats: {answer.status_code} {answer.text[:500]}")
        time.sleep(0.1)
    raise AssertionError("the statistics were never ready")


@dataclass(frozen=True, slots=True)
class Attack:
    """What the scenario did: the imported group and its export's size."""

    group_id: str
    body_size: int
    export_size: int
    seconds: float


def attack(base: str) -> Attack:
    """Import the largest group, then ask for its export and its statistics at once."""
    body = largest_group()
    started = time.perf_counter()
    with httpx.Client(base_url=base, timeout=300) as client:
        group_id = import_group(client, body)
        errors: list[BaseException] = []
        sizes: list[int] = []

        def run(work: Callable[[], object]) -> None:
            try:
                work()
            except BaseException as error:  # raised below, in the caller's thread
                errors.append(error)

        def export() -> None:
            sizes.append(export_size(client, group_id))

        jobs = [
            threading.Thread(target=run, args=(export,)),
            threading.Thread(target=run, args=(lambda: wait_for_stats(client, group_id),)),
        ]
        for job in jobs:
            job.start()
        for job in jobs:
            job.join()
        if errors:
            raise errors[0]
    return Attack(group_id, len(body), sizes[0], time.perf_counter() - started)


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (Linux ``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], fraction: float) -> float:
    """The value at *fraction* (0–1) of the sorted *values* (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def figures(seconds: list[float]) -> dict[str, float]:
    """``n``, ``median_ms``, ``p99_ms`` and ``max_ms`` of answer times in seconds."""
    return {
        "n": len(seconds),
        "median_ms": round(statistics.median(seconds) * 1000, 1),
        "p99_ms": round(percentile(seconds, 0.99) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
    }
