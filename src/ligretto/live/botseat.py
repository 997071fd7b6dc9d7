"""A bot in a seat of an online table: what to do next, and when.

The decision comes from :mod:`ligretto.bots` — a strategy choosing from the
seat's view only (never the snapshot: a bot knows no hidden card) and a
reaction-time level drawing how long a person would take.  The table
queues the move after that delay and judges it against the round as it is
when it arrives, so a bot that was too slow loses the race (R3) like a
person does.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ligretto.rules.actions import Action
from ligretto.rules.view import TableView

if TYPE_CHECKING:
    from ligretto.bots import Bot


class BotBrain:
    """One seat's bot of a named strategy and reaction-time level, with its
    own random stream (reproducible per seed)."""

    __slots__ = ("_bot", "_rng")

    def __init__(self, strategy: str, level: str, seed: int) -> None:
        from ligretto.bots import make_bot

        self._bot: Bot = make_bot(strategy, level)
        self._rng = random.Random(seed)

    def plan(self, view: TableView) -> tuple[Action | None, float]:
        """The next action (``None``: look again later) and its delay in seconds."""
        return self._bot.timed(view, self._rng)
