"""The commands in an online table's queue: what arrives, in the order it arrived.

A table's task (:class:`~ligretto.live.table.Table`) takes them one at a time
and handles each to the end before the next: a message from a person, a
connection that left, a bot's move, a timer that fired, a function run
inside the actor, the order to stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ligretto.live.actor import TimerKind
from ligretto.live.bot_driver import BotMove
from ligretto.live.connection import Connection
from ligretto.live.protocol import ClientMessage


@dataclass(frozen=True, slots=True)
class FromClient:
    """A message from a person's connection."""

    conn: Connection
    message: ClientMessage
    #: When it arrived (monotonic clock): a lost race's margin is measured
    #: between arrivals, not between the moments the actor got to them.
    at: float


@dataclass(frozen=True, slots=True)
class Left:
    """A connection closed."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class Timer:
    """A timer the table set has fired."""

    kind: TimerKind
    round_no: int
    seat: int = -1
    generation: int = 0  # for "away": the seat's presence count when set


@dataclass(frozen=True, slots=True)
class Call:
    """Run a function inside the actor (tests and the HTTP layer use it)."""

    fn: Callable[[], None]


class StopTable:
    """The table stops (the server stops, or the table was handed over)."""


Command = FromClient | Left | BotMove | Timer | Call | StopTable
"""Everything a table's task takes from its queue, handled one at a time to the end."""
