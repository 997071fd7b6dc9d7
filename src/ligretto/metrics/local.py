"""A histogram kept in plain Python and handed to its series in one step.

Observing into a prometheus_client histogram takes a lock (in multiprocess
mode one lock for every value of the process) and writes a memory-mapped
file. That is too dear for a move at a table, and unsafe in a ``gc``
callback: a collection may start while that very thread holds the lock, and
the callback would wait for it forever. A :class:`LocalHistogram` only adds
to a list of integers; :meth:`LocalHistogram.publish`, on the event loop
once a second and before each scrape (``ligretto.web.metrics``), adds what
came since its last call to the series.
"""

from __future__ import annotations

from bisect import bisect_left

from prometheus_client import Histogram


class LocalHistogram:
    """Counts by bucket and a sum for one histogram (an unlabelled one or a child)."""

    __slots__ = ("_bounds", "_sent_buckets", "_sent_sum", "_series", "buckets", "sum")

    def __init__(self, series: Histogram) -> None:
        self._series = series
        # The series' bounds, +Inf last: the bucket ``le`` counts values <= it.
        self._bounds: list[float] = list(series._upper_bounds)
        self.buckets = [0] * len(self._bounds)
        self.sum = 0.0
        self._sent_buckets = [0] * len(self._bounds)
        self._sent_sum = 0.0

    def observe(self, value: float) -> None:
        self.sum += value
        self.buckets[bisect_left(self._bounds, value)] += 1

    @property
    def count(self) -> int:
        return sum(self.buckets)

    def publish(self) -> None:
        """Add to the series what was observed since the last call."""
        # A histogram's ``observe`` takes one value at a time; its buckets and
        # sum are values of their own, each added to once here (private names
        # of the pinned prometheus_client; tests/metrics read the exposition).
        sent = self._sent_buckets
        values = self._series._buckets
        for index, count in enumerate(self.buckets):
            if count != sent[index]:
                values[index].inc(count - sent[index])
                sent[index] = count
        total = self.sum
        if total != self._sent_sum:
            self._series._sum.inc(total - self._sent_sum)
            self._sent_sum = total
