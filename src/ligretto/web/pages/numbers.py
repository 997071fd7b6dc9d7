"""Whole numbers typed into the pages' forms and links."""

from __future__ import annotations


def whole_number(text: str, max_digits: int = 6) -> int | None:
    """``text`` as a non-negative whole number in the digits 0-9, else None.

    ``str.isdigit`` alone is not enough: it accepts "²", which ``int``
    refuses, and ``int`` refuses more than 4,300 digits; both would end a
    request with a server error instead of a message.
    """
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
