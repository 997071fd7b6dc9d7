"""The one name rule (T1), used by the Tafel, the online tables and every form.

A name is what people read on a board, so two names that look the same are
the same name, and a name must be visible:

- it is normalised to NFC and trimmed; runs of spaces become one space;
- control, format, private-use, unassigned and separator characters, lone
  surrogates and other invisible characters are refused (a zero-width space
  or a right-to-left override makes a name that looks like another one or
  reverses the text around it); the zero-width joiner and the emoji
  variation selectors are kept, and so are the variation selectors that
  choose the form of a CJK ideograph or a Mongolian letter, directly after
  one; any other default-ignorable character (the combining grapheme joiner,
  a variation selector after a Latin letter, the Khmer inherent vowels) is
  refused, wherever it stands;
- a name holds at least one visible character and at most
  :data:`~ligretto.tafel.limits.MAX_NAME_LENGTH` characters;
- two names are the same when their :func:`name_key` is: compatibility
  normalised (NFKC), invisible characters dropped and each character
  replaced by the one it is confused with (the skeleton of Unicode's
  UTS #39, from its ``confusables.txt``), then case folded and the skeleton
  taken again, so "Anna", "ANNA", "Ａｎｎａ", Cyrillic "Аnna" and Greek "Αnna",
  "Вen" and "Ben", Cyrillic "ТОМ" and "TOM" collide. Names written in
  another script's own letters ("Ирина", "Αλέξης", "山田") stay names of
  their own.
"""

from __future__ import annotations

import functools
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
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn
# as nothing, so a name with one added looks like the name without it.
# The standard library has no table of the property.
_DEFAULT_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
# Variation selectors that pick one drawing of the character before them
# (Unicode's standardized and ideographic variation sequences): kept after
# a CJK ideograph (a family name in its registered form) or a Mongolian
# letter, refused anywhere else, where they only hide in a name.
_IDEOGRAPH_SELECTORS = re.compile("[\ufe00-\ufe0d\U000e0100-\U000e01ef]")
_MONGOLIAN_SELECTORS = frozenset({"\u180b", "\u180c", "\u180d", "\u180f"})


class InvalidNameError(InvalidGameError):
    """A name breaks the name rule (T1): empty, too long, or with invisible characters."""


def printable(text: str, limit: int = MAX_NAME_LENGTH + 20) -> str:
    """``text`` made safe to show and to encode (lone surrogates replaced), shortened."""
    return text[:limit].encode("utf-8", "replace").decode("utf-8")


def _hidden(name: str, at: int) -> bool:
    """Whether ``name[at]`` draws nothing where it stands (T1)."""
    ch = name[at]
    if ch in _SHAPING:
        return False
    if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _INVISIBLE:
        return True
    if not _DEFAULT_IGNORABLE.fullmatch(ch):
        return False
    before = unicodedata.name(name[at - 1], "") if at > 0 else ""
    if _IDEOGRAPH_SELECTORS.fullmatch(ch):
        return not before.startswith("CJK ")
    if ch in _MONGOLIAN_SELECTORS:
        return not before.startswith("MONGOLIAN LETTER ")
    return True  # the combining grapheme joiner, Khmer inherent vowels …


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
    >>> clean_name("Anna\\ufe00")
    Traceback (most recent call last):
    ...
    ligretto.tafel.names.InvalidNameError: Anna\\ufe00: a name cannot hold ... (T1)
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
    for at in range(len(name)):
        if _hidden(name, at):
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


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the text it is confused with (UTS #39).

    confusable_homoglyphs ships Unicode's confusables.txt as pairs in both
    directions (a character and its prototype); a skeleton needs the one
    direction. In the file every character maps to one prototype and a
    prototype to nothing, so a character with several look-alikes is a
    prototype and one with a single look-alike maps to it. Of two that only
    have each other, both map to one: the one that NFKC leaves as it is, else
    the smaller (for comparing names the choice does not matter). Built on
    first use, since reading the data takes a moment.
    """
    from confusable_homoglyphs.confusables import confusables_data

    # The data writes right-to-left characters between left-to-right marks.
    def bare(text: str) -> str:
        return text.replace("\u200e", "")

    alike: dict[str, set[str]] = {}
    for key, glyphs in confusables_data.items():
        alike.setdefault(bare(key), set()).update(bare(g["c"]) for g in glyphs)
    table: dict[str, str] = {}
    for ch, others in alike.items():
        if len(ch) != 1 or len(others) != 1:
            continue
        (other,) = others
        if len(other) != 1 or len(alike.get(other, ())) > 1 or _preferred(other, ch):
            table[ch] = other
    return table


def _preferred(one: str, other: str) -> bool:
    """Of two characters that only look like each other, whether *one* is the key's."""
    stable = (
        unicodedata.normalize("NFKC", one) == one,
        unicodedata.normalize("NFKC", other) == other,
    )
    return stable[0] > stable[1] or (stable[0] == stable[1] and one < other)


@functools.cache
def _latin_lookalikes() -> dict[str, str]:
    """Each character beyond ASCII drawn like an ASCII letter, and that letter in its case.

    A character's look-alikes are those with the same prototype (UTS #39).
    Where they hold the letter in both cases, the capital is taken for a
    capital: Greek "Ι" is drawn like "I", though its prototype is small "l".
    """
    classes: dict[str, set[str]] = {}
    for ch, prototype in _prototypes().items():
        classes.setdefault(prototype, {prototype}).add(ch)
    table: dict[str, str] = {}
    for alike in classes.values():
        letters = sorted(c for c in alike if len(c) == 1 and c.isascii() and c.isalpha())
        for ch in alike:
            if letters and len(ch) == 1 and not ch.isascii():
                same_case = [c for c in letters if c.isupper() == ch.isupper()]
                table[ch] = (same_case or letters)[0]
    return table


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, invisibles dropped, each character its prototype, NFD."""
    prototypes = _prototypes()
    text = _DEFAULT_IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in text))


def _fold(text: str) -> str:
    """One pass of the key: NFKC, look-alikes of Latin letters made Latin, case fold, skeleton.

    Other scripts' letters become the Latin letters they are drawn like
    before case folding (T1): confusables.txt lists the capitals that look
    Latin (Cyrillic "В", Greek "Η"), but their small letters ("в", "η")
    look like no Latin letter, so a key that folded first kept "Вen" apart
    from "Ben". Only letters beyond ASCII are replaced before folding, each
    by the Latin letter in its own case: the skeleton itself makes capital
    "I" a small "l", which would part "MIA" from "Mia" (or, both kept one
    name, join "Ella" and "Elia"). After folding, the whole skeleton.
    """
    latin = _latin_lookalikes()
    text = unicodedata.normalize("NFKC", _SPACES.sub(" ", text).strip())
    text = _DEFAULT_IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    text = "".join(latin.get(ch, ch) for ch in text)
    text = _skeleton(text.casefold())
    return _SPACES.sub(" ", text).strip()


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two names are compared by (T1): NFKC, invisibles dropped, skeleton, case folded.

    Folding case or a look-alike can bring up a character that folds again
    (a capital whose look-alike is listed in small letters), so the passes
    repeat until the key stays as it is: a key is its own key. Remembered for
    the last few thousand names, since statistics compare every player of
    every game.

    >>> name_key("ANNA") == name_key("Anna") == name_key("\\uff21nna")
    True
    >>> name_key("\\u0410nna") == name_key("Anna\\u034f") == name_key("Anna")
    True
    >>> name_key("\\u0418\\u0440\\u0438\\u043d\\u0430") == name_key("Irina")
    False
    """
    key = _fold(name)
    for _ in range(8):
        again = _fold(key)
        if again == key:
            break
        key = again
    return unicodedata.normalize("NFC", key)
