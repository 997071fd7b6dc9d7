"""A new Host header with every request for QR codes and watch pages: how ``/healthz`` fares.

A real ``ligretto serve``; one game and one online table. First ``/healthz``
is timed alone for ``--seconds``, then again while ``--clients`` threads
each ask ``--rate`` times a second, in turn, for the table's join QR code
(``/play/CODE/qr.svg``) and the game's watch page, each time with another
``Host`` of ``--host-length`` characters. Links and QR codes come from the
server's own address, so every QR code is drawn once; when they came from
``Host``, each request drew a new one on the event loop. The ratio of
``/healthz`` under the load to idle, measured in the same run, is the
finding.

    .venv/bin/python benchmarks/links_host.py [--clients 6] [--rate 9] [--seconds 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.group_load import percentile
from ligretto.serve_process import ServeProcess, environment_without_database_url


def _probe(base: str, seconds: float) -> list[float]:
    times: list[float] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            client.get("/healthz")
            times.append(time.perf_counter() - started)
            time.sleep(0.1)
    return times


def _client(base: str, paths: list[str], rate: float, length: int, stop: threading.Event) -> None:
    n = 0
    with httpx.Client(base_url=base, timeout=60) as client:
        while not stop.is_set():
            n += 1
            host = f"{n}-{threading.get_ident()}-".ljust(length, "a") + ".example"
            client.get(paths[n % len(paths)], headers={"Host": host})
            stop.wait(1 / rate)


def _figures(label: str, times: list[float]) -> float:
    median = statistics.median(times) * 1000
    print(
        f"  {label:<6} /healthz median {median:7.1f} p99 {percentile(times, 0.99) * 1000:7.1f}"
        f" max {max(times) * 1000:7.1f} ms ({len(times)} probes)"
    )
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--rate", type=float, default=9.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--host-length", type=int, default=2000)
    args = parser.parse_args()
    one, five, _ = os.getloadavg()
    print(f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores")
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    with tempfile.TemporaryDirectory() as folder, ServeProcess(Path(folder), env) as server:
        base = server.start()
        with httpx.Client(base_url=base) as client:
            game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
            table = client.post("/api/tables", json={"seats": 2, "name": "Anna"}).json()
        paths = [f"/play/{table['code']}/qr.svg", f"/g/{game['id']}"]
        idle = _figures("idle", _probe(base, args.seconds))
        stop = threading.Event()
        clients = [
            threading.Thread(
                target=_client, args=(base, paths, args.rate, args.host_length, stop), daemon=True
            )
            for _ in range(args.clients)
        ]
        for thread in clients:
            thread.start()
        busy = _figures("load", _probe(base, args.seconds))
        stop.set()
        for thread in clients:
            thread.join(timeout=60)
    print(f"  median under the load / idle: {busy / idle:.1f}x")


if __name__ == "__main__":
    main()
