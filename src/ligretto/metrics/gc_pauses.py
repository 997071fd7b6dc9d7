"""Pauses of Python's cyclic garbage collector, timed by ``gc.callbacks``.

The collector stops every thread while it walks its objects
(:mod:`ligretto.collector` schedules it). The callback notes each pause in
a :class:`~ligretto.metrics.local.LocalHistogram` by generation (never in a
prometheus_client value: a collection may start while its thread holds
that value's lock); :func:`publish` hands them to
``ligretto_gc_pause_seconds``. Process-wide, as the collector is:
:func:`watch` installs the callback once however many apps a process
starts (the tests start many), and it stays for the process's life.
"""

from __future__ import annotations

import gc
import time
from typing import Any, Final

from ligretto.metrics.local import LocalHistogram
from ligretto.metrics.series import GC_PAUSE

PAUSES: Final = tuple(LocalHistogram(GC_PAUSE.labels(generation=str(g))) for g in range(3))
"""The pauses of generations 0, 1 and 2 (a full collection)."""


class _Watch:
    """The callback: the start's time, then the pause at the stop."""

    __slots__ = ("started",)

    def __init__(self) -> None:
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            PAUSES[info["generation"]].observe(time.perf_counter() - self.started)


_WATCH: Final = _Watch()


def watch() -> None:
    """Time every collection from now on (once, however often it is called)."""
    if _WATCH not in gc.callbacks:
        gc.callbacks.append(_WATCH)


def publish() -> None:
    """Add the pauses since the last call to the series."""
    for pauses in PAUSES:
        pauses.publish()
