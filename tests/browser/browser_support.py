"""Helpers of the browser tests: a live uvicorn server and Chromium's settings."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import uvicorn

from ligretto.serve_process import free_port
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class LiveServer:
    """uvicorn serving the app in a background thread."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(Settings(data_dir=data_dir, database_url=None))
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


