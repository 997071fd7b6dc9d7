"""The server side of ``benchmarks/live.py``: the server process and the
probes it reports from (collector pauses, event-loop lag, the CPU split by
stage), which the load generator also uses on itself.

``live.py`` starts ``serve`` in a process of its own (``--serve``); the
figures it prints are explained there.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

# Re-exported for live.py and live_clients.py: the one /proc reader and port finder.
from helpers.processes import cpu_seconds as cpu_seconds
from ligretto.child_process import free_port as free_port


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


def raise_fd_limit() -> None:
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

    raise_fd_limit()
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
