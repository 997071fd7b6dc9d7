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
import collections
import contextlib
import gc
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from reference import reference_rate  # benchmarks/reference.py

from ligretto.bots import make_bot
from ligretto.live.client import view_from_dict


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class GcWatch:
    """Time spent in the cyclic garbage collector (its pauses stop the loop),
    per generation, and how many objects it tracks at the end."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []  # (generation, seconds)
        self.at: list[float] = []  # when each began (time.time(): comparable across processes)
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            seconds = time.perf_counter() - self._start
            self.pauses.append((info["generation"], seconds))
            self.at.append(time.time() - seconds)

    def summary(self) -> str:
        if not self.pauses:
            return f"no collections; {len(gc.get_objects()):,} objects tracked"
        times = [seconds for _, seconds in self.pauses]
        per_generation = ", ".join(
            _generation_summary(g, sorted(s for gen, s in self.pauses if gen == g))
            for g in sorted({gen for gen, _ in self.pauses})
        )
        return (
            f"{len(self.pauses)} collections, {sum(times) * 1000:.0f} ms in all, "
            f"longest {max(times) * 1000:.1f} ms ({per_generation}); "
            f"{len(gc.get_objects()):,} objects tracked, {gc.get_freeze_count():,} frozen"
        )


def _generation_summary(generation: int, ordered: list[float]) -> str:
    return (
        f"gen{generation} {len(ordered)}× median {ordered[len(ordered) // 2] * 1000:.1f} "
        f"longest {ordered[-1] * 1000:.1f} ms"
    )


class LoopLag:
    """How late a 10 ms sleep wakes up: the time the event loop was not free."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.at: list[float] = []  # when each sleep ended (time.time())

    async def run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - start - 0.01)
            self.at.append(time.time())

    def summary(self, lags: list[float] | None = None) -> str:
        lags = self.lags if lags is None else lags
        if not lags:
            return "not measured"
        ms = sorted(x * 1000 for x in lags)
        return (
            f"p50 {ms[len(ms) // 2]:.1f} ms, p99 {ms[int(len(ms) * 0.99)]:.1f} ms, "
            f"max {ms[-1]:.1f} ms"
        )


class SplitSamples:
    """The server's own CPU sums by stage (``ligretto.metrics.cpu_split``),
    its process CPU and its answered moves, sampled every half second, so
    the load generator can take the differences across its window."""

    def __init__(self) -> None:
        self.at: list[float] = []  # time.time() of each sample
        self.samples: list[dict[str, float]] = []

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(0.5)

    def sample(self) -> None:
        from ligretto.metrics.cpu_split import ON, SPLIT
        from ligretto.metrics.moves import MOVES

        sums: dict[str, float] = {k: v / 1e9 for k, v in SPLIT.snapshot().items()} if ON else {}
        sums["cpu"] = time.process_time()
        sums["moves"] = MOVES.answered
        self.at.append(time.time())
        self.samples.append(sums)


#: The stages of ``ligretto.metrics.cpu_split`` as the report names them.
SPLIT_NAMES = {
    "parse": "reading messages (pydantic)",
    "table": "table bookkeeping",
    "engine": "rules engine (apply, views, legal actions)",
    "encode": "encoding the answers (JSON)",
    "write": "socket writes (WebSocket frame + send)",
    "journal": "journal on the event loop (noting, snapshots)",
    "journal_thread": "journal's writer thread (database)",
}


def split_in_window(record: dict[str, Any], window: tuple[float, float]) -> dict[str, float]:
    """The server's sums between the samples nearest the window's ends
    (seconds of each stage, ``cpu`` and ``moves``); empty without samples."""
    at, samples = record.get("split", [[], []])
    if not at:
        return {}
    start, end = window
    first = min(range(len(at)), key=lambda i: abs(at[i] - start))
    last = min(range(len(at)), key=lambda i: abs(at[i] - end))
    if last <= first:
        return {}
    a, b = samples[first], samples[last]
    return {key: b[key] - a[key] for key in b if key in a}


def split_report(name: str, split: dict[str, float]) -> str:
    """The server's CPU per answered move by stage, in µs and in shares."""
    moves = split.get("moves", 0)
    if not moves or "engine" not in split:
        return f"{name} CPU split: not counted (LIGRETTO_CPU_SPLIT off)"
    cpu = split["cpu"]
    counted = sum(split[key] for key in SPLIT_NAMES)
    rows = [(SPLIT_NAMES[key], split[key]) for key in SPLIT_NAMES]
    rows.append(("the rest: event loop, reading sockets, the web stack", cpu - counted))
    lines = [
        f"{name} CPU per answered move by stage ({moves:.0f} moves answered by the server, "
        f"{cpu / moves * 1e6:.0f} µs each in all):"
    ]
    for label, seconds in rows:
        lines.append(f"  {label:<52} {seconds / moves * 1e6:7.1f} µs  {seconds / cpu * 100:5.1f} %")
    return "\n".join(lines)


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))


# --------------------------------------------------------------------------
# the server process
# --------------------------------------------------------------------------


async def _serve_granian(app: Any, port: int) -> None:
    """The app under Granian's embedded server (only where granian is
    installed: no dependency of ligretto) until SIGINT. The tables then
    write through the ASGI ``send`` (their direct write is uvicorn's)."""
    from granian.constants import Interfaces
    from granian.log import LogLevels
    from granian.server.embed import Server

    server = Server(
        app,
        address="127.0.0.1",
        port=port,
        interface=Interfaces.ASGI,
        backlog=4096,
        log_level=LogLevels.warning,
    )
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, server.stop)
    await server.serve()


#: The servers' WebSocket protocol by ``--server-ws``: the app's own (uvicorn's
#: sans-I/O one with the tables' direct write, ``web/ws_protocol.py``), or
#: uvicorn's stock ones, to compare on this workload.
SERVER_WS = {
    "ligretto": None,
    "websockets": "websockets-sansio",
    "websockets-legacy": "websockets",
    "wsproto": "wsproto",
    # Another ASGI server altogether, whose HTTP and WebSocket are Rust
    # (Hyper, Tokio): its embedded server on this process's event loop.
    "granian": None,
}


def serve(
    port: int,
    data_dir: str,
    keep_tables: bool = True,
    loop: str = "auto",
    replays: str = "game",
    ws: str = "ligretto",
) -> None:
    import uvicorn

    from ligretto.live.settings import TableSettings
    from ligretto.web.app import create_app
    from ligretto.web.server_options import uvicorn_options
    from ligretto.web.settings import Settings

    _raise_fd_limit()
    watch = GcWatch()  # the collector as the app sets it (ligretto.web.play)
    # One client address opens every table: the per-client limits are off.
    app = create_app(
        Settings(
            data_dir=Path(data_dir),
            database_url=None,
            rate_limits=False,
            client_share=1.0,  # one address may hold every connection
            keep_tables=keep_tables,
            replays=replays,  # checked by the settings
        )
    )
    app.state.table_settings = TableSettings(countdown=2.0, between_rounds=3.0, away_after=120.0)
    lag = LoopLag()
    split = SplitSamples()
    options = uvicorn_options()
    if SERVER_WS[ws] is not None:
        options["ws"] = SERVER_WS[ws]
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        # What `ligretto serve` runs with (message limit, pings every 20 s).
        **options,
        backlog=4096,
        timeout_graceful_shutdown=2,
        loop=loop,  # type: ignore[arg-type]
    )

    async def run() -> None:
        watcher = asyncio.get_running_loop().create_task(lag.run())
        sampler = asyncio.get_running_loop().create_task(split.run())
        try:
            if ws == "granian":
                await _serve_granian(app, port)
            else:
                await uvicorn.Server(config).serve()
        finally:
            # uvicorn re-raises the SIGINT that stopped it: report first.
            watcher.cancel()
            sampler.cancel()
            print(f"server GC: {watch.summary()}", file=sys.stderr)
            print(f"server event-loop lag: {lag.summary()}", file=sys.stderr, flush=True)
            # For the load generator, which knows the measured window.
            record = {
                "lag": [lag.at, lag.lags],
                "gc": [watch.at, watch.pauses],
                "split": [split.at, split.samples],
            }
            Path(data_dir, f"server-{port}.json").write_text(json.dumps(record))

    # The event loop ``ligretto serve`` runs (uvicorn picks uvloop when installed).
    from uvicorn._compat import asyncio_run

    with contextlib.suppress(KeyboardInterrupt):
        asyncio_run(run(), loop_factory=config.get_loop_factory())


# --------------------------------------------------------------------------
# the clients
# --------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, answered moves
    answered_at: list[float] = field(default_factory=list)  # when each was answered
    accepted: int = 0
    races_lost: int = 0
    other_refusals: int = 0
    connected: int = 0
    peak_connected: int = 0
    errors: int = 0
    # Each connection error by its kind (the exception's class and text).
    error_kinds: collections.Counter[str] = field(default_factory=collections.Counter)
    rounds_seen: int = 0
    window_start: float = 0.0
    window_end: float = 0.0
    lag: LoopLag = field(default_factory=LoopLag)
    # CPU seconds each server process and this one used in the measured window.
    window_cpu: list[float] = field(default_factory=list)
    window_client_cpu: float = 0.0

    def measuring(self, now: float) -> bool:
        return self.window_start <= now < self.window_end


async def _quietly(coroutine: Any) -> None:
    """A send or close that meets the socket already closed (the run is
    ending) is no error of the server's."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await coroutine


class SeatClient:
    """One seat played like a person over its own WebSocket.

    It reads every message the server sends; when it may act, it decides
    from the view it has and sends the move after its reaction time (a
    timer, not a task waiting per message: the load generator must cost
    far less than what it measures).
    """

    def __init__(
        self,
        join: dict[str, Any],
        strategy: str,
        level: str,
        seed: int,
        stats: Stats,
        joined: asyncio.Event,
        go: asyncio.Event | None,
    ) -> None:
        self.join = join
        self.bot = make_bot(strategy, level)
        self.rng = random.Random(seed)
        self.stats = stats
        self.joined = joined
        self.go = go
        self.view: str | None = None  # the latest message carrying a view, unparsed
        self.playing = False
        self.timer: asyncio.TimerHandle | None = None  # the decided move's reaction time
        self.planned: str | None = None
        self.pending: tuple[int, float] | None = None  # (ref, sent at)
        self.ref = 0
        self.ws: Any = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, url: str, stop_at: float) -> None:
        stats = self.stats
        loop = asyncio.get_running_loop()
        try:
            async with websockets.connect(url, max_size=2**20, compression=None) as ws:
                self.ws = ws
                stats.connected += 1
                stats.peak_connected = max(stats.peak_connected, stats.connected)
                stop = loop.call_later(max(0.0, stop_at - time.perf_counter()), self._stop)
                await ws.send(json.dumps({"v": 1, "type": "join", **self.join}))
                try:
                    async for raw in ws:
                        self._on_message(raw if isinstance(raw, str) else raw.decode())
                finally:
                    stop.cancel()
                    if self.timer is not None:
                        self.timer.cancel()
        except (OSError, websockets.WebSocketException) as exc:
            stats.errors += 1
            stats.error_kinds[f"{type(exc).__name__}: {exc}"[:100]] += 1
        finally:
            stats.connected -= 1

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(_quietly(coroutine))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _stop(self) -> None:
        self._spawn(self.ws.close())

    def _send_planned(self) -> None:
        self.timer = None
        if self.playing and self.planned is not None and self.pending is None:
            self.ref += 1
            self.pending = (self.ref, time.perf_counter())
            message = {"v": 1, "type": "move", "action": self.planned, "ref": self.ref}
            self._spawn(self.ws.send(json.dumps(message)))
        self.planned = None

    async def _start(self, go: asyncio.Event) -> None:
        await go.wait()
        await self.ws.send(json.dumps({"v": 1, "type": "start"}))

    def _on_message(self, text: str) -> None:
        stats = self.stats
        # The server writes fields in a fixed order ({"v":1,"type":…), so
        # the kind and the echoed ref are read without parsing the whole
        # message; a view is parsed only when this seat decides (a person,
        # too, looks up only when ready to act).
        kind = text[15 : text.index('"', 15)]
        pending = self.pending
        if kind == "events" or kind == "refused":
            if kind == "events":
                self.view = text
            # An event ends with its ref; a refusal has it before "action".
            mark = f'"ref":{pending[0]}' if pending is not None else ""
            if pending is not None and (
                text.endswith(mark + "}") or (kind == "refused" and mark + "," in text)
            ):
                answered = time.perf_counter()
                if stats.measuring(answered):
                    stats.latencies.append(answered - pending[1])
                    stats.answered_at.append(answered - stats.window_start)
                    if kind == "events":
                        stats.accepted += 1
                    elif '"code":"pile_taken"' in text:
                        stats.races_lost += 1
                    else:
                        stats.other_refusals += 1
                self.pending = None
        elif kind == "view":
            self.view = text
        elif kind == "table":
            self.playing = '"phase":"playing"' in text
        elif kind == "welcome":
            self.joined.set()
            if self.go is not None:
                self._spawn(self._start(self.go))
        elif kind == "round_over":
            if self.join.get("token"):
                stats.rounds_seen += 1
            self.planned = None
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
        if self.playing and self.view is not None and self.pending is None and self.timer is None:
            # Decide now from what this seat sees; act after the reaction
            # time (the card may be gone by then: R3).
            seen = view_from_dict(json.loads(self.view)["view"])
            action, delay = self.bot.timed(seen, self.rng)
            self.planned = None if action is None else str(action)
            self.timer = asyncio.get_running_loop().call_later(delay, self._send_planned)


async def _window_cpu(stats: Stats, pids: list[int]) -> None:
    """The CPU the servers and this process use in the measured window."""
    await asyncio.sleep(max(0.0, stats.window_start - time.perf_counter()))
    before = [_cpu_seconds(pid) for pid in pids]
    client_before = time.process_time()
    await asyncio.sleep(max(0.0, stats.window_end - time.perf_counter()))
    stats.window_cpu = [_cpu_seconds(pid) - b for pid, b in zip(pids, before, strict=True)]
    stats.window_client_cpu = time.process_time() - client_before


async def drive(
    base: str,
    tables: int,
    seats: int,
    seconds: float,
    level: str,
    ramp: float,
    pids: list[int],
) -> Stats:
    stats = Stats()
    ws_base = "ws" + base[4:]
    strategies = ["stack-first", "greedy", "watchful", "race-aware"]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = []
        for t in range(tables):
            response = await http.post(
                "/api/tables",
                json={"seats": seats, "name": "P0", "end": {"mode": "rounds", "rounds": 100}},
            )
            response.raise_for_status()
            created.append(response.json())
            if t % 50 == 49:
                await asyncio.sleep(0)
    lag_task = asyncio.get_running_loop().create_task(stats.lag.run())
    start = time.perf_counter()
    stats.window_start = start + ramp + 4.0  # after the ramp and the first countdown
    stats.window_end = stats.window_start + seconds
    stop_at = stats.window_end + 0.5
    tasks = [asyncio.create_task(_window_cpu(stats, pids))]
    for t, table in enumerate(created):
        url = f"{ws_base}/play/{table['code']}/ws"
        go = asyncio.Event()
        joined_all = []
        for seat in range(seats):
            joined = asyncio.Event()
            joined_all.append(joined)
            join = {"token": table["host_token"]} if seat == 0 else {"name": f"P{seat}"}
            client = SeatClient(
                join,
                strategies[seat % len(strategies)],
                level,
                t * 100 + seat,
                stats,
                joined,
                go if seat == 0 else None,
            )
            tasks.append(asyncio.create_task(client.run(url, stop_at)))

        async def starter(events: list[asyncio.Event], go: asyncio.Event) -> None:
            for event in events:
                await event.wait()
            go.set()

        tasks.append(asyncio.create_task(starter(joined_all, go)))
        # Spread the connections over the ramp so the server is not hit at once.
        await asyncio.sleep(ramp / tables)
    await asyncio.wait(tasks, timeout=seconds + ramp + 30)
    for task in tasks:
        task.cancel()
    lag_task.cancel()
    return stats


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
    _raise_fd_limit()
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
    ports = [_free_port() for _ in range(args.processes)]
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
            cpu_before = [_cpu_seconds(server.pid) for server in servers]
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
                _cpu_seconds(server.pid) - before
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


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc), or -inf."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks
    except (OSError, IndexError, ValueError):
        return float("-inf")


if __name__ == "__main__":
    main()
