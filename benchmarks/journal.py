"""The journal's CPU per batch: what keeping online tables in the database costs.

Live play writes what its tables did in batches (``ligretto.live.journal``,
every 50 ms).  At 3,000 seats a batch holds about 60 accepted actions
spread over as many tables, and now and then the state of a table that
changed (seats, a new round).  This writes such batches into an SQLite
file — and into PostgreSQL when ``LIGRETTO_TEST_POSTGRES_URL`` is set —
and prints the CPU time of the writing thread per batch, beside the machine
reference (``benchmarks/reference.py``) measured in the same run.

    .venv/bin/python benchmarks/journal.py [--batches 400] [--actions 60]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from reference import reference_rate  # benchmarks/reference.py

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/helpers
from helpers.pg_schema import throwaway_schema
from ligretto.store import make_engine, migrate
from ligretto.store.live_tables import LiveTableStore, StoredAction

TABLES = 400


class Batches:
    """Batches like a busy server's: actions round-robin over the tables."""

    def __init__(self, actions: int) -> None:
        self.actions = actions
        self.codes = [f"T{i:04d}" for i in range(TABLES)]
        self.index = dict.fromkeys(self.codes, 0)
        self.seq = 0
        self.k = 0

    def next(self) -> tuple[dict[str, dict[str, Any]], list[StoredAction]]:
        actions = []
        for j in range(self.actions):
            code = self.codes[(self.k * self.actions + j) % TABLES]
            action = StoredAction(code, 1, self.index[code], j % 4, "play R3 row0 p1", self.seq)
            actions.append(action)
            self.index[code] += 1
            self.seq += 1
        # Two tables changed besides: one's seats, one dealt its next round.
        states = {
            self.codes[self.k % TABLES]: {"round_no": 1, "seats": list(range(30))},
            self.codes[(self.k + 7) % TABLES]: {"round_no": 1},
        }
        self.k += 1
        return states, actions


def cpu_per_batch(url: str, batches: int, actions: int) -> float:
    engine = make_engine(url)
    migrate(engine)
    store = LiveTableStore(engine)
    source = Batches(actions)
    store.write({code: {"round_no": 1} for code in source.codes}, [])
    for _ in range(50):  # warm up: caches, the pool, the file's pages
        store.write(*source.next())
    started = time.thread_time()
    for _ in range(batches):
        store.write(*source.next())
    engine.dispose()
    return (time.thread_time() - started) / batches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=400)
    parser.add_argument("--actions", type=int, default=60, help="actions per batch")
    args = parser.parse_args()
    if not 1 <= args.batches <= 100_000 or not 1 <= args.actions <= 10_000:
        parser.error("--batches 1..100000, --actions 1..10000")
    machine = reference_rate()
    results: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'tafel.db'}"
        results.append(("SQLite", cpu_per_batch(url, args.batches, args.actions)))
    postgres = os.environ.get("LIGRETTO_TEST_POSTGRES_URL")
    if postgres:
        with throwaway_schema(postgres, "bench_") as url:
            results.append(("PostgreSQL", cpu_per_batch(url, args.batches, args.actions)))
    machine = (machine + reference_rate()) / 2
    print(
        f"machine reference: {machine / 1e6:.2f} M steps per CPU second "
        "(benchmarks/reference.py, before and after the run)"
    )
    for name, seconds in results:
        print(
            f"{name}: {seconds * 1e3:.2f} ms CPU per batch of {args.actions} actions "
            f"= {seconds * machine / 1000:.1f} k reference steps "
            f"({seconds / args.actions * 1e6:.0f} µs an action)"
        )


if __name__ == "__main__":
    main()
