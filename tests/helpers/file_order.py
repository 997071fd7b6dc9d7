"""The longest test files first, so that a parallel run does not end with one
long file running alone while the other workers wait.

pytest-xdist's ``--dist loadfile`` hands whole files to its workers in the
order of its queue. By default it orders that queue by the number of tests
in a file, which puts the long browser and deploy files (few tests, minutes
each) last: one of them started late kept one worker busy for minutes
after the others had finished. With ``--no-loadscope-reorder`` the queue
follows the order of the collection, and this plugin sorts the collection
by each file's time in a recorded run (``tests/file_times.json``), longest
first: the "longest processing time first" rule, whose schedule ends within
a third of the best one's length, and in practice much closer.

Within a file the tests keep their order. A file the record does not know
(a new one) counts as a file of the record's median time.

``LIGRETTO_FILE_TIMES_OUT=path`` makes a run write its own times per file
(set-up, call and tear-down of every test, summed) to ``path``;
``make file-times`` runs the compiled pass that way and refreshes the record.
"""

from __future__ import annotations

import json
import os
import statistics
from collections import defaultdict
from pathlib import Path

import pytest

RECORD = Path(__file__).parents[1] / "file_times.json"
"""Seconds per test file (relative to the repository root), from a full run."""

_times: defaultdict[str, float] = defaultdict(float)


def recorded_times(record: Path = RECORD) -> dict[str, float]:
    """The record's seconds per file, or nothing if there is no record."""
    try:
        times: dict[str, float] = json.loads(record.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return times


def longest_first(files: list[str], times: dict[str, float]) -> list[str]:
    """``files`` (each once, in collection order) with the longest first;
    ties, and files the record does not know, keep their order."""
    default = statistics.median(times.values()) if times else 0.0
    order = {name: index for index, name in enumerate(files)}
    return sorted(files, key=lambda name: (-times.get(name, default), order[name]))


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    times = recorded_times()
    if not times:
        return
    by_file: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(_file_of(item.nodeid), []).append(item)
    items[:] = [item for name in longest_first(list(by_file), times) for item in by_file[name]]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Under xdist the controller receives every worker's reports here too.
    _times[_file_of(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get("LIGRETTO_FILE_TIMES_OUT")
    if not out or hasattr(session.config, "workerinput"):  # only the controller writes
        return
    times = {name: round(seconds, 1) for name, seconds in sorted(_times.items())}
    Path(out).write_text(json.dumps(times, indent=1) + "\n", encoding="utf-8")
