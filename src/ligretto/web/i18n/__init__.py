"""Translations of the Tafel pages: German, English and Norwegian Bokmål.

The catalogues are plain ``.po`` files next to this module. They are read
and compiled in memory on first use, so a fresh clone needs no compile
step before ``make run`` or ``make test``.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES: tuple[str, ...] = ("de", "en", "nb")
"""The languages the pages speak, as used in ``?lang=`` and the cookie."""

DEFAULT_LANGUAGE = "en"

LANGUAGE_NAMES: dict[str, str] = {"de": "Deutsch", "en": "English", "nb": "Norsk bokmål"}
"""Each language named in itself, for the switch on every page."""

CATALOGUE_DIR = Path(__file__).resolve().parent

# Norwegian comes as "no", "nb" or "nn" in Accept-Language; Bokmål serves all.
_ALIASES: dict[str, str] = {"de": "de", "en": "en", "nb": "nb", "no": "nb", "nn": "nb"}


def catalogue_path(language: str) -> Path:
    """The ``.po`` file of *language*."""
    return CATALOGUE_DIR / language / "LC_MESSAGES" / "messages.po"


@cache
def translations(language: str) -> Translations:
    """The compiled catalogue of *language* (read once per process)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    with catalogue_path(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain="messages")


def normalize(tag: str | None) -> str | None:
    """Map a language tag such as ``de-AT`` or ``no`` to one of LANGUAGES."""
    if not tag:
        return None
    primary = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return _ALIASES.get(primary)


def from_accept_language(header: str | None) -> str | None:
    """The best of LANGUAGES for an ``Accept-Language`` header, or None.

    >>> from_accept_language("fr-CH, fr;q=0.9, nb;q=0.8, de;q=0.7")
    'nb'
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        language = normalize(tag)
        if language is not None and quality > 0:
            ranked.append((-quality, position, language))
    return min(ranked)[2] if ranked else None


def choose_language(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page language: an explicit ``?lang=`` wins, then the cookie, then the browser."""
    return (
        normalize(query)
        or normalize(cookie)
        or from_accept_language(accept_language)
        or DEFAULT_LANGUAGE
    )
