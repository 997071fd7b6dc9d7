"""``ligretto serve``: starts on an empty data folder and stops on Ctrl-C even while
watchers hold live-update streams open (issue 3, Serving)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_serve_creates_its_database_and_stops_on_ctrl_c_with_open_streams(
    tmp_path: Path,
) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "LIGRETTO_DATABASE_URL"}
    data_dir = tmp_path / "new" / "folder"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ligretto.cli",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.05)
        assert (data_dir / "ligretto.db").is_file()
        with httpx.Client(base_url=base, timeout=10) as client:
            gid = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()["id"]
            with (
                client.stream("GET", f"/api/games/{gid}/events") as first,
                client.stream("GET", f"/api/games/{gid}/events") as second,
            ):
                for stream in (first, second):
                    assert stream.status_code == 200
                    assert any(line.startswith("data:") for line in _head(stream))
                process.send_signal(signal.SIGINT)  # Ctrl-C
                assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _head(stream: httpx.Response) -> list[str]:
    lines: list[str] = []
    for line in stream.iter_lines():
        lines.append(line)
        if line.startswith("data:"):
            break
    return lines
