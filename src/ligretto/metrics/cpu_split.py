"""Where a serving process's time goes, stage by stage, when ``LIGRETTO_CPU_SPLIT`` is set.

Answering a move takes reading the client's message (``parse``), the
table's own bookkeeping (``table``), the rules engine (``engine``: the move
applied, views and legal actions), the JSON of the answers (``encode``),
handing each answer to its socket (``write``: the WebSocket frame and the
socket's write) and noting the move for the database (``journal``; its
writes in their own thread are counted apart, as that thread's CPU).
``benchmarks/live.py`` reads these sums in the measured window and sets
them against the process's CPU; what is left is the event loop's and the
web stack's own work (reading sockets, waking tasks).

The stages nest (encoding calls the engine for each seat's legal actions
and writes each message), so the clock is *switched*: :meth:`CpuSplit.enter`
charges the time since the last switch to the stage that ran and returns
it, to be entered again when the inner stage ends. Time outside every
stage is not summed. The clock is the event loop's thread's own CPU time
(``time.thread_time_ns``, user and system: a socket's write on loopback
includes the kernel's work for the receiving side). Wall time would not
do: a write wakes the reading process, which may take the core at once,
and on a busy machine the writes then counted several times the CPU the
whole process had. Reading that clock is a system call (0.3–0.6 µs), some
25 a move: a few per cent of a move's CPU while counting is on.

Off (the default), nothing is counted: :func:`timed` returns the function
it is given unchanged, so a serving process pays nothing for it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Final, ParamSpec, TypeVar

#: Counting is on for this process (read once, at import).
ON: Final = os.environ.get("LIGRETTO_CPU_SPLIT", "") not in ("", "0")

OUTSIDE: Final = 0
PARSE: Final = 1
TABLE: Final = 2
ENGINE: Final = 3
ENCODE: Final = 4
WRITE: Final = 5
JOURNAL: Final = 6

#: The stages' names by index (``OUTSIDE`` is never reported).
STAGES: Final = ("outside", "parse", "table", "engine", "encode", "write", "journal")

_P = ParamSpec("_P")
_R = TypeVar("_R")


class CpuSplit:
    """CPU nanoseconds by stage on the event loop's thread, and the journal thread's CPU."""

    __slots__ = ("_clock", "_since", "_stage", "journal_thread_ns", "ns")

    def __init__(self, clock: Callable[[], int] = time.thread_time_ns) -> None:
        self.ns = [0] * len(STAGES)
        self.journal_thread_ns = 0
        self._clock = clock  # the tests' own clock, else this thread's CPU
        self._stage = OUTSIDE
        self._since = clock()

    def enter(self, stage: int) -> int:
        """Charge the time since the last switch to the running stage and
        start ``stage``; returns the stage to enter again when it ends."""
        now = self._clock()
        running = self._stage
        self.ns[running] += now - self._since
        self._since = now
        self._stage = stage
        return running

    def snapshot(self) -> dict[str, int]:
        """The sums so far by stage name (``journal_thread`` included), nanoseconds."""
        now = self._clock()
        sums = dict(zip(STAGES, self.ns, strict=True))
        if self._stage != OUTSIDE:  # the running stage's time so far
            sums[STAGES[self._stage]] += now - self._since
        del sums["outside"]
        sums["journal_thread"] = self.journal_thread_ns
        return sums


SPLIT: Final = CpuSplit()
"""This process's sums (used only while :data:`ON`)."""


def timed(stage: int) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """A decorator: the function's time counts to ``stage`` (its inner stages apart).

    Off, the function itself is returned: no wrapper, no cost.
    """

    def decorate(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        if not ON:
            return fn
        return wrap(SPLIT, stage, fn)

    return decorate


def wrap(split: CpuSplit, stage: int, fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` with its time charged to ``stage`` of ``split``."""
    enter = split.enter

    def counted(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        outer = enter(stage)
        try:
            return fn(*args, **kwargs)
        finally:
            enter(outer)

    counted.__name__ = getattr(fn, "__name__", "counted")
    counted.__doc__ = fn.__doc__
    return counted
