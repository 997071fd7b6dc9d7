"""Tafel API speed: 550 rounds entered one after another over HTTP on 127.0.0.1.

A 3-player game that stays open (the caller rotates and every three rounds
sum to zero per player, so nobody nears the target); each round is entered
as stacks (POST) then middle (PUT), like a table would. Prints median and
p99 milliseconds per entry and per round, and how they change from the
first 50 rounds to the last 50, on SQLite and — when
LIGRETTO_TEST_POSTGRES_URL is set — on PostgreSQL (in a throwaway schema).

The server is a real ``ligretto serve`` process; the machine may be shared,
so treat the numbers as rough.

    .venv/bin/python benchmarks/tafel.py [--rounds 550]
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import httpx
from sqlalchemy import create_engine, text

from ligretto.serve_process import ServeProcess, environment_without_database_url

PLAYERS = ["Anna", "Ben", "Cleo"]


def _round(n: int) -> tuple[list[int], list[int]]:
    """Caller +10, the others 5 left in the stack and 5 in the middle: −5 each."""
    caller = n % 3
    stacks = [0 if seat == caller else 5 for seat in range(3)]
    middle = [10 if seat == caller else 5 for seat in range(3)]
    return stacks, middle


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def _cpu_ms(pid: int) -> float | None:
    """CPU time (user + system) the server process has used so far, in ms (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def _describe(label: str, values: list[float]) -> str:
    return (
        f"{label:<22} median {statistics.median(values):6.2f} ms   "
        f"p99 {_percentile(values, 0.99):6.2f} ms   max {max(values):6.2f} ms"
    )


def run(label: str, env: dict[str, str], data_dir: Path, rounds: int) -> None:
    with ServeProcess(data_dir, env) as server:
        base = server.start()
        with httpx.Client(base_url=base, timeout=10) as client:
            created = client.post("/api/games", json={"players": PLAYERS, "target": 99}).json()
            gid = created["id"]
            client.headers["Authorization"] = f"Bearer {created['edit_token']}"
            entries: list[float] = []
            per_round: list[float] = []
            cpu: dict[int, float | None] = {0: _cpu_ms(server.pid)}
            for n in range(1, rounds + 1):
                stacks, middle = _round(n)
                t0 = time.perf_counter()
                opened = client.post(f"/api/games/{gid}/rounds", json={"stacks": stacks})
                t1 = time.perf_counter()
                done = client.put(f"/api/games/{gid}/rounds/{n}", json={"middle": middle})
                t2 = time.perf_counter()
                if opened.status_code != 201 or done.status_code != 200:
                    raise RuntimeError(f"round {n}: {opened.text} {done.text}")
                entries += [(t1 - t0) * 1000, (t2 - t1) * 1000]
                per_round.append((t2 - t0) * 1000)
                if n in (50, rounds - 50, rounds):
                    cpu[n] = _cpu_ms(server.pid)
            status = done.json()["status"]
            gets: list[float] = []
            for _ in range(9):
                t0 = time.perf_counter()
                board = client.get(f"/api/games/{gid}")
                gets.append((time.perf_counter() - t0) * 1000)
            full_get = statistics.median(gets)
        print(f"-- {label}: {rounds} rounds, game still {status!r}")
        print(_describe("per entry (all)", entries))
        print(_describe("per round (all)", per_round))
        print(_describe("entries rounds 1-50", entries[:100]))
        print(_describe(f"entries rounds {rounds - 49}-{rounds}", entries[-100:]))
        first, before_last, last = cpu.get(0), cpu.get(rounds - 50), cpu.get(rounds)
        if first is not None and before_last is not None and last is not None:
            # Server CPU per entry hardly depends on what else the machine runs.
            early = (cpu[50] or 0.0) - first
            print(
                f"{'server CPU per entry':<22} rounds 1-50 {early / 100:5.2f} ms   "
                f"rounds {rounds - 49}-{rounds} {(last - before_last) / 100:5.2f} ms"
            )
        print(
            f"{'GET whole board':<22} median of 9 {full_get:6.2f} ms "
            f"({len(board.content) // 1024} KiB, {len(board.json()['rounds'])} rounds)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=550)
    args = parser.parse_args()
    env = environment_without_database_url()
    with tempfile.TemporaryDirectory() as tmp:
        run("SQLite (WAL, synchronous=FULL)", env, Path(tmp), args.rounds)
    pg = os.environ.get("LIGRETTO_TEST_POSTGRES_URL")
    if not pg:
        print("-- PostgreSQL: skipped (LIGRETTO_TEST_POSTGRES_URL is not set)")
        return
    schema = "bench_" + secrets.token_hex(4)
    admin = create_engine(pg)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        separator = "&" if "?" in pg else "?"
        url = f"{pg}{separator}options={quote(f'-csearch_path={schema}')}"
        with tempfile.TemporaryDirectory() as tmp:
            run("PostgreSQL", {**env, "LIGRETTO_DATABASE_URL": url}, Path(tmp), args.rounds)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


if __name__ == "__main__":
    main()
