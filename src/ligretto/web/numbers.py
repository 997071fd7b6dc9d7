"""Numbers as the reader's language writes them: decimal comma, true minus sign, percent.

One home for the pages and the charts alike, so that a rating reads ``7,6``
in German and Norwegian wherever it is printed, in a table or in an SVG.
"""

from __future__ import annotations

from babel.numbers import format_decimal, format_percent

LOCALES = {"de": "de_DE", "en": "en_GB", "nb": "nb_NO"}
"""The region whose way of writing numbers each language's pages use."""


def number(language: str, value: float | None, digits: int = 1) -> str:
    """*value* with *digits* decimals as *language* writes them (``7,6`` in de and nb),
    a true minus sign and no grouping; a dash for none."""
    if value is None:
        return "\u2013"
    pattern = "0." + "0" * digits if digits else "0"
    text = format_decimal(abs(value), pattern, locale=LOCALES.get(language, "en_GB"))
    return f"\u2212{text}" if value < 0 and round(abs(value), digits) != 0 else text


def percent(language: str, value: float | None) -> str:
    """A share as whole percent as *language* writes it (``76 %`` in de); a dash for none."""
    if value is None:
        return "\u2013"
    return format_percent(value, locale=LOCALES.get(language, "en_GB"))
