"""The lab's studies run in the server's process pool, one queue, with limits.

:class:`StudyLab` is started and stopped by the app's lifespan; it owns a
bounded :class:`~concurrent.futures.ProcessPoolExecutor` (``lab_workers``
processes) and runs ``lab_running`` studies at a time, the rest waiting
in order of arrival (each knows its place). A study is cut into the
simulator's items (:class:`ligretto.simulate.study_run.StudyRun`), at
most one per worker in flight, and its records are counted in chunk
order as they come: the numbers of ``ligretto simulate`` with the same
seed, with memory for the chunks in flight only; every counted round is
written to the study's records file as it is counted
(:class:`~ligretto.web.lab.round_files.RoundFiles`).

Limits (docs/limits.md, "The strategy lab"): a study over the cap of rounds
× seats is refused, as is a client's study beyond its quota of queued and
running ones, and any study when the queue is full. A refusal changes
nothing. While it runs, a study is charged the actions its bots simulate:
at its budget (``max_actions``) it stops and its result says so. A cancel,
or the budget used up, stops the study's chunks in every worker after the
round each is playing (:class:`ligretto.simulate.budget.StopSignals`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections import deque
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import anyio

from ligretto.simulate.budget import ChunkOutcome, StopSignals, init_worker, play_chunk
from ligretto.simulate.records import RecordWriter
from ligretto.simulate.study import StudySpec
from ligretto.simulate.study_run import StudyRun
from ligretto.store.studies import StudyState, StudyStore, new_study_id
from ligretto.web.lab.round_files import RoundFiles

__all__ = ["LabLimitError", "LabLimits", "LiveStudy", "StudyLab", "StudyProgress"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LabLimits:
    """How much the lab may take of the server (``LIGRETTO_LAB_…``, docs/limits.md)."""

    workers: int = 2
    running: int = 1
    max_seat_rounds: int = 200_000
    max_actions: int = 10_000_000
    client_studies: int = 2
    queue: int = 20


class LabLimitError(Exception):
    """A study refused by one of the lab's limits; nothing was queued.

    ``code`` is ``too_big`` (``asked`` over ``limit`` rounds × seats),
    ``quota`` (the client has ``limit`` studies queued or running) or
    ``busy`` (the queue holds ``limit`` studies).
    """

    def __init__(self, code: str, limit: int, asked: int = 0) -> None:
        super().__init__(f"{code}: {asked} over {limit}")
        self.code = code
        self.limit = limit
        self.asked = asked


@dataclass(frozen=True, slots=True)
class StudyProgress:
    """What a study's page shows while it runs: state, rounds done, place in the queue."""

    state: StudyState
    done: int
    total: int
    place: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "done": self.done, "total": self.total, "place": self.place}


@dataclass(eq=False)
class LiveStudy:
    """A study this process runs or has queued."""

    id: str
    spec: StudySpec
    client: str
    state: StudyState = "queued"
    done: int = 0
    simulated: int = 0
    """Every action its chunks simulated, thrown-away work included."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)

    def notify(self) -> None:
        """Wake everyone waiting for a change, and wait anew from here."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    @property
    def finished(self) -> bool:
        return self.state not in ("queued", "running")


def _context() -> multiprocessing.context.BaseContext:
    # The server has threads (the event loop's helpers, database pools):
    # forking it could copy a held lock into a child. A fork server starts
    # the workers from a clean process instead.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class StudyLab:
    """The queue of studies and the pool that runs them."""

    def __init__(
        self, store: StudyStore, limits: LabLimits | None = None, records: RoundFiles | None = None
    ) -> None:
        self.store = store
        self.limits = limits or LabLimits()
        self.records = records
        """Where the studies' per-round records go (none kept without it)."""
        self.studies: dict[str, LiveStudy] = {}
        self.waiting: deque[LiveStudy] = deque()
        self.pool: ProcessPoolExecutor | None = None
        self.signals = StopSignals(_context(), self.limits.running)
        self._queue: asyncio.Queue[LiveStudy] | None = None
        self._runners: list[asyncio.Task[None]] = []
        self.closed = False

    async def start(self) -> None:
        """Mark what this process left unfinished last time; start the runners.

        The pool itself starts with the first study (:meth:`_pool`)."""
        await anyio.to_thread.run_sync(self.store.stop_unfinished)
        self._queue = asyncio.Queue()
        self._runners = [
            asyncio.create_task(self._runner(slot), name=f"lab-runner-{slot}")
            for slot in range(self.limits.running)
        ]

    async def stop(self) -> None:
        """Stop the runners and the pool; unfinished studies are marked ``stopped``."""
        self.closed = True
        for slot in range(self.limits.running):
            self.signals.stop(slot)  # the workers' chunks end after their round
        for task in self._runners:
            task.cancel()
        for task in self._runners:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for study in self.studies.values():
            if not study.finished:
                study.state = "stopped"
            study.notify()  # the progress streams end
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        await anyio.to_thread.run_sync(self.store.stop_unfinished)

    def has_records(self, study_id: str) -> bool:
        """Whether this process keeps the study's per-round records."""
        return self.records is not None and self.records.finished(study_id) is not None

    def active(self, client: str) -> int:
        """The client's studies queued or running."""
        return sum(1 for s in self.studies.values() if s.client == client and not s.finished)

    def check(self, spec: StudySpec, client: str) -> None:
        """Refuse a study over the cap, beyond the client's quota or the queue's size."""
        limits = self.limits
        if spec.cost() > limits.max_seat_rounds:
            raise LabLimitError("too_big", limits.max_seat_rounds, spec.cost())
        if self.active(client) >= limits.client_studies:
            raise LabLimitError("quota", limits.client_studies)
        if sum(1 for s in self.studies.values() if not s.finished) >= limits.queue:
            raise LabLimitError("busy", limits.queue)

    async def submit(self, spec: StudySpec, client: str) -> LiveStudy:
        """Queue a study (after :meth:`check`); it is kept at once under its id."""
        self.check(spec, client)
        if self._queue is None or self.closed:
            raise LabLimitError("busy", 0)
        # Counted at once, before the insert's await: two requests of one
        # client arriving together cannot both pass the quota.
        study = LiveStudy(new_study_id(), spec, client)
        self.studies[study.id] = study
        try:
            await anyio.to_thread.run_sync(self.store.create, spec.to_dict(), study.id)
        except BaseException:
            del self.studies[study.id]
            raise
        self.waiting.append(study)
        self._queue.put_nowait(study)
        return study

    def place(self, study: LiveStudy) -> int | None:
        """1 for the next study to run, 2 for the one after …; None when not waiting."""
        for number, waiting in enumerate(self.waiting, start=1):
            if waiting is study:
                return number
        return None

    def progress(self, study: LiveStudy) -> StudyProgress:
        return StudyProgress(study.state, study.done, study.spec.size, self.place(study))

    async def cancel(self, study: LiveStudy) -> bool:
        """Cancel a queued or running study; False when it had ended already."""
        if study.finished:
            return False
        study.state = "cancelled"
        study.cancelled.set()
        if study in self.waiting:
            self.waiting.remove(study)
            self._notify_waiting()
        study.notify()
        await anyio.to_thread.run_sync(self.store.set_state, study.id, "cancelled")
        self.studies.pop(study.id, None)
        return True

    async def updates(self, study: LiveStudy) -> AsyncIterator[StudyProgress]:
        """The study's progress now and after every change, until it has ended."""
        while True:
            changed = study.changed
            yield self.progress(study)
            if study.finished or self.closed:
                return
            await changed.wait()

    def _notify_waiting(self) -> None:
        for waiting in self.waiting:
            waiting.notify()  # every place moved up

    async def _runner(self, slot: int) -> None:
        assert self._queue is not None
        while True:
            study = await self._queue.get()
            if study.finished:
                continue  # cancelled while it waited
            self.waiting.remove(study)
            self._notify_waiting()
            try:
                await self._run(study, slot)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lab study %s failed", study.id)
                study.state = "stopped"
                await anyio.to_thread.run_sync(self.store.set_state, study.id, "stopped")
            study.notify()
            self.studies.pop(study.id, None)  # ended: its page reads it from the store

    def _pool(self) -> ProcessPoolExecutor:
        """The pool, started with the first study: a server whose lab is
        never used starts no process (nor the fork server) for it."""
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.limits.workers,
                mp_context=_context(),
                initializer=init_worker,
                initargs=(self.signals.counters,),
            )
        return self.pool

    async def _run(self, study: LiveStudy, slot: int) -> None:
        pool = self._pool()
        study.state = "running"
        study.notify()
        await anyio.to_thread.run_sync(self.store.set_state, study.id, "running")
        writer = None
        if self.records is not None:
            writer = await anyio.to_thread.run_sync(self.records.writer, study.id)
        done = False
        try:
            done = await self._play(study, slot, pool, writer)
        finally:
            if writer is not None:
                await anyio.to_thread.run_sync(writer.close)
            if self.records is not None:
                if done:
                    await anyio.to_thread.run_sync(self.records.prune)
                else:  # cancelled, stopped or failed: no records without a result
                    await anyio.to_thread.run_sync(self.records.discard, study.id)

    async def _play(
        self,
        study: LiveStudy,
        slot: int,
        pool: ProcessPoolExecutor,
        writer: RecordWriter | None,
    ) -> bool:
        """Run the study's chunks to its end, its budget or its cancel; keep its
        result. Whether it ended with one (not cancelled)."""
        run = StudyRun(
            study.spec, self.limits.max_actions, None if writer is None else writer.write
        )
        generation = self.signals.begin(slot)
        loop = asyncio.get_running_loop()
        in_flight: deque[asyncio.Future[ChunkOutcome]] = deque()
        cancelled: asyncio.Future[Any] = asyncio.ensure_future(study.cancelled.wait())
        try:
            while not run.finished:
                while len(in_flight) < self.limits.workers and (
                    chunk := run.next_chunk(slot, generation)
                ):
                    in_flight.append(loop.run_in_executor(pool, play_chunk, chunk))
                # chunk order: the next chunk's outcome, or a cancel, whichever comes first
                await asyncio.wait({in_flight[0], cancelled}, return_when=asyncio.FIRST_COMPLETED)
                if study.cancelled.is_set():
                    break
                outcome = in_flight.popleft().result()
                study.simulated += outcome.actions
                # counted in a thread: a chunk of long games holds thousands of rounds
                await anyio.to_thread.run_sync(run.take, outcome)
                study.done = run.played
                study.notify()
        except BaseException:
            for future in in_flight:
                future.cancel()
            raise
        finally:
            cancelled.cancel()
            self.signals.stop(slot)
        # What still runs stops after its round (the signal); counted, then dropped.
        for straggler in await asyncio.gather(*in_flight, return_exceptions=True):
            if isinstance(straggler, ChunkOutcome):
                study.simulated += straggler.actions
        if study.cancelled.is_set():
            return False
        result = await anyio.to_thread.run_sync(run.result, study.simulated)
        if study.cancelled.is_set():
            return False
        if writer is not None:  # complete on disk before the page offers it
            await anyio.to_thread.run_sync(writer.close)
        await anyio.to_thread.run_sync(self.store.finish, study.id, result)
        study.state = "done"
        return True
