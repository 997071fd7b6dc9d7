"""A tap held while the page redraws: the press, a change, then the release.

A press and a release on two different elements make no click, so a redraw
that replaces what a finger is on loses the tap; the pages keep the element
(play/redraw.js, table.css). These helpers make that moment happen on
purpose instead of by chance.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Locator, Page

ARM = """(el) => { el.__changed = new Promise((done) => new MutationObserver((_, seen) => {
  seen.disconnect(); done(); }).observe(el, { childList: true })); }"""
"""Watch ``el`` for its next change of children (``el.__changed`` resolves then)."""


@contextmanager
def held_press(page: Page, target: Locator, watched: Locator) -> Iterator[None]:
    """Press the mouse on the middle of ``target`` and hold it; the block
    makes (or waits for) a change of ``watched``'s children; the release
    comes once the page has made it."""
    box = target.bounding_box()
    assert box is not None, "the target is not on the screen"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    watched.evaluate(ARM)
    yield
    watched.evaluate("(el) => el.__changed")
    page.mouse.up()
