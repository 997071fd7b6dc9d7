"""Words for Python code: translated sentences, the extraction marker and points as printed.

The cells, the refusals and the templates all need these; they live below
every page module (nothing here imports the pages), so none of them has to
import another to share them.
"""

from __future__ import annotations

from typing import Any

from ligretto.web.i18n import translations

MINUS = "\u2212"
"""A true minus sign: "−6" reads better than "-6" on the board."""


def N_(message: str) -> str:  # noqa: N802 - gettext's conventional marker name
    """Mark *message* for extraction; it is translated where it is shown."""
    return message


def gettext(language: str, message: str, **variables: Any) -> str:
    """Translate *message* for Python code; ``%(name)s`` placeholders as in templates."""
    text = translations(language).gettext(message)
    return text % variables if variables else text


def format_points(value: int | None, sign: bool = False) -> str:
    """Points as the board prints them: ``−6``, ``8`` or with *sign* ``+8``."""
    if value is None:
        return ""
    if value < 0:
        return f"{MINUS}{-value}"
    return f"+{value}" if sign and value > 0 else str(value)
