"""Tafel API speed: 550 rounds entered one after another over HTTP on 127.0.0.1.

A 3-player game that stays open (the caller rotates and every three rounds
sum to zero per player, so nobody nears the target); each round is entered
as stacks (POST) then middle (PUT), like a table would. Prints median and
p99 milliseconds per entry and per round, and how they change from the
first 50 rounds to the last 50, on SQLite and — when
LIGRETTO_TEST_POSTGRES_URL is set — on PostgreSQL (in a throwaway schema).

``--watchers N`` adds N phones watching the game, in a process of their
own: each follows the game's event stream and fetches the board fragment
after every change, as the watch page does.  The run without watchers
comes first, as the reference in the same run; then the one with them,
which also prints how soon after a write the watchers had the new board.

The server is a real ``ligretto serve`` process; the machine may be shared,
so treat the numbers as rough.

    .venv/bin/python benchmarks/tafel.py [--rounds 550] [--watchers 300]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from reference import reference_rate  # benchmarks/reference.py

# tests/helpers, after this folder: tests/tafel must not hide this module
# (the watchers' process imports it by name).
sys.path.append(str(Path(__file__).resolve().parents[1] / "tests"))
from helpers.pg_schema import throwaway_schema
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


# --------------------------------------------------------------------------
# watchers: phones that follow the board, in a process of their own
# --------------------------------------------------------------------------


async def _watchers(
    base: str, gid: str, count: int, ready: Any, stop: Any
) -> tuple[list[dict[int, float]], list[tuple[str, float]]]:
    """``count`` watch pages on one game, each doing what ``board.js`` does:
    follow the board stream ``/g/{id}/board/events`` and show every board it
    is sent.  Returns, per watcher, when it had the board of each version,
    and every reconnection: why, and how long after the watcher's last answer."""
    seen: list[dict[int, float]] = [{} for _ in range(count)]
    # Who has had its stream's first event: a set, polled. Counted with a
    # semaphore acquired under asyncio.wait_for (Python 3.11), the count
    # sometimes stayed short while every watcher was connected, and the run
    # ended with "did not connect within 60 s".
    connected: set[int] = set()
    limits = httpx.Limits(max_connections=count + 10, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=base, timeout=None, limits=limits) as client:
        stages: dict[int, str] = {}
        reconnects: list[tuple[str, float]] = []  # (why, seconds since the last answer)

        async def one(had: dict[int, float]) -> None:
            stages[id(had)] = "reading the game"
            shown = [int((await client.get(f"/api/games/{gid}")).json()["version"])]
            answered = time.monotonic()
            while True:
                try:
                    await follow(had, shown)
                except (httpx.ReadError, httpx.RemoteProtocolError) as error:
                    # Seen as ReadError from anyio's ClosedResourceError: a
                    # connection the client's own pool closed under it
                    # (encode/httpx#2337). EventSource reconnects; so does this.
                    why = f"{type(error).__name__} {error.__cause__!r}"[:80]
                    reconnects.append((why, time.monotonic() - answered))
                    await asyncio.sleep(0.1)
                answered = time.monotonic()

        async def follow(had: dict[int, float], shown: list[int]) -> None:
            url = f"/g/{gid}/board/events?v={shown[0]}&z=gzip"  # as a browser that can unpack
            stages[id(had)] = "opening the stream"
            async with client.stream("GET", url, headers={"Accept": "text/event-stream"}) as stream:
                stages[id(had)] = f"streaming ({stream.status_code})"
                # Read as bytes, only each event's first lines (its id and
                # kind): a phone's cost of reading a board is the phone's,
                # and this process stands for 300 of them on one core.
                buffer = b""
                async for chunk in stream.aiter_raw():
                    buffer += chunk
                    *events, buffer = buffer.split(b"\r\n\r\n")
                    for event in events:
                        head = event[:80]
                        if b"event: version" in head:
                            stages[id(had)] = "connected"
                            connected.add(id(had))
                        elif b"event: board" in head and head.startswith(b"id: "):
                            version = int(head[4 : head.index(b"\r\n")])
                            if version > shown[0]:
                                shown[0] = version
                                had[version] = time.perf_counter()

        tasks = [asyncio.create_task(one(had)) for had in seen]
        started = time.monotonic()
        while len(connected) < count:
            await asyncio.sleep(0.1)
            if time.monotonic() - started > 30:
                where = Counter(stages.values())
                print(f"watchers after 30 s: {dict(where)}", file=sys.stderr, flush=True)
                started = time.monotonic()
            failed = [task for task in tasks if task.done()]
            if failed:  # the parent says why instead of only "did not connect"
                errors = Counter(repr(task.exception()) for task in failed)
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                raise RuntimeError(
                    f"{len(failed)} watchers ended before connecting: {dict(errors)}"
                ) from failed[0].exception()
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        await asyncio.sleep(1.0)  # the last change's boards
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return seen, reconnects


def _watch_process(base: str, gid: str, count: int, ready: Any, stop: Any, out: Any) -> None:
    out.put(asyncio.run(_watchers(base, gid, count, ready, stop)))


class Watchers:
    """The watchers' process: started on a game, stopped for its figures."""

    def __init__(self, base: str, gid: str, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._ready = context.Event()
        self._stop = context.Event()
        self._out: Any = context.Queue()
        self._process = context.Process(
            target=_watch_process,
            args=(base, gid, count, self._ready, self._stop, self._out),
            daemon=True,
        )
        self._process.start()
        deadline = time.monotonic() + 60
        while not self._ready.wait(0.5):
            if not self._process.is_alive():  # its traceback is on stderr
                raise RuntimeError(f"the watchers' process ended ({self._process.exitcode})")
            if time.monotonic() > deadline:
                self._process.kill()
                raise RuntimeError("the watchers did not connect within 60 s")

    def stop(self) -> tuple[list[dict[int, float]], list[tuple[str, float]]]:
        self._stop.set()
        seen: tuple[list[dict[int, float]], list[tuple[str, float]]] = self._out.get(timeout=60)
        self._process.join(10)
        return seen


def run(label: str, env: dict[str, str], data_dir: Path, rounds: int, watchers: int = 0) -> None:
    log = data_dir / "server.log"
    try:
        _run(label, env, data_dir, rounds, watchers, log)
    except Exception:
        # What the server said is the first thing to read when a run fails.
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        print("\n".join(["-- the server's last lines:", *lines[-40:]]), file=sys.stderr)
        raise


def _run(
    label: str, env: dict[str, str], data_dir: Path, rounds: int, watchers: int, log: Path
) -> None:
    with ServeProcess(data_dir, env, log=log) as server:
        base = server.start()
        with httpx.Client(base_url=base, timeout=10) as client:
            created = client.post("/api/games", json={"players": PLAYERS, "target": 99}).json()
            gid = created["id"]
            client.headers["Authorization"] = f"Bearer {created['edit_token']}"
            watching = Watchers(base, gid, watchers) if watchers else None
            entries: list[float] = []
            per_round: list[float] = []
            written: dict[int, float] = {}  # version -> when its write was sent
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
                written[int(opened.headers["ETag"].strip('"'))] = t0
                written[int(done.headers["ETag"].strip('"'))] = t1
                entries += [(t1 - t0) * 1000, (t2 - t1) * 1000]
                per_round.append((t2 - t0) * 1000)
                if n in (50, rounds - 50, rounds):
                    cpu[n] = _cpu_ms(server.pid)
            status = done.json()["status"]
            boards, reconnects = watching.stop() if watching is not None else ([], [])
            gets: list[float] = []
            for _ in range(9):
                t0 = time.perf_counter()
                board = client.get(f"/api/games/{gid}")
                gets.append((time.perf_counter() - t0) * 1000)
            full_get = statistics.median(gets)
        print(f"-- {label}: {rounds} rounds, game still {status!r}, {watchers} watchers")
        print(_describe("per entry (all)", entries))
        print(_describe("per round (all)", per_round))
        print(_describe("entries rounds 1-50", entries[:100]))
        print(_describe(f"entries rounds {rounds - 49}-{rounds}", entries[-100:]))
        first, before_last, last = cpu.get(0), cpu.get(rounds - 50), cpu.get(rounds)
        if first is not None and before_last is not None and last is not None:
            # Server CPU per entry hardly depends on what else the machine runs.
            early = (cpu[50] or 0.0) - first
            late = (last - before_last) / 100
            print(
                f"{'server CPU per entry':<22} rounds 1-50 {early / 100:5.2f} ms   "
                f"rounds {rounds - 49}-{rounds} {late:5.2f} ms "
                f"= {late / 1000 * MACHINE[0] / 1000:.0f} k reference steps"
            )
        print(
            f"{'GET whole board':<22} median of 9 {full_get:6.2f} ms "
            f"({len(board.content) // 1024} KiB, {len(board.json()['rounds'])} rounds)"
        )
        if reconnects:
            why = Counter(reason for reason, _ in reconnects)
            idle = sorted(seconds for _, seconds in reconnects)
            print(
                f"{'watchers reconnected':<22} {len(reconnects)} times {dict(why)}, "
                f"{idle[0]:.1f}–{idle[-1]:.1f} s after their last answer"
            )
        if boards:
            # From sending a write to a watcher having the board it made.
            ms = [
                (at - written[version]) * 1000
                for had in boards
                for version, at in had.items()
                if version in written
            ]
            missed = sum(len(written) - len(had) for had in boards)
            print(
                f"{'watchers: new board':<22} median {statistics.median(ms):6.2f} ms   "
                f"p99 {_percentile(ms, 0.99):6.2f} ms after the write was sent "
                f"({len(ms)} boards; {missed} versions skipped, a newer one came first)"
            )


def run_both(label: str, env: dict[str, str], rounds: int, watchers: int, make_dir: Any) -> None:
    """Without watchers (the reference), then with them when asked for."""
    for count in (0, watchers) if watchers else (0,):
        with make_dir() as tmp:
            run(label, env, Path(tmp), rounds, count)


#: Reference steps per CPU second on this machine (benchmarks/reference.py),
#: measured at the start: CPU figures in these steps compare across machines.
MACHINE = [0.0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=550)
    parser.add_argument("--watchers", type=int, default=0, help="phones watching (0 to 1000)")
    args = parser.parse_args()
    if not 60 <= args.rounds <= 2000 or not 0 <= args.watchers <= 1000:
        parser.error("--rounds 60..2000, --watchers 0..1000")
    MACHINE[0] = reference_rate()
    print(f"machine reference: {MACHINE[0] / 1e6:.2f} M steps per CPU second")
    env = environment_without_database_url()
    run_both(
        "SQLite (WAL, synchronous=FULL)",
        env,
        args.rounds,
        args.watchers,
        tempfile.TemporaryDirectory,
    )
    pg = os.environ.get("LIGRETTO_TEST_POSTGRES_URL")
    if not pg:
        print("-- PostgreSQL: skipped (LIGRETTO_TEST_POSTGRES_URL is not set)")
        return
    with throwaway_schema(pg, "bench_") as url:
        run_both(
            "PostgreSQL",
            {**env, "LIGRETTO_DATABASE_URL": url},
            args.rounds,
            args.watchers,
            tempfile.TemporaryDirectory,
        )


if __name__ == "__main__":
    main()
