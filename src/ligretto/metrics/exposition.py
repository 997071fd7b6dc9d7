"""``GET /metrics`` on an address of its own, for every process of the machine.

:class:`MetricsListener` serves the Prometheus text format with
prometheus_client's own small HTTP server, in a thread of its own: a scrape
never waits for the event loop, so a process whose loop is held still shows
how late it is, and it is never rate limited. It answers on the address
given (``LIGRETTO_METRICS_ADDRESS``), which is not the app's: a proxy that
forwards the app's port to the world never forwards it (docs/deploy.md).

With ``PROMETHEUS_MULTIPROC_DIR`` (:data:`~ligretto.metrics.series.MULTIPROCESS_DIR`)
a scrape reads the files of every process of the machine, so reaching any
of them reports all. Before it does, the files of processes that are gone
(killed, crashed) are swept: their gauges leave the sums; their counters
stay, so a total never goes backwards. A process that stops gracefully
takes its own gauges out at once (:func:`retire`).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Final
from wsgiref.simple_server import WSGIServer

from prometheus_client import REGISTRY, CollectorRegistry, start_http_server
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from ligretto.metrics.series import MULTIPROCESS_DIR

_LIVE_GAUGES: Final = re.compile(r"^gauge_live\w+?_(\d+)\.db$")


def alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as another user
    return True


def sweep(directory: Path) -> list[int]:
    """Remove the live gauges of the processes of ``directory`` that are gone; their ids."""
    pids = {
        int(match.group(1))
        for path in directory.glob("gauge_live*.db")
        if (match := _LIVE_GAUGES.match(path.name))
    }
    gone = sorted(pid for pid in pids if not alive(pid))
    for pid in gone:
        mark_process_dead(pid, str(directory))  # type: ignore[no-untyped-call]
    return gone


class MachineCollector(Collector):
    """Every process of the machine, from the shared directory, swept first."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        # prometheus_client's multiprocess module has no annotations.
        self._files = MultiProcessCollector(None, str(directory))  # type: ignore[no-untyped-call]

    def collect(self) -> Iterable[Metric]:
        sweep(self.directory)
        metrics: Iterable[Metric] = self._files.collect()  # type: ignore[no-untyped-call]
        return metrics


def registry() -> CollectorRegistry:
    """What a scrape shows: the machine's processes, or this process alone.

    Alone, prometheus_client's default registry, with its series of the
    process (CPU, memory, open files) and of Python's collector.
    """
    if not MULTIPROCESS_DIR:
        return REGISTRY
    machine = CollectorRegistry()
    machine.register(MachineCollector(Path(MULTIPROCESS_DIR)))
    return machine


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (an IPv6 host in brackets, ``[::1]:9464``) as host and port.

    Raises ValueError for anything else.
    """
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:9464), not {text!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"write an IPv6 address in brackets ([::1]:9464), not {text!r}")
    return host, int(port)


class MetricsListener:
    """``/metrics`` served on ``address`` from :meth:`start` to :meth:`stop`."""

    def __init__(self, address: str) -> None:
        self.host, self.port = parse_address(address)
        self._server: WSGIServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Listen (raises OSError when the address is taken) and serve in a thread."""
        if MULTIPROCESS_DIR:
            sweep(Path(MULTIPROCESS_DIR))  # what crashed before this process started
        self._server, self._thread = start_http_server(self.port, self.host, registry())

    def stop(self) -> None:
        """Stop serving (a scrape being answered ends first)."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None


def retire() -> None:
    """This process stops: its gauges (seats, tables, studies) leave the machine's sums."""
    if MULTIPROCESS_DIR:
        mark_process_dead(os.getpid(), MULTIPROCESS_DIR)  # type: ignore[no-untyped-call]
