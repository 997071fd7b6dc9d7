"""How a process runs Python's cyclic garbage collector: one policy, two parts.

The collector stops every thread while it walks the objects it watches, and
a walk costs about a microsecond an object on a server's large heap. So:

**The schedule** (:class:`CollectorSchedule`, a serving process): a real-time
game wants many short pauses, not a few long ones, so the process

- collects the young generation every :data:`YOUNG` new objects (Python's
  700 meant hundreds of collections a minute; 50,000 meant pauses of
  90-130 ms at 2,000 seats);
- **freezes** what survived every :data:`FREEZE_EVERY` seconds
  (``gc.freeze()``): the connections, tables and rounds that live on are
  taken out of the older generations, whose walks had grown to 0.1-1 s.
  Objects a reference count frees (nearly all of them) are freed as ever;
  only garbage in reference cycles waits for the next full collection;
- every :data:`FULL_EVERY` seconds unfreezes everything and collects it
  all once (one longer pause; the frozen cycles are freed), unless a pause
  below is on: then at the first freeze after it;
- **settles** once the app has started and its tables are restored
  (:meth:`CollectorSchedule.settle`): the young garbage is collected and
  everything start-up left (imports, the restored tables and their
  rounds) is frozen before the first client is served, so no walk of the
  start-up heap (some 100 ms) falls in play.

``LIGRETTO_GC_YOUNG`` and ``LIGRETTO_GC_FULL_EVERY`` set the young threshold
and the full collections' interval (docs/limits.md).

**The pause** (:func:`collector_paused`, around a large group's import,
reading or export): parsing or counting millions of objects sets off
collections of the oldest generation, each of which held every other
thread, the event loop with every request and online table included, for
250-350 ms (measured on a 50,000-round import, docs/limits.md). Paused,
the objects are still freed by reference counting as soon as they are
dropped; only cycles wait. The schedule's full collection waits for the
last pause to end rather than walk the heap such work has just filled.

Process-wide, as the collector is: the first schedule started sets the
threshold, the last one stopped puts back what it found (tests start many
apps in one process); pauses nest across threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TypeVar

T = TypeVar("T")

_collector_lock = threading.Lock()
_collector_pauses = 0
_collector_was_on = True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a large group is read or
    counted (see the module's docstring). Pauses nest across threads: the
    collector runs again when the last one ends."""
    global _collector_pauses, _collector_was_on
    with _collector_lock:
        if _collector_pauses == 0:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _collector_pauses += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_pauses -= 1
            if _collector_pauses == 0 and _collector_was_on:
                gc.enable()


def pausing() -> bool:
    """Whether a pause is on now (the schedule's full collection waits for it)."""
    return _collector_pauses > 0


def paused(work: Callable[[], T]) -> Callable[[], T]:
    """*work*, run with the collector paused (:func:`collector_paused`)."""

    def run() -> T:
        with collector_paused():
            return work()

    return run


log = logging.getLogger(__name__)

#: New objects between two young collections (Python's default: 700).
YOUNG: Final = 2_000
#: Seconds between two freezes of what survived.
FREEZE_EVERY: Final = 1.0
#: Seconds between two full collections of everything (cycles among the
#: frozen objects are freed then).
FULL_EVERY: Final = 600.0


class CollectorSchedule:
    """Young collections, freezes and full collections on a schedule."""

    def __init__(
        self,
        *,
        young: int = YOUNG,
        freeze_every: float = FREEZE_EVERY,
        full_every: float = FULL_EVERY,
    ) -> None:
        if young < 1 or freeze_every <= 0 or full_every < freeze_every:
            raise ValueError("young >= 1, freeze_every > 0 and full_every >= freeze_every")
        self.young = young
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.freezes = 0
        self.full_collections = 0
        #: Seconds the start-up collection took (:meth:`settle`).
        self.settle_pause = 0.0
        #: Seconds the last full collection stopped the process (for the logs).
        self.last_full_pause = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin (on the running event loop)."""
        if self._task is None:
            _take(self.young)
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="collector-schedule"
            )

    async def stop(self) -> None:
        """End: everything frozen is handed back to the collector."""
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        _give_back()

    def freeze(self) -> None:
        """What is alive now leaves the collector's walks (until a full one)."""
        gc.freeze()
        self.freezes += 1

    def settle(self) -> None:
        """Freeze what start-up left (before serving).

        Called after the app's start and after its tables are restored. Only
        the young generations are collected first: a full walk of the heap
        costs as much as the pause this avoids, and the few cycles start-up
        leaves are freed by the next full collection.
        """
        started = time.perf_counter()
        gc.collect(1)
        self.freeze()
        self.settle_pause = time.perf_counter() - started
        log.info("start-up heap frozen: %.0f ms", self.settle_pause * 1000)

    def collect_all(self) -> None:
        """Unfreeze and collect everything once (one longer pause)."""
        started = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        self.last_full_pause = time.perf_counter() - started
        self.full_collections += 1
        log.info("full collection: %.0f ms", self.last_full_pause * 1000)

    async def _run(self) -> None:
        next_full = time.monotonic() + self.full_every
        while True:
            await asyncio.sleep(self.freeze_every)
            if time.monotonic() >= next_full and not pausing():
                self.collect_all()
                next_full = time.monotonic() + self.full_every
            self.freeze()


# The collector is one per process; so is what it was set to before.
_users = 0
_before: tuple[int, int, int] | None = None


def _take(young: int) -> None:
    global _users, _before
    if _users == 0:
        _before = gc.get_threshold()
        gc.set_threshold(young, _before[1], _before[2])
    _users += 1


def _give_back() -> None:
    global _users, _before
    _users -= 1
    if _users == 0:
        gc.unfreeze()
        if _before is not None:
            gc.set_threshold(*_before)
        _before = None
