"""Helpers of the browser tests: a live uvicorn server and Chromium's settings."""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, ViewportSize

from helpers.processes import descendants
from ligretto.live.settings import TableSettings
from ligretto.serve_process import ServerThread
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

# Debian's Chromium in its headless shell (package chromium-headless-shell),
# which is what Playwright itself drives for headless runs: the same Blink
# and V8 as the browser, without its window, UI and compositor stack. Two
# browser files took 75-82 s of the machine's CPU with it against 142-146 s
# with the full browser (2026-12-07, two pairs of runs); every browser test
# passes with either. The full browser is the fallback, and
# LIGRETTO_CHROMIUM names any other.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(
    os.environ.get(
        "LIGRETTO_CHROMIUM",
        HEADLESS_SHELL if HEADLESS_SHELL.exists() else "/usr/bin/chromium",
    )
)
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
# Screenshots are for people to look at. A CI machine's are never looked
# at, and each costs Chromium about 0.1 s of CPU (a long page more): a
# browser file with 108 of them took 60-63 s of CPU without them against
# 71-73 s with them (2026-12-08). LIGRETTO_SHOTS=0 (.ci/run) leaves them out;
# the waits before them (settle) still run, so a test runs the same way.
TAKE_SHOTS = os.environ.get("LIGRETTO_SHOTS", "1") != "0"


def screenshot(target: Page | Locator, path: Path, **options: Any) -> None:
    """Save ``target`` (a page or one element of it) as ``path`` for people
    to look at, unless LIGRETTO_SHOTS=0."""
    if TAKE_SHOTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(path), **options)


class LiveServer(ServerThread):
    """The Tafel app on a fresh SQLite data directory, served in a background thread."""

    def __init__(self, data_dir: Path) -> None:
        self.app = create_app(Settings(data_dir=data_dir, database_url=None))
        super().__init__(self.app)


#: How long closing a context, the browser or Playwright may take before
#: the watchdog steps in (they take well under a second when all is well).
UNSTICK_AFTER = 90.0


class Watchdog:
    """What :func:`watchdog` did: ``fired`` once it had to step in."""

    def __init__(self, what: str, kill: bool) -> None:
        self.what = what
        self.kill = kill
        self.fired = False

    def unstick(self) -> None:
        """Say where the test process hangs, then kill its Chromium.

        Chromium now and then does not close when asked (a known, rare hang
        of its shutdown), and Playwright waits for it without a limit.
        Killed, it lets ``Browser.close`` return as if it had exited; a
        context's close raises instead of waiting for ever.
        """
        self.fired = True
        print(
            f"\n{self.what} still hangs after {UNSTICK_AFTER:.0f} s; the stacks:", file=sys.stderr
        )
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        if not self.kill:
            return
        for pid in reversed(descendants(os.getpid())):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
                if b"chromium" in command:
                    os.kill(pid, signal.SIGKILL)
            except OSError:
                continue


@contextmanager
def watchdog(what: str, *, kill: bool = True) -> Iterator[Watchdog]:
    """Run a closing step that must not hang a test run (Playwright's closes wait unbounded).

    ``kill=False`` only shows the stacks (a step that ends by itself, later).
    """
    dog = Watchdog(what, kill)
    timer = threading.Timer(UNSTICK_AFTER, dog.unstick)
    timer.daemon = True
    timer.start()
    try:
        yield dog
    finally:
        timer.cancel()


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
        with watchdog("stopping a test server", kill=False):
            server.stop()


SETTLE = """async () => {
  const finite = document.getAnimations().filter(
    (a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  await Promise.all(finite.map((a) => a.finished.catch(() => null)));
}"""


def resize(page: Page, viewport: ViewportSize) -> None:
    """Change the screen's size and wait until the page has answered it:
    the table lays itself out anew on the resize event (``play/board.js``),
    which comes with the next frame, so a measurement made at once can see
    the old layout (a screenshot in between used to hide that). The event
    is awaited itself, not a frame: a test's paused clock holds the
    animation frames, never the event."""
    if page.viewport_size == viewport:
        return
    page.evaluate(
        "() => { window.__resized = new Promise((r) => addEventListener('resize', r, {once: 1})); }"
    )
    page.set_viewport_size(viewport)
    page.evaluate("() => window.__resized.then(() => true)")


def settle(page: Page) -> None:
    """Wait until every animation and transition that ends has ended: the
    screen as it stays (a pulsing hint, which never ends, is left running;
    a screenshot waits for the next frame itself). A busy machine makes
    this wait longer, never too short. (No animation frame is awaited
    here: a page without JavaScript never runs one.)"""
    page.evaluate(SETTLE)


def pause_clock(page: Page) -> None:
    """From here the page's time (``page.clock``, installed) moves only when
    the test moves it: paused a little ahead, as the clock runs on while the
    call travels (Playwright takes a number as seconds since the epoch). On
    a busy machine the call can take longer than the lead, and Playwright
    refuses to go back: then again from the page's new time, with a longer
    lead."""
    for lead in (0.5, 2.0, 5.0, 15.0):
        try:
            page.clock.pause_at(page.evaluate("Date.now()") / 1000 + lead)
            return
        except PlaywrightError as exc:
            if "to the past" not in str(exc):
                raise
    raise AssertionError("the page's clock ran ahead of every lead")


NewPage = Callable[..., Page]
"""The ``new_page`` fixture: ``new_page(viewport=PHONE, locale=..., touch=...)``."""
Shoot = Callable[[Page, str], Path]
"""The ``shoot`` fixture: a full-page screenshot under ``test-artifacts/``."""

PHONES: dict[str, ViewportSize] = {
    "360": {"width": 360, "height": 740},
    "390": {"width": 390, "height": 844},
}
"""The two phone widths the end-of-game screens are checked at."""
LOCALES = {"de": "de-DE", "en": "en-GB", "nb": "nb-NO"}
"""A browser locale for each of the UI's languages."""
