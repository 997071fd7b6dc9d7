"""The lab's players by name: a seat is "Anna", not "seat 1".

A study's seats are people at a table, not places in a ranking ("Platz 1"
reads as first place in German), so the lab names them, in seating order,
with names that read the same in German, English and Norwegian; the
plots, the sentences and the form all use these.
"""

from __future__ import annotations

from typing import Final

from babel.numbers import format_percent

from ligretto.rules.options import MAX_PLAYERS
from ligretto.web.bot_words import bot_words
from ligretto.web.numbers import LOCALES
from ligretto.web.text import N_, gettext

__all__ = ["SEAT_NAMES", "SHUFFLE_WORDS", "bot_label", "seat_name", "shuffle_words"]

SEAT_NAMES: Final = (
    "Anna",
    "Ben",
    "Cleo",
    "Dana",
    "Emil",
    "Frida",
    "Gus",
    "Hanna",
    "Ivo",
    "Jonas",
    "Kari",
    "Lena",
    "Mads",
    "Nora",
    "Ole",
    "Pia",
)
assert len(SEAT_NAMES) >= MAX_PLAYERS  # R1: every seat a study can have


def seat_name(seat: int) -> str:
    """The name of ``seat`` (counted from 0)."""
    return SEAT_NAMES[seat]


def bot_label(language: str, bot: str, *, compact: bool = False) -> str:
    """A seat's label in words: ``"stack-first:hard"`` is ``by the book, hard`` (as
    ``/play`` says it); a label's own speed, overlooking and shuffle
    (``stack-first:hard speed=1.5 shuffle=riffle:1``, ``SimConfig.labels``)
    follow: ``by the book, hard, 1.5× as fast, riffles once`` (``compact``:
    ``×1.5`` for the speed, where a plot's row has little room)."""
    head, *extras = bot.split(" ")
    strategy, _, level = head.partition(":")
    said = [bot_words(language).bot(strategy, level)]
    for extra in extras:
        key, _, value = extra.partition("=")
        if key == "speed":
            factor = _decimal(language, value)
            said.append(
                f"×{factor}"
                if compact
                else gettext(language, N_("%(factor)s× as fast"), factor=factor)
            )
        elif key == "overlook":
            message = (
                N_("overlooks %(percent)s")
                if compact
                else N_("overlooks %(percent)s of the cards that fit")
            )
            said.append(gettext(language, message, percent=_percent(language, float(value))))
        elif key == "shuffle" and value in SHUFFLE_WORDS:
            said.append(gettext(language, SHUFFLE_WORDS[value]))
    return ", ".join(said)


def _decimal(language: str, text: str) -> str:
    """``1.5`` with the decimal comma of de and nb."""
    return text.replace(".", ",") if language in ("de", "nb") else text


def _percent(language: str, share: float) -> str:
    return format_percent(share, locale=LOCALES.get(language, "en_GB"))


SHUFFLE_WORDS: Final = {
    "uniform": N_("shuffles well"),
    "riffle:1": N_("riffles once"),
    "riffle:2": N_("riffles twice"),
    "riffle:3": N_("riffles three times"),
    "riffle:7": N_("riffles seven times"),
    "perfect:1": N_("riffles once, perfectly"),
    "none": N_("does not shuffle"),
}
"""How a seat shuffles between rounds, in words (``ligretto.sim.decks``; the
form's choices, ``web/lab/seat_form.py``'s ``SHUFFLES``)."""


def shuffle_words(language: str) -> dict[str, str]:
    """:data:`SHUFFLE_WORDS` in ``language``."""
    return {key: gettext(language, words) for key, words in SHUFFLE_WORDS.items()}
