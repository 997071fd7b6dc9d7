"""What a store whose rows a process holds by lease starts from.

Several processes may serve from one database (behind HAProxy): each
holds its open tables (:mod:`ligretto.store.live_tables`) and its lobby
listings (:mod:`ligretto.store.lobby`) by a lease it renews every few
seconds, so that a killed process's rows run out by themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from ligretto.store.database import writer

#: How long a process's claim on a row holds without renewal (seconds).
LEASE_SECONDS = 15.0
#: The owner of every row when only one process serves them.
LOCAL = "local"


def utc_now() -> datetime:
    return datetime.now(UTC)


class LeasedStore:
    """A store of rows held by lease: its engine and writer, whose rows it
    writes (``owner``), how long a lease holds, and the clock it is judged by."""

    def __init__(
        self,
        engine: Engine,
        owner: str = LOCAL,
        lease: float = LEASE_SECONDS,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self.owner = owner
        self.lease = lease
        # Every lease is judged by this process's clock: each read of it.
        # Tests give a process a clock that runs ahead, and so see a lease
        # run out without waiting for it.
        self._now = clock

    def _until(self, now: datetime) -> datetime:
        """When a lease taken or renewed at *now* runs out."""
        return now + timedelta(seconds=self.lease)
