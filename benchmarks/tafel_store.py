"""The Tafel service's CPU per round entry, without HTTP: what a write costs the store.

A 3-player game gets its rounds one entry after another, stacks then
middle, through :class:`ligretto.store.TafelService` directly (the same
calls the API makes, each its own transaction: lock the game row, check the
token, write one round row, the version and one history row, commit). This
prints the CPU time of the writing thread per entry, beside the machine
reference (``benchmarks/reference.py``) measured in the same run, on an
SQLite file and — when ``LIGRETTO_TEST_POSTGRES_URL`` is set — on
PostgreSQL.  ``benchmarks/tafel.py`` measures the same entries over HTTP.

    .venv/bin/python benchmarks/tafel_store.py [--rounds 400]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from reference import reference_rate  # benchmarks/reference.py

from tafel import PLAYERS, _round  # benchmarks/tafel.py: the same game and rounds

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/helpers
from helpers.pg_schema import throwaway_schema
from ligretto.store import TafelService, make_engine, migrate


def cpu_per_entry(url: str, rounds: int) -> tuple[float, float]:
    """CPU seconds of the writing thread per entry, and wall seconds per entry."""
    engine = make_engine(url)
    migrate(engine)
    service = TafelService(engine)
    created = service.create_game(PLAYERS, target=99)
    game_id, token = created.stored.id, created.edit_token

    def enter(first: int, last: int) -> None:
        for n in range(first, last + 1):
            stacks, middle = _round(n)
            service.open_round(game_id, token, stacks)
            service.put_round(game_id, token, n, middle=middle)

    enter(1, 30)  # warm up: caches, the pool, the file's pages
    cpu, wall = time.thread_time(), time.perf_counter()
    enter(31, 30 + rounds)
    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    engine.dispose()
    return cpu / (2 * rounds), wall / (2 * rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args()
    if not 10 <= args.rounds <= 900:
        parser.error("--rounds 10..900")
    machine = reference_rate()
    results: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'tafel.db'}"
        results.append(("SQLite (WAL, synchronous=FULL)", *cpu_per_entry(url, args.rounds)))
    postgres = os.environ.get("LIGRETTO_TEST_POSTGRES_URL")
    if postgres:
        with throwaway_schema(postgres, "bench_") as url:
            results.append(("PostgreSQL", *cpu_per_entry(url, args.rounds)))
    machine = (machine + reference_rate()) / 2
    print(
        f"machine reference: {machine / 1e6:.2f} M steps per CPU second "
        "(benchmarks/reference.py, before and after the run)"
    )
    for name, cpu, wall in results:
        print(
            f"{name}: {cpu * 1e3:.2f} ms CPU per entry = {cpu * machine / 1000:.1f} k "
            f"reference steps ({wall * 1e3:.2f} ms wall, with the commit's wait)"
        )


if __name__ == "__main__":
    main()
