"""People's moves counted on the tables' hot path, in plain integers.

A move is the one thing a serving process does thousands of times a second,
and a prometheus_client value in multiprocess mode costs a lock, a
``getpid`` and a write into its memory-mapped file per step (about 1 µs a
counter and 2.6 µs a histogram observation on the reference machine, four
steps a move). So the tables add to the integers of :data:`MOVES` (tens of
nanoseconds) and :meth:`MoveMeter.publish` hands what was added since its
last call to the series, once a second and before each scrape
(``ligretto.web.metrics``). Everything runs on the event loop's thread.
"""

from __future__ import annotations

from typing import Final

from ligretto.metrics.local import LocalHistogram
from ligretto.metrics.series import MOVE_ANSWER, MOVES_ANSWERED, MOVES_RECEIVED


class MoveMeter:
    """Moves received and answered, and how long each answer took, since the start."""

    __slots__ = ("_sent_answered", "_sent_received", "answered", "answers", "received")

    def __init__(self) -> None:
        self.received = 0
        self.answered = 0
        self.answers = LocalHistogram(MOVE_ANSWER)
        self._sent_received = 0
        self._sent_answered = 0

    def answer(self, seconds: float) -> None:
        """A move was answered ``seconds`` after it reached its table."""
        self.answered += 1
        self.answers.observe(seconds)

    def publish(self) -> None:
        """Add to the series what was counted since the last call."""
        received, answered = self.received, self.answered
        if received != self._sent_received:
            MOVES_RECEIVED.inc(received - self._sent_received)
            self._sent_received = received
        if answered != self._sent_answered:
            MOVES_ANSWERED.inc(answered - self._sent_answered)
            self._sent_answered = answered
        self.answers.publish()


MOVES: Final = MoveMeter()
"""This process's moves: the tables count here, the web app publishes."""
