"""``ligretto serve``: starts on an empty data folder and stops on Ctrl-C even while
watchers hold live-update streams open (issue 3, Serving)."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest

from ligretto.serve_process import ServeProcess

pytestmark = pytest.mark.slow


def test_serve_creates_its_database_and_stops_on_ctrl_c_with_open_streams(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "new" / "folder"
    log = tmp_path / "server.log"
    server = ServeProcess(data_dir, log=log)
    try:
        base = server.start()
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
                assert server.process is not None
                server.process.send_signal(signal.SIGINT)  # Ctrl-C
                assert server.process.wait(timeout=10) == 0
        # What the server said is kept when asked for (the benchmarks print it).
        said = log.read_text()
        assert "Uvicorn running on" in said and '"POST /api/games HTTP/1.1" 201' in said
    finally:
        server.kill()


def _head(stream: httpx.Response) -> list[str]:
    lines: list[str] = []
    for line in stream.iter_lines():
        lines.append(line)
        if line.startswith("data:"):
            break
    return lines
