"""The time a table lives in: injected, so tests advance it instead of sleeping.

A table reads the wall clock for what it tells clients (``server_now``,
the countdown's ``start_at``), a monotonic clock for its idle time, and
sets timers (the countdown, the pause between rounds, a bot's reaction
time, the wait before a stand-in plays for someone away).  All three go
through a :class:`Clock`: :class:`RealClock` on the server,
:class:`ManualClock` in tests, where time moves only when the test says so.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    """A timer that can still be called off (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What a table needs of time."""

    def now(self) -> float:
        """Wall-clock seconds since the epoch (what clients are told)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for idle times)."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Run ``callback`` once, ``delay`` seconds from now."""
        ...


class RealClock:
    """The system clocks and the running event loop's timers."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        return asyncio.get_running_loop().call_later(delay, callback)


REAL_CLOCK = RealClock()


class _Due:
    """A timer of the manual clock; hashable, so a table can keep a set of them."""

    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that stands still until :meth:`advance` moves it (tests).

    Timers fire inside :meth:`advance`, in the order they fall due (ties in
    the order they were set), including timers set by a timer that fired.
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        # (when, order set, timer): a heap, earliest first.
        self._due: list[tuple[float, int, _Due]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        due = _Due(callback)
        heapq.heappush(self._due, (self._now + max(0.0, delay), next(self._order), due))
        return due

    @property
    def pending(self) -> int:
        """Timers set and not yet fired or cancelled."""
        return sum(not due.cancelled for _, _, due in self._due)

    def advance(self, seconds: float = 0.0) -> None:
        """Move time forward by ``seconds`` and fire every timer now due."""
        until = self._now + seconds
        while self._due and self._due[0][0] <= until:
            at, _, due = heapq.heappop(self._due)
            self._now = max(self._now, at)
            if not due.cancelled:
                due.callback()
        self._now = until
