"""The one name rule (T1), used by the Tafel, the online tables and every form.

A name is what people read on a board, so two names that look the same are
the same name, and a name must be visible:

- it is normalised to NFC and trimmed; runs of spaces become one space;
- control, format, private-use, unassigned and separator characters, lone
  surrogates and other invisible characters are refused (a zero-width space
  or a right-to-left override makes a name that looks like another one or
  reverses the text around it); the zero-width joiner and variation
  selectors inside emoji are kept;
- a name holds at least one visible character and at most
  :data:`~ligretto.tafel.limits.MAX_NAME_LENGTH` characters;
- two names are the same when their :func:`name_key` is: compatibility
  normalised (NFKC) and case folded, so "Anna", "ANNA" and "Ａｎｎａ" collide.
"""

from __future__ import annotations

import re
import unicodedata

from ligretto.tafel.errors import Code, InvalidGameError
from ligretto.tafel.limits import MAX_NAME_LENGTH

# Kept although they are format characters or combining marks: they shape
# emoji and scripts (ZWJ sequences, variation selectors, ZWNJ in Persian).
_SHAPING = frozenset({"\u200c", "\u200d", "\ufe0e", "\ufe0f"})
# Cc control, Cf format, Cs surrogate, Co private use, Cn unassigned,
# Zl/Zp line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Characters whose category says "letter" or "symbol" but that show nothing.
_INVISIBLE = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"})
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")
# Spaces of any width (NBSP, ideographic space …) are one ordinary space;
# tabs and line breaks are control characters and refused.
_SPACES = re.compile(r"[^\S\t\n\r\f\v\x1c-\x1f\x85\u2028\u2029]+")


class InvalidNameError(InvalidGameError):
    """A name breaks the name rule (T1): empty, too long, or with invisible characters."""


def printable(text: str, limit: int = MAX_NAME_LENGTH + 20) -> str:
    """``text`` made safe to show and to encode (lone surrogates replaced), shortened."""
    return text[:limit].encode("utf-8", "replace").decode("utf-8")


def clean_name(raw: object) -> str:
    """The name as it is kept and shown, or :class:`InvalidNameError`.

    >>> clean_name("  Anna   Lena ")
    'Anna Lena'
    >>> clean_name("Ame\\u0301lie") == "Am\\u00e9lie"
    True
    >>> clean_name("Anna\\u200b")
    Traceback (most recent call last):
    ...
    ligretto.tafel.names.InvalidNameError: Anna\\u200b: a name cannot hold ... (T1)
    """
    if not isinstance(raw, str):
        raise InvalidNameError(
            Code.EMPTY_NAME, f"a player name must be text, not {type(raw).__name__} (T1)", rule="T1"
        )
    try:
        name = unicodedata.normalize("NFC", raw)
    except UnicodeError:  # pragma: no cover - normalize accepts every str
        name = raw
    name = _SPACES.sub(" ", name).strip()
    for ch in name:
        if ch in _SHAPING:
            continue
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _INVISIBLE:
            shown = printable(name).encode("unicode_escape").decode("ascii")
            raise InvalidNameError(
                Code.BAD_NAME,
                f"{shown}: a name cannot hold control or invisible characters (T1)",
                rule="T1",
            )
    if not any(
        unicodedata.category(ch).startswith(_VISIBLE_CATEGORIES) and ch not in _INVISIBLE
        for ch in name
    ):
        raise InvalidNameError(Code.EMPTY_NAME, "a player name is empty (T1)", rule="T1")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidNameError(
            Code.NAME_TOO_LONG,
            f"{name[:MAX_NAME_LENGTH]}…: a name has at most {MAX_NAME_LENGTH} characters (T1)",
            rule="T1",
            player=name,
            params={"limit": MAX_NAME_LENGTH},
        )
    return name


def name_key(name: str) -> str:
    """What two names are compared by (T1): NFKC, case folded, shaping marks dropped.

    >>> name_key("ANNA") == name_key("Anna") == name_key("\\uff21nna")
    True
    """
    folded = unicodedata.normalize("NFKC", _SPACES.sub(" ", name).strip()).casefold()
    return "".join(ch for ch in folded if ch not in _SHAPING)
