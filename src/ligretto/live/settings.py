"""The settings of an online table: its timings, its bots' pace, its clock.

One frozen record per table; tests shorten the timings and pass a
``ManualClock``, players get the defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ligretto.live.clock import REAL_CLOCK, Clock
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Timing of a table.  Tests shorten these; players get the defaults."""

    countdown: float = 3.0
    between_rounds: float = 15.0
    # A person whose connection is gone this long is played by a bot (the
    # table must not stall) until they come back with their seat token.
    away_after: float = 20.0
    # Multiplies every bot delay; below 1 makes bots faster (tests).
    bot_pace: float = 1.0
    # The bot that stands in for an absent person.
    standin_strategy: str = "stack-first"
    standin_level: str = "medium"
    seed: int | None = None
    # Deals a round (players, seed, options); tests put set positions here.
    dealer: Callable[[int, int, RuleOptions], Round] = Round.deal
    # Time and timers; tests pass a ``ManualClock`` and move it themselves.
    clock: Clock = REAL_CLOCK
    # A table nobody has been connected to for this long is removed (its
    # Tafel game keeps every round played).  While nobody is connected its
    # bots and stand-ins pause, so an abandoned table costs nothing.
    idle_after: float = 3600.0
    # A table whose game is over is closed once nobody has been connected
    # to it for this long (nobody plays it again).
    closed_after_game: float = 600.0
    # With tables kept in the database: a table nobody has been connected
    # to for this long is handed back (stopped here, its lease released), so
    # whichever process its people reach next takes it over (docs/deploy.md).
    handover_after: float = 30.0
    # R4 stall guard: no card has gone to the middle for this long, so the
    # people at the table are offered "We're stuck" (a table without a
    # person present decides it by itself).
    stall_after: float = 45.0
    # A quick match's table waits this long for people who ask for a
    # match; then bots fill its empty chairs and the game starts.
    match_wait: float = 30.0
