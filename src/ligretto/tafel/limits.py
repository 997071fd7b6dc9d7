"""The Tafel's limits (T1–T3), each written once.

The forms, the JSON API, the online tables and the page scripts all read
these values (the scripts through the server), so a limit changes in one
place. Card counts come from the rules package: the Tafel counts the cards
of real rounds, and a round is what :mod:`ligretto.rules` says it is.
"""

from __future__ import annotations

from ligretto.rules.cards import DECK_SIZE
from ligretto.rules.layout import STACK_SIZE
from ligretto.rules.options import MIN_PLAYERS, player_limits

__all__ = [
    "DECK_CARDS",
    "DEFAULT_ROUNDS",
    "DEFAULT_TARGET",
    "MAX_AGREED_ROUNDS",
    "MAX_GROUP_GAMES",
    "MAX_GROUP_ROUNDS",
    "MAX_MEMBERS",
    "MAX_NAME_LENGTH",
    "MAX_ROUNDS",
    "MAX_TARGET",
    "MIN_PLAYERS",
    "STACK_CARDS",
    "TARGET_CHOICES",
    "least_plausible_middle",
    "max_players",
    "middle_limit",
]

STACK_CARDS = STACK_SIZE
"""Cards in a Ligretto stack at the start of a round (R2): a stack count is 0 to this (T2)."""

DECK_CARDS = DECK_SIZE
"""Cards in one player's deck (R1)."""

MAX_NAME_LENGTH = 40
"""T1: a player's name, as typed, in characters."""

TARGET_CHOICES = (50, 99, 150)
"""The targets the Tafel offers (T1); any whole number up to MAX_TARGET is allowed."""

DEFAULT_TARGET = 99
"""T1: the usual target."""

MAX_TARGET = 1000
"""T1: the highest target a game can have."""

MAX_AGREED_ROUNDS = 100
"""T1: the most rounds a rounds game can agree on."""

MAX_ROUNDS = 1000
"""T1: the most rounds one game holds, entered or imported.

A round at a real table takes two to five minutes, so 1,000 rounds are two
days and nights of play without a break, more than any evening; the bound
keeps one game's reads and pages small (an endless target game, where every
round scores below zero, would otherwise grow without end).
"""

DEFAULT_ROUNDS = 8
"""What the forms offer for a rounds game (T1)."""


def max_players(deck: str) -> int:
    """The most players a game with ``deck`` can have (T1, from R1).

    >>> max_players("ligretto"), max_players("cards")
    (12, 16)
    """
    return player_limits(deck)[1]


def middle_limit(stack: int) -> int:
    """T3: the most cards a player can have in the middle with ``stack`` left.

    >>> middle_limit(3)
    37
    """
    return DECK_CARDS - stack


def least_plausible_middle(stack: int) -> int:
    """T3: without the row as storage, every card that left the stack is in the middle.

    A stack card only leaves to the middle or into a row gap that a middle
    play opened, so the middle holds at least 10 − stack cards.

    >>> least_plausible_middle(3)
    7
    """
    return STACK_CARDS - stack


MAX_MEMBERS = 100
"""The most members a group holds: a circle of friends, a club's evening, never a crowd."""

MAX_GROUP_GAMES = 5000
"""The most games one group import brings (a group plays more only game by game).

Five thousand games are a game every evening for more than ten years; the
bound keeps one import's work, and the statistics of one group, small.
"""

MAX_GROUP_ROUNDS = 50_000
"""The most rounds one group import brings, over all its games.

A family that plays three evenings a week, fifteen rounds an evening, for
twenty years enters 3 × 52 × 20 × 15 ≈ 47,000 rounds. A group's statistics,
its export and its import all read every round, so the bound keeps each of
them a matter of seconds in a thread and a bounded amount of memory
(docs/limits.md has the measurements); a group grows past it only game by
game, as it is played.
"""
