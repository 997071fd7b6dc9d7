"""``/metrics`` on an address of its own; the files of processes that are gone swept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from helpers.metrics import parse
from ligretto.child_process import free_port
from ligretto.metrics.exposition import MetricsListener, alive, parse_address, sweep


def _gone_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _write(path: Path) -> None:
    """A process's file of values (a sweep goes by the names alone)."""
    path.write_bytes(b"")


def test_the_gauges_of_a_process_that_is_gone_are_swept_and_its_counters_kept(
    tmp_path: Path,
) -> None:
    gone, here = _gone_pid(), os.getpid()
    assert not alive(gone) and alive(here)
    for pid in (gone, here):
        for kind in ("gauge_livesum", "counter", "histogram"):
            _write(tmp_path / f"{kind}_{pid}.db")
    assert sweep(tmp_path) == [gone]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [
            f"counter_{gone}.db",
            f"histogram_{gone}.db",
            f"counter_{here}.db",
            f"gauge_livesum_{here}.db",
            f"histogram_{here}.db",
        ]
    )
    assert sweep(tmp_path) == []


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:9464", ("127.0.0.1", 9464)),
        ("[::1]:18001", ("::1", 18001)),
        ("metrics.internal:18001", ("metrics.internal", 18001)),
    ],
)
def test_a_metrics_address_is_host_and_port(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address


@pytest.mark.parametrize("text", ["9464", "127.0.0.1", ":9464", "::1:9464", "host:0", "h:70000"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"HOST:PORT|brackets"):
        parse_address(text)


def test_the_listener_serves_prometheus_text_until_it_stops() -> None:
    port = free_port()
    listener = MetricsListener(f"127.0.0.1:{port}")
    listener.start()
    try:
        answer = httpx.get(f"http://127.0.0.1:{port}/metrics", trust_env=False, timeout=10)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
        names = {name for name, _ in parse(answer.text)}
        assert "ligretto_moves_received_total" in names
    finally:
        listener.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/metrics", trust_env=False, timeout=10)
