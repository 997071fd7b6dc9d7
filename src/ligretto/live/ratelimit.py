"""A token bucket per connection: flooding is refused, never queued."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """Allow ``rate`` messages per second with bursts up to ``burst``.

    A fast human plays perhaps four cards a second; a bucket of 20/s with a
    burst of 30 never gets in a person's way but stops a script from
    filling the table's queue.
    """

    __slots__ = ("_clock", "_last", "_tokens", "burst", "rate")

    def __init__(
        self, rate: float = 20.0, burst: float = 30.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._last = clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
