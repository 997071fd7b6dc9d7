"""Online play under load: many tables of bot clients over real WebSockets.

A real server process (``create_app`` under uvicorn) on 127.0.0.1; in this
process, every seat of every table is a client of its own WebSocket that
plays like a person: it decides from the view it was sent (a
``ligretto.bots`` strategy) and waits its reaction time (the bots' level,
``medium`` by default: human pace) before it sends the move.  Reported:
concurrent seats held, moves per second, and the p50/p99 time from sending
a move to receiving the answer to it (its event, or the refusal of a lost
race), and the server's event-loop lag (how late a 10 ms sleep wakes) and
collector pauses in the measured window.  Client and server share this
machine's cores, so the latency includes client-side queueing; treat the
numbers as rough, and read the CPU each took beside them.

    .venv/bin/python benchmarks/live.py [--tables 250] [--seats 4] [--seconds 60]
    .venv/bin/python benchmarks/live.py --processes 2   # through HAProxy
    .venv/bin/python benchmarks/live.py --replays compare   # kept vs off, one run

``--processes N`` (or ``--proxy`` with one) runs N server processes behind
HAProxy with the shipped ``deploy/haproxy.cfg`` (Debian's ``haproxy``),
sharing one SQLite data folder; the clients then connect through the proxy,
which routes every table's seats to the process that opened it.

``--replays off`` keeps no finished round (``LIGRETTO_REPLAYS=off``);
``--replays compare`` measures the same load twice in one run, with rounds
kept and without, alternating (kept, off, kept, off: a machine that gets
busier meanwhile weighs on both alike), and reports both p99s, their ratio
and the bytes stored per kept round.

It stops by itself after the measured window (and never runs longer than
``--seconds`` plus the connection ramp and a fixed grace period).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from live_clients import Stats, drive  # benchmarks/live_clients.py
from live_server import (  # benchmarks/live_server.py
    SERVER_WS,
    GcWatch,
    LoopLag,
    cpu_seconds,
    free_port,
    raise_fd_limit,
    serve,
    split_in_window,
    split_report,
)
from reference import reference_rate  # benchmarks/reference.py


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window")
    parser.add_argument("--level", default="medium", help="the clients' reaction-time level")
    parser.add_argument("--ramp", type=float, default=15.0, help="seconds to connect everyone")
    parser.add_argument(
        "--no-keep-tables",
        action="store_true",
        help="tables only in memory (no journal): the reference for what keeping them costs",
    )
    parser.add_argument(
        "--server-ws",
        choices=list(SERVER_WS),
        default="ligretto",
        help="the servers' WebSocket protocol: the app's own, one of uvicorn's as it "
        "ships, or Granian's server (wsproto and granian only where they are "
        "installed; no dependencies of ligretto)",
    )
    parser.add_argument(
        "--no-split",
        action="store_true",
        help="the servers count no CPU split by stage (to measure what counting costs)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes, behind HAProxy if more than 1"
    )
    parser.add_argument(
        "--proxy", action="store_true", help="through HAProxy also with one process"
    )
    parser.add_argument(
        "--server-loop",
        choices=["auto", "asyncio", "uvloop"],
        default="auto",
        help="the servers' event loop (auto: uvloop when installed, as `ligretto serve`)",
    )
    parser.add_argument(
        "--replays",
        choices=["game", "off", "compare"],
        default="game",
        help="finished rounds kept (game), not (off), or both measured in this run (compare)",
    )
    parser.add_argument(
        "--serve",
        nargs=6,
        metavar=("PORT", "DATA_DIR", "KEEP", "LOOP", "REPLAYS", "WS"),
        help=argparse.SUPPRESS,
    )
    args = parser.parse_args()
    if args.serve:
        port, data_dir, keep, loop, replays, ws = args.serve
        serve(int(port), data_dir, keep == "1", loop, replays, ws)
        return
    if not 1 <= args.tables <= 5000 or not 2 <= args.seats <= 12 or not 1 <= args.seconds <= 600:
        parser.error("--tables 1..5000, --seats 2..12, --seconds 1..600")
    if not 1 <= args.processes <= 8:
        parser.error("--processes 1..8")
    raise_fd_limit()
    if args.replays != "compare":
        measure(args, args.replays)
        return
    # Alternating halves: each mode gets two windows of half the time.
    half = argparse.Namespace(**{**vars(args), "seconds": max(1.0, args.seconds / 2)})
    runs: dict[str, list[Measured]] = {"game": [], "off": []}
    for mode in ("game", "off", "game", "off"):
        print(f"--- replays {'kept' if mode == 'game' else 'off'} ---", flush=True)
        runs[mode].append(measure(half, mode))
    kept = [ms for m in runs["game"] for ms in m.latencies_ms]
    off = [ms for m in runs["off"] for ms in m.latencies_ms]
    if not kept or not off:
        print("no moves answered in a window: no comparison")
        return
    p99_kept, p99_off = percentile(kept, 0.99), percentile(off, 0.99)
    print("=== replays kept vs off (this run) ===")
    print(
        f"p50 kept {statistics.median(kept):.1f} ms, off {statistics.median(off):.1f} ms; "
        f"p99 kept {p99_kept:.1f} ms, off {p99_off:.1f} ms: "
        f"ratio {p99_kept / p99_off:.2f}× (target: within 1.2×)"
    )
    rounds = sum(m.rounds_kept for m in runs["game"])
    stored = sum(m.bytes_kept for m in runs["game"])
    if rounds:
        print(
            f"rounds kept: {rounds}, {stored / rounds / 1000:.1f} KB each on average "
            f"({stored / 1e6:.1f} MB in all)"
        )


@dataclass
class Measured:
    """What one load run measured: its answered moves' latencies, and the
    finished rounds it kept (``live_round_replays``) with their bytes."""

    latencies_ms: list[float]
    rounds_kept: int = 0
    bytes_kept: int = 0


def kept_rounds(data_dir: str) -> tuple[int, int]:
    """How many rounds the run kept, and their JSON's bytes in all."""
    import sqlite3

    path = Path(data_dir) / "ligretto.db"
    if not path.is_file():
        return 0, 0
    with contextlib.closing(sqlite3.connect(path)) as db:
        count, size = db.execute(
            "SELECT count(*), coalesce(sum(length(CAST(data AS BLOB))), 0) FROM live_round_replays"
        ).fetchone()
    return int(count), int(size)


def measure(args: argparse.Namespace, replays: str) -> Measured:
    """One load run against fresh server processes; prints its report."""
    machine = reference_rate()  # before the load; again after it
    proxied = args.proxy or args.processes > 1
    ports = [free_port() for _ in range(args.processes)]
    proxy = None
    with tempfile.TemporaryDirectory() as data_dir:
        servers = [
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--serve",
                    str(port),
                    data_dir,
                    "0" if args.no_keep_tables else "1",
                    args.server_loop,
                    replays,
                    args.server_ws,
                ],
                env={
                    **os.environ,
                    "PYTHONUNBUFFERED": "1",
                    # The server's own CPU split by stage (ligretto.metrics.cpu_split).
                    "LIGRETTO_CPU_SPLIT": "0" if args.no_split else "1",
                },
            )
            for port in ports
        ]
        try:
            for port, server in zip(ports, servers, strict=True):
                _wait_for(f"http://127.0.0.1:{port}", server)
            base = f"http://127.0.0.1:{ports[0]}"
            if proxied:
                proxy = _start_proxy(Path(data_dir), ports)
                base = proxy.url
            cpu_before = [cpu_seconds(server.pid) for server in servers]
            client_before = time.process_time()
            client_gc = GcWatch()
            # The load generator's own collector pauses would count as the
            # server's latency: it collects once, then not during the run.
            gc.collect()
            gc.freeze()
            gc.disable()
            wall_before = time.monotonic()
            stats = _run_loop(
                drive(
                    base,
                    args.tables,
                    args.seats,
                    args.seconds,
                    args.level,
                    args.ramp,
                    [server.pid for server in servers],
                )
            )
            server_cpu = [
                cpu_seconds(server.pid) - before
                for server, before in zip(servers, cpu_before, strict=True)
            ]
            client_cpu = time.process_time() - client_before
            wall = time.monotonic() - wall_before
        finally:
            if proxy is not None:
                proxy.stop()
            for server in servers:
                server.send_signal(signal.SIGINT)
            for server in servers:
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()
        # Each server's loop lag and collector pauses in the measured window.
        offset = time.time() - time.perf_counter()
        window = (stats.window_start + offset, stats.window_end + offset)
        in_window = [
            _server_window(Path(data_dir, f"server-{port}.json"), window) for port in ports
        ]
        # Read once the servers stopped: a graceful stop writes every round.
        rounds_kept, bytes_kept = kept_rounds(data_dir)
    measured = Measured([x * 1000 for x in stats.latencies], rounds_kept, bytes_kept)
    machine = (machine + reference_rate()) / 2
    print(
        f"machine reference: {machine / 1e6:.2f} M steps per CPU second "
        "(benchmarks/reference.py, before and after the run)"
    )
    print(f"client GC: {client_gc.summary()}")
    print(f"client event-loop lag: {stats.lag.summary()}")
    seats = args.tables * args.seats
    answered = len(stats.latencies)
    kept = "in memory only" if args.no_keep_tables else "kept in the database (journal on)"
    print(
        f"tables {args.tables} × {args.seats} seats = {seats} seats; level {args.level}; "
        f"tables {kept}; finished rounds {'kept' if replays != 'off' else 'not kept'}; "
        f"WebSocket protocol: {args.server_ws}"
    )
    if rounds_kept:
        print(
            f"rounds kept: {rounds_kept}, {bytes_kept / rounds_kept / 1000:.1f} KB each on average"
        )
    print(
        f"concurrent seats held (peak): {stats.peak_connected}; connection errors: {stats.errors}"
    )
    for kind, count in stats.error_kinds.most_common(3):
        print(f"  {count} × {kind}")
    print(
        f"measured window: {args.seconds:.0f} s; rounds finished (all tables): {stats.rounds_seen}"
    )
    if not answered:
        print("no moves answered in the window")
        return measured
    print(
        f"moves answered: {answered} = {answered / args.seconds:.0f}/s "
        f"(accepted {stats.accepted}, races lost {stats.races_lost}, "
        f"other refusals {stats.other_refusals})"
    )
    ms = [x * 1000 for x in stats.latencies]
    print(
        f"move -> answer latency: p50 {statistics.median(ms):.1f} ms, "
        f"p90 {percentile(ms, 0.90):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms"
    )
    print(_tail_by_second(stats))
    for port, (lags, pauses, split) in zip(ports, in_window, strict=True):
        name = f"server :{port}" if len(ports) > 1 else "server"
        print(split_report(name, split))
        print(f"{name} event-loop lag in the window: {LoopLag().summary(lags)}")
        if pauses:
            print(
                f"{name} GC in the window: {len(pauses)} collections, "
                f"{sum(pauses) * 1000:.0f} ms in all, longest {max(pauses) * 1000:.1f} ms"
            )
        else:
            print(f"{name} GC in the window: no collections")
    if min(server_cpu) >= 0:
        each = " + ".join(f"{cpu / wall * 100:.0f}" for cpu in server_cpu)
        print(
            f"CPU over {wall:.0f} s: server{'s' if len(server_cpu) > 1 else ''} {each} % of "
            f"one core, clients {client_cpu / wall * 100:.0f} %; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
    if stats.window_cpu and min(stats.window_cpu) >= 0:
        each = " + ".join(f"{cpu / args.seconds * 100:.0f}" for cpu in stats.window_cpu)
        print(
            f"CPU in the measured window: server{'s' if len(stats.window_cpu) > 1 else ''} "
            f"{each} % of one core, clients {stats.window_client_cpu / args.seconds * 100:.0f} %"
        )
        per_move = sum(stats.window_cpu) / answered
        print(
            f"server CPU per answered move: {per_move * 1e6:.0f} µs = "
            f"{per_move * machine / 1000:.1f} k reference steps (comparable across machines)"
        )
    if proxied:
        print(f"through HAProxy to {args.processes} process(es) (deploy/haproxy.cfg)")
    return measured


def _tail_by_second(stats: Stats) -> str:
    """Whether the slow answers come in bursts (a pause) or all along (a
    busy server): each second's p99, and the seconds the slowest 1 % fell in."""
    by_second: dict[int, list[float]] = {}
    for at, latency in zip(stats.answered_at, stats.latencies, strict=True):
        by_second.setdefault(int(at), []).append(latency * 1000)
    p99s = sorted(percentile(values, 0.99) for values in by_second.values())
    cut = percentile(stats.latencies, 0.99) * 1000
    slow = {s for s, values in by_second.items() if max(values) >= cut}
    return (
        f"each second's p99: median {statistics.median(p99s):.1f} ms, "
        f"worst {p99s[-1]:.1f} ms; the slowest 1 % fell in {len(slow)} of "
        f"{len(by_second)} seconds"
    )


def _run_loop(main: Any) -> Any:
    """Run the clients on uvloop when it is installed (as the server does)."""
    from uvicorn._compat import asyncio_run

    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return asyncio_run(main, loop_factory=uvloop.new_event_loop)


def _wait_for(base: str, server: subprocess.Popen[bytes]) -> None:
    # Generous: on a busy machine the imports alone took more than 30 s.
    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(base + "/api/tables/NONE", timeout=1)
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.2)


def _start_proxy(directory: Path, ports: list[int]) -> Any:
    """The shipped HAProxy configuration in front of ``ports`` (the tests' helper)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from helpers.haproxy import HAProxy

    proxy = HAProxy(directory, ports, rate_limits=False)  # thousands of seats from one address
    proxy.start()
    deadline = time.monotonic() + 30
    while True:  # until the health checks let requests through
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(proxy.url + "/healthz", timeout=1).status_code == 200:
                return proxy
        if time.monotonic() > deadline:
            proxy.stop()
            raise SystemExit("HAProxy did not reach the servers")
        time.sleep(0.2)


def _server_window(
    path: Path, window: tuple[float, float]
) -> tuple[list[float], list[float], dict[str, float]]:
    """A server's loop lags and collector pauses (seconds) inside ``window``
    (``time.time()``), and its CPU split across it; empty when the server
    wrote no record."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return [], [], {}
    start, end = window
    lags = [lag for at, lag in zip(*record["lag"], strict=True) if start <= at < end]
    pauses = [p[1] for at, p in zip(*record["gc"], strict=True) if start <= at < end]
    return lags, pauses, split_in_window(record, window)


if __name__ == "__main__":
    main()
