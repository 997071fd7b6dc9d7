"""The app's figures for ``/metrics``: published once a second, served on their own address.

:class:`MetricsPublisher` runs on the event loop, where the tables and the
lab live: every :data:`PUBLISH_EVERY` seconds it counts the open tables by
phase, the seats taken by people and by bots and the lab's studies into
their gauges, and hands the moves and collector pauses counted since the
last time (:mod:`ligretto.metrics.moves`, :mod:`ligretto.metrics.gc_pauses`)
to their series. A scrape therefore shows figures at most a second old.
With ``LIGRETTO_METRICS_ADDRESS`` the app also serves them there
(:class:`~ligretto.metrics.exposition.MetricsListener`); without it nothing
is served, and counting costs next to nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from ligretto.live.phase import Phase
from ligretto.live.registry import TableRegistry
from ligretto.metrics import gc_pauses
from ligretto.metrics.exposition import MetricsListener, retire
from ligretto.metrics.moves import MOVES
from ligretto.metrics.series import LAB_QUEUED, LAB_RUNNING, SEATS_BOTS, SEATS_PEOPLE, TABLES
from ligretto.web.lab import StudyLab

log = logging.getLogger(__name__)

PUBLISH_EVERY: Final = 1.0
"""Seconds between two publications of this process's figures."""

_PHASES: Final = {phase: TABLES.labels(phase=phase.value) for phase in Phase}


class MetricsPublisher:
    """This process's gauges and hot-path counts, written once a second."""

    def __init__(
        self,
        lab: StudyLab,
        address: str | None = None,
        every: float = PUBLISH_EVERY,
    ) -> None:
        self.lab = lab
        self.tables: TableRegistry | None = None
        self.every = every
        self.listener = MetricsListener(address) if address is not None else None
        self._task: asyncio.Task[None] | None = None

    def start(self, tables: TableRegistry) -> None:
        """Publish from now on (inside the running loop); listen if an address is set."""
        self.tables = tables
        gc_pauses.watch()
        self.publish()
        if self.listener is not None:
            self.listener.start()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="metrics")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)
        retire()

    def publish(self) -> None:
        """Write this process's figures now."""
        counts = dict.fromkeys(Phase, 0)
        people = bots = 0
        for table in self.tables.open_tables() if self.tables is not None else ():
            counts[table.phase] += 1
            for seat in table.seats:
                if seat.kind == "bot":
                    bots += 1
                elif seat.kind == "human" and seat.conns:
                    people += 1
        for phase, count in counts.items():
            _PHASES[phase].set(count)
        SEATS_PEOPLE.set(people)
        SEATS_BOTS.set(bots)
        studies = list(self.lab.studies.values())
        LAB_RUNNING.set(sum(1 for study in studies if study.state == "running"))
        LAB_QUEUED.set(sum(1 for study in studies if study.state == "queued"))
        MOVES.publish()
        gc_pauses.publish()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                self.publish()
            except Exception:  # pragma: no cover - a bug must not end the figures
                log.exception("publishing the metrics failed")
