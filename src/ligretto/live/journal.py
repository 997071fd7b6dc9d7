"""What the tables did, written to the database in batches (group commit).

A table never waits for the disk: inside its actor it only notes that it
changed (:meth:`Journal.changed`) or appends an accepted action
(:meth:`Journal.action`) — a dictionary entry or a list append.  Every
``interval`` seconds (or sooner, when ``batch`` actions are waiting) the
journal takes what was noted, snapshots the changed tables on the event
loop (where no table is halfway through a command, so every snapshot is
consistent with the actions taken with it) and writes all of it in one
transaction in a worker thread.

What a crash can lose: a graceful stop (SIGTERM, Ctrl-C) flushes
everything (:meth:`Journal.close`); a crash (SIGKILL, power loss) loses
at most what was noted since the last batch was taken — one ``interval``,
plus the batch being written at that moment.  A batch whose write fails
is kept and written again with the next one, so a database that is away
for a while costs nothing but memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from ligretto.metrics import cpu_split
from ligretto.metrics.cpu_split import JOURNAL, SPLIT, timed
from ligretto.metrics.series import JOURNAL_BATCH_ACTIONS, JOURNAL_COMMIT, JOURNAL_FAILURES
from ligretto.store.live_tables import StoredAction
from ligretto.store.round_replays import KeptRound

log = logging.getLogger(__name__)

#: Seconds between two batches: the most a crash can lose.
INTERVAL = 0.05
#: Actions that make a batch go at once instead of waiting for the interval.
BATCH = 500


class TableWriter(Protocol):
    """Where batches go (:class:`ligretto.store.live_tables.LiveTableStore`)."""

    def write(
        self,
        states: Mapping[str, dict[str, Any]],
        actions: Sequence[StoredAction],
        closes: Mapping[str, str | None] | None = None,
        rounds: Sequence[KeptRound] = (),
    ) -> None: ...


#: A table's current state as JSON-ready data (taken on the event loop).
Snapshot = Callable[[], dict[str, Any]]


class Journal:
    """Collects the tables' changes and writes them in batches."""

    def __init__(
        self,
        writer: TableWriter,
        *,
        interval: float = INTERVAL,
        batch: int = BATCH,
        keep_rounds: bool = True,
    ) -> None:
        self.writer = writer
        # Finished rounds are kept replayable (off: LIGRETTO_REPLAYS=off).
        self.keep_rounds = keep_rounds
        self.interval = interval
        self.batch = batch
        self._changed: dict[str, Snapshot] = {}
        self._actions: list[StoredAction] = []
        self._closes: dict[str, str | None] = {}
        self._rounds: list[KeptRound] = []
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        # Batches written, and failed writes (for the tests and the logs).
        self.batches = 0
        self.failures = 0

    # ---------------------------------------------------------------- noting

    @timed(JOURNAL)
    def changed(self, code: str, snapshot: Snapshot) -> None:
        """The table ``code`` changed: write ``snapshot()`` with the next batch."""
        self._changed[code] = snapshot
        self._start()

    @timed(JOURNAL)
    def action(self, action: StoredAction) -> None:
        """An action was accepted; it is written, in order, with the next batch."""
        self._actions.append(action)
        if len(self._actions) >= self.batch:
            self._wake.set()
        self._start()

    def round(self, stored: KeptRound) -> None:
        """A round finished: kept replayable with the next batch (its
        record is built already; it is turned into JSON in the writer's
        thread, not in the table's)."""
        if self.keep_rounds:
            self._rounds.append(stored)
            self._start()

    def closed(self, code: str, reason: str | None = None) -> None:
        """The table is over: marked closed with the next batch."""
        self._changed.pop(code, None)
        self._closes[code] = reason
        self._start()

    @property
    def pending(self) -> int:
        """Noted items not yet taken into a batch."""
        return len(self._changed) + len(self._actions) + len(self._closes) + len(self._rounds)

    # --------------------------------------------------------------- writing

    def _start(self) -> None:
        if self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="table-journal")

    async def _run(self) -> None:
        while not self._closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()
            if self._closed:
                return
            try:
                await self.flush()
            except Exception:  # a failed batch is kept; the next one retries it
                log.exception("writing the tables' journal failed; retrying")
                await asyncio.sleep(min(5.0, self.interval * 20))

    async def flush(self) -> None:
        """Write everything noted so far (one transaction) and wait for it."""
        async with self._lock:
            if not self.pending:
                return
            # Taken on the event loop: no table is inside a command now.
            states = self._snapshots()
            actions, closes, rounds = self._actions, self._closes, self._rounds
            self._changed, self._actions, self._closes, self._rounds = {}, [], {}, []
            began = time.perf_counter()
            try:
                await asyncio.to_thread(self._write, states, actions, closes, rounds)
            except Exception:
                self.failures += 1
                JOURNAL_FAILURES.inc()
                self._keep(states, actions, closes)
                self._rounds[:0] = rounds
                raise
            # From handing the batch to the thread to its commit (/metrics).
            JOURNAL_COMMIT.observe(time.perf_counter() - began)
            JOURNAL_BATCH_ACTIONS.observe(len(actions))
            self.batches += 1

    @timed(JOURNAL)
    def _snapshots(self) -> dict[str, dict[str, Any]]:
        return {code: snapshot() for code, snapshot in self._changed.items()}

    def _write(
        self,
        states: dict[str, dict[str, Any]],
        actions: list[StoredAction],
        closes: dict[str, str | None],
        rounds: list[KeptRound],
    ) -> None:
        """One batch into the database, in the writer's thread."""
        began = time.thread_time_ns() if cpu_split.ON else 0
        try:
            if rounds:
                self.writer.write(states, actions, closes, rounds)
            else:
                self.writer.write(states, actions, closes)
        finally:
            if cpu_split.ON:  # this thread's CPU: the journal's share beside the loop's
                SPLIT.journal_thread_ns += time.thread_time_ns() - began

    def _keep(
        self,
        states: dict[str, dict[str, Any]],
        actions: list[StoredAction],
        closes: dict[str, str | None],
    ) -> None:
        """Put a batch that was not written back in front of what came since."""
        for code, state in states.items():
            if code not in self._changed and code not in self._closes:
                self._changed[code] = lambda state=state: state  # type: ignore[misc]
        self._actions[:0] = actions
        for code, reason in closes.items():
            self._closes.setdefault(code, reason)

    async def close(self) -> None:
        """Stop batching and write what is left (a graceful stop loses nothing)."""
        self._closed = True
        self._wake.set()
        if self._task is not None:
            # Not cancelled: a batch being written finishes first.
            with contextlib.suppress(Exception):
                await self._task
            self._task = None
        await self.flush()
