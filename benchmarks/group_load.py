"""Other requests while the largest group is imported, exported and counted: how fast.

The scenario of ``tests/web/test_group_load.py`` (``tests/helpers/group_load.py``):
a real ``ligretto serve``, the group of 50,000 rounds of six players
imported, then its export and its first statistics asked for at once, while
a prober asks ``/healthz`` and enters rounds on an unrelated game, again and
again. The same prober first runs against the same server idle, for
``--idle`` seconds, in the same run: the **ratio** of the two is the
finding, as the machine may be shared. Prints, per database (SQLite, and
PostgreSQL in a throwaway schema when ``LIGRETTO_TEST_POSTGRES_URL`` is
set):

- median, p99 and worst answer time of ``/healthz`` and of a Tafel entry,
  idle and under the load, and the ratios;
- the event loop's lag (``/healthz``'s watchdog, ``loop_lag_ms``): the
  measurements the probes' answers carried (p99, max), and the watchdog's
  own max over its last minute at the end of the load;
- the process's peak memory and the machine's load average, before and after.

    .venv/bin/python benchmarks/group_load.py [--idle 15]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.group_load import Prober, attack, figures, largest_group, peak_rss_mb, serve
from helpers.pg_schema import throwaway_schema


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def _row(label: str, idle: dict[str, float], busy: dict[str, float]) -> str:
    def ratio(key: str) -> str:
        return f"{busy[key] / idle[key]:.1f}x" if idle[key] else "-"

    return (
        f"  {label:<8} idle median {idle['median_ms']:6.1f} p99 {idle['p99_ms']:6.1f}"
        f" max {idle['max_ms']:6.1f} ms | load median {busy['median_ms']:6.1f}"
        f" p99 {busy['p99_ms']:6.1f} max {busy['max_ms']:6.1f} ms"
        f" | ratio p99 {ratio('p99_ms')}, max {ratio('max_ms')}"
    )


def _lags(prober: Prober) -> dict[str, float]:
    lags = [lag / 1000 for lag in prober.lags] or [0.0]
    return figures(lags)


def run(label: str, database_url: str | None, idle_seconds: float) -> None:
    print(f"-- {label}: load average {_load()}")
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp) / "data", database_url) as server:
        with Prober(server.base) as idle:
            time.sleep(idle_seconds)
        with Prober(server.base) as busy:
            done = attack(server.base)
        window = httpx.get(f"{server.base}/healthz").json()["loop_lag_ms"]
        peak = peak_rss_mb(server.pid)
    for name, prober in (("idle", idle), ("load", busy)):
        if prober.failures:
            print(f"  {name}: {len(prober.failures)} failures, e.g. {prober.failures[0]}")
    print(
        f"  import of {done.body_size / 2**20:.1f} MiB, export of {done.export_size / 2**20:.1f}"
        f" MiB and statistics: {done.seconds:.1f} s; peak memory {peak:.0f} MB"
    )
    for what in ("healthz", "entry"):
        print(_row(what, figures(idle.times[what]), figures(busy.times[what])))
    quiet, loaded = _lags(idle), _lags(busy)
    print(
        f"  loop lag (probes' samples) idle p99 {quiet['p99_ms']:.1f} max {quiet['max_ms']:.1f} ms"
        f" | load p99 {loaded['p99_ms']:.1f} max {loaded['max_ms']:.1f} ms"
        f" | watchdog's max over its last minute {window['max']:.1f} ms"
    )
    print(f"  load average after: {_load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=float, default=15.0, help="seconds probed idle")
    args = parser.parse_args()
    largest_group()  # built once, before any server runs
    run("SQLite", None, args.idle)
    postgres = os.environ.get("LIGRETTO_TEST_POSTGRES_URL")
    if not postgres:
        print("-- PostgreSQL: skipped (LIGRETTO_TEST_POSTGRES_URL is not set)")
        return
    with throwaway_schema(postgres, prefix="bench_") as url:
        run("PostgreSQL", url, args.idle)


if __name__ == "__main__":
    main()
