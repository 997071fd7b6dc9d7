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

from playwright.sync_api import Page, ViewportSize

from helpers.browser import LOCALES, PHONE, NewPage

Mode = Literal["text", "zoom"]
MODES: tuple[Mode, ...] = ("text", "zoom")
ZOOMED: ViewportSize = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}
"""A 360 × 740 phone at 200 % page zoom, in CSS pixels."""


def large_phone(new_page: NewPage, mode: Mode, lang: str) -> Page:
    """A phone page in ``lang`` at 200 % text or 200 % zoom."""
    if mode == "zoom":
        return new_page(ZOOMED, locale=LOCALES[lang], touch=True)
    page = new_page(PHONE, locale=LOCALES[lang])
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    return page


PROBLEMS = (Path(__file__).parent / "reflow.js").read_text()
"""The measuring script: ``(scope) => {wide, unreachable, cut, broken}``."""


def reflow_problems(page: Page, scope: str = "body") -> dict[str, list[str]]:
    """What of ``scope`` does not reflow (empty lists: nothing)."""
    found: dict[str, list[str]] = page.evaluate(PROBLEMS, scope)
    return {kind: items for kind, items in found.items() if items}
