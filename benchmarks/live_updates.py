"""Live Tafel updates across processes: how soon a watcher hears of a round.

Two ``ligretto serve`` processes, A and B, on one PostgreSQL database (a
fresh schema, dropped afterwards). One watcher follows the game's event
stream on A, one on B; rounds are entered through A one write at a time.
Reported per watcher: the p50/p95 time from sending a write to hearing its
version, and B's over A's (B hears through PostgreSQL NOTIFY/LISTEN, A from
its own hub as well). Client and servers share this machine's cores.

    LIGRETTO_TEST_POSTGRES_URL=postgresql+psycopg://… \
        .venv/bin/python benchmarks/live_updates.py [--writes 200]

Without a PostgreSQL URL (``LIGRETTO_TEST_POSTGRES_URL`` or
``LIGRETTO_DATABASE_URL``) it says so and exits.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/helpers
from helpers.pg_schema import throwaway_schema
from ligretto.serve_process import ServeProcess, environment_without_database_url

PLAYERS = ["Anna", "Ben", "Cleo"]


def _watch(base: str, gid: str, heard: dict[int, float], ready: threading.Event) -> None:
    with (
        httpx.Client(base_url=base, timeout=None, trust_env=False) as client,
        client.stream("GET", f"/api/games/{gid}/events") as stream,
    ):
        event = ""
        for line in stream.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "version":
                version = int(json.loads(line.split(":", 1)[1])["version"])
                heard.setdefault(version, time.perf_counter())
                ready.set()


def _quantiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=20)
    return statistics.median(samples), cuts[18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=200, help="at most 200 (100 rounds)")
    args = parser.parse_args()
    args.writes = max(2, min(args.writes, 200))
    base_url = os.environ.get("LIGRETTO_TEST_POSTGRES_URL") or os.environ.get(
        "LIGRETTO_DATABASE_URL", ""
    )
    if not base_url.startswith("postgresql"):
        print("skipped: needs PostgreSQL (LIGRETTO_TEST_POSTGRES_URL or LIGRETTO_DATABASE_URL)")
        return
    with throwaway_schema(base_url, "bench_") as url, tempfile.TemporaryDirectory() as tmp:
        env = environment_without_database_url() | {
            "LIGRETTO_DATABASE_URL": url,
            "LIGRETTO_RATE_LIMITS": "0",
        }
        servers = [ServeProcess(Path(tmp) / n, env, ["--process-id", n]) for n in "AB"]
        try:
            a, b = (server.start() for server in servers)
            with httpx.Client(base_url=a, timeout=10, trust_env=False) as writer:
                created = writer.post(
                    "/api/games", json={"players": PLAYERS, "mode": "rounds", "rounds": 100}
                )
                assert created.status_code == 201, created.text
                gid = created.json()["id"]
                writer.headers["Authorization"] = f"Bearer {created.json()['edit_token']}"
                heard: dict[str, dict[int, float]] = {"A": {}, "B": {}}
                for name, base in (("A", a), ("B", b)):
                    ready = threading.Event()
                    threading.Thread(
                        target=_watch, args=(base, gid, heard[name], ready), daemon=True
                    ).start()
                    ready.wait(10)
                sent: dict[int, float] = {}
                for i in range(args.writes):
                    number = i // 2 + 1
                    sent[i + 2] = time.perf_counter()
                    if i % 2 == 0:
                        answer = writer.post(f"/api/games/{gid}/rounds", json={"stacks": [0, 3, 5]})
                    else:
                        answer = writer.put(
                            f"/api/games/{gid}/rounds/{number}", json={"middle": [12, 9, 7]}
                        )
                    answer.raise_for_status()
                    deadline = time.monotonic() + 10
                    while not all(i + 2 in h for h in heard.values()):
                        if time.monotonic() > deadline:
                            raise SystemExit(f"version {i + 2} not heard within 10 s")
                        time.sleep(0.0005)
        finally:
            for server in servers:
                server.stop()
    lat = {name: [(heard[name][v] - t) * 1000 for v, t in sent.items()] for name in ("A", "B")}
    p50a, p95a = _quantiles(lat["A"])
    p50b, p95b = _quantiles(lat["B"])
    print(f"{args.writes} writes through A; write sent → version heard (ms):")
    print(f"  watcher on A (same process):  p50 {p50a:6.2f}  p95 {p95a:6.2f}")
    print(f"  watcher on B (other process): p50 {p50b:6.2f}  p95 {p95b:6.2f}")
    print(f"  B / A: p50 {p50b / p50a:.2f}×  p95 {p95b / p95a:.2f}×")


if __name__ == "__main__":
    main()
