"""What a refused request costs a real ``ligretto serve``: how soon, and who waits meanwhile.

The scenarios of ``tests/deploy/test_body_refusal.py`` and
``tests/deploy/test_request_bounds.py``, sent as fast as the client can:

- ``import, Content-Length`` / ``import, chunked``: a group import of four
  times the 32 MiB limit (2-player games of 1,000 rounds);
- ``early answer``: 30 MiB declared to the group import with the wrong
  content type, which the route refuses without reading the body;
- ``48 MiB of headers`` (short ones) and ``64 MiB header value``.

A prober asks ``/healthz`` every 20 ms from its own connection all along;
first for ``--quiet`` seconds before any scenario, in the same run: that
median is the reference every figure is quoted against, as the machine
may be shared. Per scenario (``--runs`` times each), printed:

- the refusal's time after the request's head was sent, in ms and as a
  ratio to the quiet ``/healthz`` median;
- the bytes the client had sent when the answer came, and in all (what the
  server let in: the kernel's buffers included);
- the server's CPU time over the scenario, and its peak memory (``VmHWM``)
  before and after;
- ``/healthz`` while it ran: median and worst, and their ratio to the quiet
  median.

``--src DIR`` serves another source tree (``git archive COMMIT src | tar -x
-C DIR``, then ``--src DIR/src``), to compare with an older version in the
same conditions.

    .venv/bin/python benchmarks/refusals.py [--runs 3] [--quiet 5] [--src DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.group_load import peak_rss_mb
from helpers.large_bodies import oversized_import
from helpers.processes import cpu_seconds
from helpers.raw_http import Exchange, chunked, pieces, request_head
from ligretto.serve_process import ServeProcess, environment_without_database_url

MIB = 1024 * 1024


class TimedProbe:
    """``/healthz`` every *interval* seconds; each probe's start and duration."""

    def __init__(self, base: str, interval: float = 0.02) -> None:
        self.client = httpx.Client(base_url=base, timeout=60)
        self.interval = interval
        self.probes: list[tuple[float, float]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stopping.is_set():
            started = time.perf_counter()
            self.client.get("/healthz")
            self.probes.append((started, time.perf_counter() - started))
            self.stopping.wait(self.interval)

    def between(self, start: float, end: float) -> list[float]:
        """Durations of the probes that were running at some time in [start, end]."""
        return [d for s, d in self.probes if s <= end and s + d >= start]

    def __enter__(self) -> TimedProbe:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(60)
        self.client.close()


@dataclass
class Outcome:
    status: int
    refused_after: float
    sent_at_answer: int
    sent: int
    cpu: float
    memory: tuple[float, float]
    probes: list[float]


def _import(framing: str) -> tuple[bytes, Iterator[bytes]]:
    body = oversized_import()
    headers = {"Content-Type": "application/json"}
    if framing == "chunked":
        headers["Transfer-Encoding"] = "chunked"
        return request_head("POST", "/api/groups/import", headers), chunked(pieces(body))
    headers["Content-Length"] = str(len(body))
    return request_head("POST", "/api/groups/import", headers), pieces(body)


def _early() -> tuple[bytes, Iterator[bytes]]:
    declared = 30 * MIB
    head = {"Content-Type": "text/plain", "Content-Length": str(declared)}
    piece = b" " * 65536
    return (
        request_head("POST", "/api/groups/import", head),
        (piece for _ in range(declared // 65536)),
    )


def _headers(first: bytes, piece: bytes, total: int) -> tuple[bytes, Iterator[bytes]]:
    def rest() -> Iterator[bytes]:
        for _ in range(total // len(piece)):
            yield piece
        yield b"\r\n\r\n"

    return first, rest()


SCENARIOS: dict[str, Callable[[], tuple[bytes, Iterator[bytes]]]] = {
    "import, Content-Length": lambda: _import("content-length"),
    "import, chunked": lambda: _import("chunked"),
    "early answer": _early,
    "48 MiB of headers": lambda: _headers(
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-A: b\r\n" * 8192, 48 * MIB
    ),
    "64 MiB header value": lambda: _headers(
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ", b"v" * 65536, 64 * MIB
    ),
}


def run_scenario(server: ServeProcess, probe: TimedProbe, name: str) -> Outcome:
    head, rest = SCENARIOS[name]()
    memory_before = peak_rss_mb(server.pid)
    cpu_before = cpu_seconds(server.pid)
    start = time.perf_counter()
    with Exchange(server.port) as exchange:
        exchange.send(head)
        sent_head = time.perf_counter()
        answered_at: list[float] = []

        def watch() -> None:
            while not exchange.answer and not exchange.done.is_set():
                time.sleep(0.0005)
            answered_at.append(time.perf_counter())

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        exchange.send_all(rest)
        exchange.wait(120)
        watcher.join(120)
    end = time.perf_counter()
    time.sleep(0.3)  # the server's last work of it, and a probe after it
    return Outcome(
        status=exchange.status,
        refused_after=answered_at[0] - sent_head,
        sent_at_answer=exchange.sent_at_answer or 0,
        sent=exchange.sent,
        cpu=cpu_seconds(server.pid) - cpu_before,
        memory=(memory_before, peak_rss_mb(server.pid)),
        probes=probe.between(start, end + 0.3),
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def report(name: str, outcomes: list[Outcome], quiet: float) -> None:
    print(f"  {name}:")
    for n, o in enumerate(outcomes, 1):
        worst = max(o.probes) if o.probes else 0.0
        median = statistics.median(o.probes) if o.probes else 0.0
        print(
            f"    run {n}: {o.status} after {_ms(o.refused_after)}"
            f" ({o.refused_after / quiet:5.1f}x)"
            f" | sent {o.sent_at_answer / MIB:6.1f} MiB by then, {o.sent / MIB:6.1f} MiB in all"
            f" | server CPU {o.cpu:5.2f} s, peak {o.memory[0]:.0f} -> {o.memory[1]:.0f} MB"
            f" | /healthz median {_ms(median)} ({median / quiet:4.1f}x),"
            f" worst {_ms(worst)} ({worst / quiet:5.1f}x), n={len(o.probes)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each scenario")
    parser.add_argument("--quiet", type=float, default=5.0, help="seconds probed before")
    parser.add_argument("--src", type=Path, help="serve this source tree instead")
    args = parser.parse_args()
    oversized_import()  # built once, before the server runs
    env = {**environment_without_database_url(), "LIGRETTO_RATE_LIMITS": "0"}
    if args.src:
        env["PYTHONPATH"] = str(args.src.resolve())
    one, five, _ = os.getloadavg()
    print(f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp) / "data", env)
        server.start()
        try:
            with TimedProbe(server.base) as probe:
                time.sleep(args.quiet)
                quiet_probes = [d for _, d in probe.probes]
                quiet = statistics.median(quiet_probes)
                print(
                    f"/healthz quiet: median {_ms(quiet)}, worst {_ms(max(quiet_probes))},"
                    f" n={len(quiet_probes)}; peak memory {peak_rss_mb(server.pid):.0f} MB"
                )
                for name in SCENARIOS:
                    outcomes = [run_scenario(server, probe, name) for _ in range(args.runs)]
                    report(name, outcomes, quiet)
        finally:
            server.stop()
    one, five, _ = os.getloadavg()
    print(f"load average after {one:.1f} (5 min {five:.1f})")


if __name__ == "__main__":
    main()
