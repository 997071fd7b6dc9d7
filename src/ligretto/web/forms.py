"""Reading what people type into the pages' forms and links.

One module serves the Tafel pages and the online-play pages, so a number or
a choice is read the same way everywhere and odd input (a 5,000-digit
number, "²", a forged choice) becomes a message, never a server error.
"""

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


def whole_field(text: str, max_digits: int = 6) -> int | None:
    """A whole number typed into a form field (spaces around it allowed), else None."""
    return whole_number(text.strip(), max_digits)


def choice(text: str, choices: tuple[str, ...], default: str) -> str:
    """``text`` if it is one of ``choices``, else ``default`` (a forged or missing value)."""
    return text if text in choices else default
