"""A live server and Debian's Chromium for browser tests (reusable by every page suite).

``live_server`` starts the real app with uvicorn on a free 127.0.0.1 port
in a thread, on a temporary SQLite data directory, and stops it after the
module. ``browser`` is one Chromium per module; ``new_page`` gives fresh
pages in their own contexts (phone 360×740 by default). ``shoot`` saves a
screenshot into ``test-artifacts/`` (gitignored) for people to look at.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from helpers.browser import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    LiveServer,
    screenshot,
    serving,
    settle,
    watchdog,
)

# Every wait for what a page shows has as long as every other wait of a
# page (the context's default below): 5 s, Playwright's own default for
# expect, is short on a machine that is busy with other work.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(LiveServer(tmp_path_factory.mktemp("tafel-data")))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"needs Debian's Chromium at {CHROMIUM} (package chromium-headless-shell)")
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            with watchdog("closing Chromium"):
                chromium.close()
    finally:
        with watchdog("stopping Playwright"):
            playwright.stop()


def _context(browser: Browser, viewport: ViewportSize, **options: object) -> BrowserContext:
    # A phone has a touch screen; ``touch=True`` makes any other size one too.
    touch = bool(options.pop("touch", viewport is PHONE))
    context = browser.new_context(
        viewport=viewport,
        device_scale_factor=2 if touch else 1,
        is_mobile=touch,
        has_touch=touch,
        locale=str(options.pop("locale", "en-GB")),
        **options,  # type: ignore[arg-type]
    )
    context.set_default_timeout(10_000)
    return context


@pytest.fixture
def new_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """``new_page(viewport=PHONE, locale=..., color_scheme=..., touch=...)``: a fresh context.

    The Tafel's service worker runs only in the tests marked
    ``service_worker`` (what it does offline); elsewhere the pages load as on
    a phone's first visit, and each context is spared starting it.
    """
    worker = "allow" if request.node.get_closest_marker("service_worker") else "block"
    contexts: list[BrowserContext] = []
    # Every page of every browser test is also a check of the
    # Content-Security-Policy: anything it blocks fails the test.
    blocked: list[str] = []

    def watch(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    def make(viewport: ViewportSize = PHONE, **options: object) -> Page:
        options.setdefault("service_workers", worker)
        context = _context(browser, viewport, **options)
        contexts.append(context)
        page = context.new_page()
        page.on("console", watch)
        return page

    yield make
    with watchdog("closing a test's browser contexts") as dog:
        try:
            for context in contexts:
                context.close()
        except PlaywrightError:
            if not dog.fired:
                raise
            # The test itself is done and judged; only Chromium's shutdown
            # hung (killed above, the stacks printed): said, not failed.
            # The module's later tests then meet a closed browser and fail.
            warnings.warn("Chromium hung closing this test's contexts and was killed", stacklevel=1)
    assert not blocked, f"the Content-Security-Policy blocked: {blocked}"


@pytest.fixture
def shoot() -> Callable[[Page, str], Path]:
    """Save a full-page screenshot as ``test-artifacts/<name>.png``, once
    the page's animations have played out (LIGRETTO_SHOTS=0: only the wait)."""

    def save(page: Page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        try:
            settle(page)  # the screen as it stays, not halfway through a move
        except PlaywrightError:
            page.wait_for_load_state("load")  # it was loading again: see below
        try:
            screenshot(page, path, full_page=True, scale="css")
        except PlaywrightTimeoutError:
            # A page that began to load again (a save's reload) draws no
            # frame until it has: one more try once it is there.
            page.wait_for_load_state("load")
            screenshot(page, path, full_page=True, scale="css", timeout=30_000)
        return path

    return save
