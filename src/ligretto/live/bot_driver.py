"""Bots at an online table: who moves next for each bot seat, and when.

Bots go through the same move path as people: the driver plans a bot's
next action with the delay its reaction-time model draws, the table queues
it after that delay and judges it against the round as it is when it
arrives — a bot that was too slow loses the race (R3) like a person does.
A person who stayed away is played by a stand-in bot of the table's
settings until they come back, so the table never stalls.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ligretto.live.botseat import BotBrain
from ligretto.live.seating import Seat
from ligretto.rules.actions import Action
from ligretto.rules.round import Round


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's planned move, due after its reaction time.

    ``generation`` and ``round_no`` let the table drop a move planned
    before the seat changed hands or the round was dealt anew.
    """

    seat: int
    generation: int
    round_no: int
    action: Action | None  # None: the bot waited and looks again


@dataclass(frozen=True, slots=True)
class StandIn:
    """The bot that plays for a person who is away."""

    strategy: str = "stack-first"
    level: str = "medium"


class BotDriver:
    """Plans the next move of every idle bot seat.

    ``rng`` is the table's own random stream (bots' seeds are drawn from it,
    so a seeded table replays the same); ``schedule`` queues a move after a
    delay; ``pace`` multiplies every delay (tests make bots faster).
    """

    def __init__(
        self,
        rng: random.Random,
        schedule: Callable[[float, BotMove], object],
        *,
        stand_in: StandIn,
        pace: float = 1.0,
    ) -> None:
        self._rng = rng
        self._schedule = schedule
        self._stand_in = stand_in
        self._pace = pace

    def plan(self, rnd: Round, round_no: int, seats: Iterable[Seat]) -> None:
        """Give every idle bot seat its next move, due after its reaction time."""
        for seat in seats:
            if not seat.bot_plays or seat.bot_pending:
                continue
            if seat.brain is None:
                seat.brain = self._brain(seat)
            action, delay = seat.brain.plan(rnd.view(seat.index))
            seat.bot_pending = True
            self._schedule(
                delay * self._pace, BotMove(seat.index, seat.generation, round_no, action)
            )

    def _brain(self, seat: Seat) -> BotBrain:
        strategy = seat.strategy if seat.kind == "bot" else self._stand_in.strategy
        level = seat.level if seat.kind == "bot" else self._stand_in.level
        return BotBrain(strategy or "stack-first", level or "medium", self._rng.getrandbits(63))
