"""The lab's players by name: a seat is "Anna", not "seat 1".

A study's seats are people at a table, not places in a ranking ("Platz 1"
reads as first place in German), so the lab names them, in seating order,
with names that read the same in German, English and Norwegian; the
plots, the sentences and the form all use these.
"""

from __future__ import annotations

from typing import Final

from ligretto.rules.options import MAX_PLAYERS
from ligretto.web.pages.bot_words import bot_words

__all__ = ["SEAT_NAMES", "bot_label", "seat_name"]

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


def bot_label(language: str, bot: str) -> str:
    """``"stack-first:hard"`` in words: ``by the book, hard`` (as ``/play`` says it)."""
    strategy, _, level = bot.partition(":")
    return bot_words(language).bot(strategy, level)
