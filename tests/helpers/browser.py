"""Helpers of the browser tests: a live uvicorn server and Chromium's settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from playwright.sync_api import ViewportSize

from ligretto.live.settings import TableSettings
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


class PlayServer(ServerThread):
    """The real app on a fresh data directory, with fast bots and a short countdown."""

    def __init__(self, data_dir: Path, settings: TableSettings | None = None) -> None:
        app = create_app(Settings(data_dir=data_dir, database_url=None))
        # Bots at a quarter of their expert reaction time, a short countdown.
        app.state.table_settings = settings or TableSettings(
            countdown=1.5, between_rounds=30.0, away_after=30.0, bot_pace=0.25
        )
        super().__init__(app)


Server = TypeVar("Server", bound=ServerThread)


def serving(server: Server) -> Iterator[Server]:
    """``server`` started for a module's fixture (``yield from serving(...)``), stopped after it."""
    server.start()
    try:
        yield server
    finally:
        server.stop()
