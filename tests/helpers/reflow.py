"""Pages at twice the size (WCAG 1.4.4 and 1.4.10): a phone whose browser
text is 200 % or whose page zoom is 200 %, and what on a page does not fit.

- *Text at 200 %*: Chromium's own default font size (the setting a reader
  changes) at 32 px instead of 16, through the DevTools protocol: the pages'
  rem and em grow with it, media queries in em too.
- *Zoom at 200 %*: a 360 px phone zoomed to 200 % lays the page out in
  180 CSS px (Chrome's page zoom on Android, a desktop browser's Ctrl +).

:func:`reflow_problems` names what breaks reflow: a page wider than the
screen (or anything left of its edge, where no scrolling reaches; text
too), a control or card that cannot be reached (outside the width, or
under another element at its centre once scrolled into view), text cut off
by a box that hides its overflow, and a word broken across two lines where
it would have fitted whole ("Kee p sco re").
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from weakref import WeakKeyDictionary

from playwright.sync_api import CDPSession, Page, ViewportSize

from helpers.browser import LOCALES, PHONE, NewPage

Mode = Literal["text", "zoom"]
MODES: tuple[Mode, ...] = ("text", "zoom")
ZOOMED: ViewportSize = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}
"""A 360 × 740 phone at 200 % page zoom, in CSS pixels."""


FONT_SIZES: dict[Mode, dict[str, int]] = {
    "text": {"standard": 32, "fixed": 26},
    "zoom": {"standard": 16, "fixed": 13},  # Chromium's defaults
}
"""Chromium's default font sizes (CSS px) in each mode."""

_SESSIONS: WeakKeyDictionary[Page, CDPSession] = WeakKeyDictionary()
"""One DevTools session a page, kept as long as the page: its font sizes
stay as the last call set them."""


def large_phone(new_page: NewPage, mode: Mode, lang: str) -> Page:
    """A phone page in ``lang`` at 200 % text or 200 % zoom (``turn`` changes it)."""
    page = new_page(PHONE, locale=LOCALES[lang], touch=True)
    turn(page, mode)
    return page


AWAIT_RESIZE = """() => { window.__reflowResized = new Promise((resolve, reject) => {
  addEventListener("resize", () => resolve(true), { once: true });
  setTimeout(() => reject(new Error("no resize event came")), 10000);
}); }"""
"""Listens for the next resize, after the page's own listeners (added at load)."""


def turn(page: Page, mode: Mode) -> None:
    """Show ``page`` as it is at 200 % text or at 200 % zoom: the same state
    measured both ways without playing it twice. The font size is set
    first, then the viewport; the call returns once the page's own resize
    handlers have run (the online table lays its cards out again there)."""
    if page not in _SESSIONS:
        _SESSIONS[page] = page.context.new_cdp_session(page)
        _SESSIONS[page].send("Page.enable")
    _SESSIONS[page].send("Page.setFontSizes", {"fontSizes": FONT_SIZES[mode]})
    size = ZOOMED if mode == "zoom" else PHONE
    if page.viewport_size == size:
        return
    page.evaluate(AWAIT_RESIZE)
    page.set_viewport_size(size)
    page.evaluate("() => window.__reflowResized")


PROBLEMS = (Path(__file__).parent / "reflow.js").read_text()
"""The measuring script: ``(scope) => {wide, unreachable, cut, broken}``."""


def reflow_problems(page: Page, scope: str = "body") -> dict[str, list[str]]:
    """What of ``scope`` does not reflow (empty lists: nothing)."""
    found: dict[str, list[str]] = page.evaluate(PROBLEMS, scope)
    return {kind: items for kind, items in found.items() if items}
