"""The bots in plain words: each strategy's short and long name and each
level's word (docs/bots.md), as ``/play`` and the lab show them.

Written once here, marked for translation; the templates read them through
the ``bot_words`` global (``play/_bots.html``), the lab's plots and
sentences through :func:`bot_words`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from ligretto.web.text import N_, gettext

__all__ = ["LEVEL_WORDS", "STRATEGY_LONG", "STRATEGY_SHORT", "BotWords", "bot_words"]

STRATEGY_SHORT: Final = {
    "watchful": N_("sharp"),
    "race-aware": N_("racer"),
    "stack-first": N_("by the book"),
    "greedy": N_("eager"),
    "random": N_("wild"),
    "discard-first": N_("backwards"),
    "row-last": N_("row saver"),
    "tuned": N_("tuned"),
}
"""A strategy in a word or two (a seat's label, a plot's line)."""

STRATEGY_LONG: Final = {
    "watchful": N_("Sharp: watches the middle for the card it needs"),
    "race-aware": N_("Racer: goes first for the cards others want too"),
    "stack-first": N_("By the book: empties its Ligretto stack first"),
    "greedy": N_("Eager: plays whatever fits"),
    "random": N_("Wild: any move at all"),
    "discard-first": N_("Backwards: its discard pile first (for studies)"),
    "row-last": N_("Row saver: keeps its row for last (for studies)"),
    "tuned": N_("Tuned: its choices were tuned in simulated games"),
}
"""A strategy with what it does (a choice in a form)."""

LEVEL_WORDS: Final = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""A level's word (docs/bots.md, "Timing")."""


@dataclass(frozen=True, slots=True)
class BotWords:
    """The words of one language; a name without words stays itself."""

    short: dict[str, str]
    long: dict[str, str]
    levels: dict[str, str]

    def bot(self, strategy: str, level: str) -> str:
        """``by the book, hard``: a bot as a seat's label says it."""
        return f"{self.short.get(strategy, strategy)}, {self.levels.get(level, level)}"


@cache
def bot_words(language: str) -> BotWords:
    """The bots' words in ``language``."""

    def words(table: dict[str, str]) -> dict[str, str]:
        return {key: gettext(language, text) for key, text in table.items()}

    return BotWords(words(STRATEGY_SHORT), words(STRATEGY_LONG), words(LEVEL_WORDS))
