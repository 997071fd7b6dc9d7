"""Words kept whole and text kept in its box, measured in the browser.

``split_words(page, selector)`` lists every word of the elements matching
``selector`` that runs over two lines although its line had room for it
whole ("Gesa/mt" in a column heading, "Bestemo/r" beside a card), and
every such element whose text is wider than its box (``scrollWidth``
past ``clientWidth``: cut, or spilling over its neighbour). A word too long
for any line of its box may break (a 30-letter name on a phone) and is not
listed (unless asked: ``even_too_long``); nor is a word with a hyphen or a
slash, which breaks there.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

_SPLIT_WORDS = (Path(__file__).parent / "words.js").read_text()
"""The measuring script: ``([selector, even_too_long]) => [found, ...]``."""


def split_words(page: Page, selector: str, *, even_too_long: bool = False) -> list[str]:
    """Words of ``selector`` broken where they would fit whole, and text wider
    than its box; with ``even_too_long`` every broken word (a column's
    heading: the layout must give it room for its words)."""
    found: list[str] = page.evaluate(_SPLIT_WORDS, [selector, even_too_long])
    return found
