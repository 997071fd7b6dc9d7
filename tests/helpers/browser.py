"""Helpers of the browser tests: a live uvicorn server and Chromium's settings."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import ViewportSize

from ligretto.serve_process import ServerThread
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
PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class LiveServer(ServerThread):
    """The Tafel app on a fresh SQLite data directory, served in a background thread."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(create_app(Settings(data_dir=data_dir, database_url=None)))
