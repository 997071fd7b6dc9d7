"""``ligretto simulate --cluster``: the same chunks on a Dask cluster, the same results."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from typer.testing import CliRunner

from ligretto.cli import app
from ligretto.simulate import pool
from ligretto.simulate.pool import ClusterError, chunked, run_on_cluster

distributed = pytest.importorskip("distributed")

runner = CliRunner()


def _run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_rounds_on_a_cluster_match_one_worker(scheduler: str) -> None:
    # 250 rounds are three chunks (ROUND_CHUNK), so both workers get some.
    args = ("--bots", "stack-first:hard,mine:expert,greedy:easy", "--rounds", "250", "--seed", "4")
    one = _run_json(*args)
    on_cluster = _run_json(*args, "--cluster", scheduler)
    assert on_cluster["config"].pop("cluster") == scheduler
    assert one == on_cluster


def test_games_on_a_cluster_match_one_worker(scheduler: str) -> None:
    args = ("--bots", "stack-first:hard,random:easy", "--games", "9", "--agreed-rounds", "2")
    one = _run_json(*args)
    on_cluster = _run_json(*args, "--cluster", scheduler)
    on_cluster["config"].pop("cluster")
    assert one == on_cluster


def _ordinal(chunk: range) -> list[int]:
    return [i * i for i in chunk]


def test_chunks_come_back_in_order_with_progress(scheduler: str) -> None:
    progress: list[int] = []
    parts = list(run_on_cluster(_ordinal, chunked(23, 5), scheduler, progress.append))
    assert [x for part in parts for x in part] == [i * i for i in range(23)]
    assert progress == [5, 5, 5, 5, 3]


def test_cluster_and_workers_together_are_refused(scheduler: str) -> None:
    result = runner.invoke(
        app, ["simulate", "--rounds", "10", "--workers", "2", "--cluster", scheduler]
    )
    assert result.exit_code == 2
    assert "--workers or --cluster, not both" in result.output


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setattr(pool, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{port}"
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        list(run_on_cluster(_ordinal, chunked(3, 1), address))
    result = runner.invoke(app, ["simulate", "--rounds", "10", "--cluster", address])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler" in result.output
