"""A run's summary counted one record at a time: the same numbers, memory per seat."""

from __future__ import annotations

import tracemalloc

from ligretto.rules import Termination
from ligretto.sim.report import RoundRecord
from ligretto.sim.summary import ReportBuilder, summarize
from ligretto.simulate.run import SimConfig, play_rounds

BOTS = ["stack-first:medium", "greedy:medium", "stack-first:medium", "random:easy"]


def _record(index: int) -> RoundRecord:
    caller = index % 4
    stack = tuple(0 if seat == caller else (index + seat) % 9 + 1 for seat in range(4))
    middle = tuple(10 + (index * seat) % 17 for seat in range(4))
    return RoundRecord(
        index=index,
        seed=index,
        points=tuple(m - 2 * s for m, s in zip(middle, stack, strict=True)),
        middle=middle,
        stack=stack,
        caller=caller,
        termination=Termination.STOP,
        stalled=False,
        actions=tuple(40 + (index + seat) % 30 for seat in range(4)),
        seconds=60.0 + (index % 101) / 7,
        races_won=(index % 2, 0, 1, 0),
        races_lost=(0, index % 2, 0, 1),
        refused=(0, 0, 0, 0),
    )


def _grown(builder: ReportBuilder, start: int, count: int) -> int:
    """Bytes the builder holds more after *count* more records (each made and dropped)."""
    before, _ = tracemalloc.get_traced_memory()
    for index in range(start, start + count):
        builder.add_round(_record(index))
    after, _ = tracemalloc.get_traced_memory()
    return after - before


def test_counting_more_rounds_takes_no_more_memory() -> None:
    builder = ReportBuilder(BOTS)
    tracemalloc.start()
    try:
        _grown(builder, 0, 2_000)  # every counter and its exact sums at their size
        grown = _grown(builder, 2_000, 20_000)
    finally:
        tracemalloc.stop()
    assert builder.rounds == 22_000
    # Kept, the 20,000 records would be 12 MB and more; what grows here is
    # Python's free lists (up to 2,000 small tuples each) and the sums' digits.
    assert grown < 500_000, grown


def test_a_summary_counted_one_by_one_is_the_summary_of_the_list() -> None:
    config = SimConfig.from_names(BOTS, seed=9)
    records = play_rounds((config, range(120)))
    builder = ReportBuilder(config.labels)
    for record in records:
        builder.add_round(record)
    report = builder.report()
    assert report == summarize(config.labels, records)
    seat = report.seats[3]
    assert seat.points.mean == sum(r.points[3] for r in records) / 120
    assert seat.stack_left == sum(r.stack[3] for r in records) / 120
    assert [sum(counts) for counts in builder.stack_counts()] == [120] * 4
    # stack-first:medium sits at two seats: its points per round are their mean
    [first, second, third] = report.comparisons
    assert (first.a, first.b) == ("stack-first:medium", "greedy:medium")
    differences = [(r.points[0] + r.points[2]) / 2 - r.points[1] for r in records]
    assert first.result.difference.mean == sum(differences) / 120
    assert (second.b, third.a) == ("random:easy", "greedy:medium")
