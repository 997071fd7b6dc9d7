"""What the benchmarks measure beside their own figures, and how they compare builds.

A figure from one machine means nothing on another. So every benchmark
also measures, in the same run,

- a **machine reference**: a fixed pure-Python workload (:func:`reference`,
  a pystone-like loop of calls, integer arithmetic, list and dict work,
  small objects) whose speed depends only on the machine and the
  interpreter, never on ligretto; figures are then quoted per million
  reference steps ("per Mstep"), which another machine can relate to its own;
- and the **pure build against the compiled one**, each in its own process
  (``LIGRETTO_PURE=1`` loads the pure sources, see ``ligretto._build``),
  interleaved, so that both see the same machine load.

Times are CPU seconds of the best of several batches: on a shared machine
the best batch is the one least disturbed by other processes. Ratios are
medians over the pairs of runs.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

#: Steps per call of :func:`reference`.
REFERENCE_STEPS = 20_000


class _Point:
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y


def _step(i: int, table: dict[int, int], out: list[_Point]) -> int:
    p = _Point(i % 97, i % 13)
    table[i % 251] = table.get(i % 251, 0) + p.x * p.y
    if len(out) > 40:
        out.clear()
    out.append(p)
    return (p.x + p.y) & 0xFF


def reference(steps: int = REFERENCE_STEPS) -> int:
    """The fixed pure-Python workload: ``steps`` steps; returns a checksum."""
    table: dict[int, int] = {}
    out: list[_Point] = []
    total = 0
    for i in range(steps):
        total += _step(i, table, out)
    return total + sum(table.values())


def best_rate(work: Callable[[], float], batches: int) -> float:
    """Units per CPU second of the best of ``batches`` calls; ``work`` returns its units."""
    best = 0.0
    for _ in range(batches):
        cpu = time.process_time()
        units = work()
        spent = time.process_time() - cpu
        if spent > 0:
            best = max(best, units / spent)
    return best


def reference_rate(batches: int = 5) -> float:
    """Reference steps per CPU second on this machine, now."""

    def work() -> float:
        reference()
        return REFERENCE_STEPS

    return best_rate(work, batches)


def run_child(
    script: str, args: Sequence[str], pure: bool, source: str | None = None
) -> dict[str, Any]:
    """Run ``script --child ARGS`` with the pure or the compiled build; its JSON answer.

    With ``source``, the ligretto found in that ``src`` folder runs instead
    (a baseline: another checkout, e.g. the previous release, pure Python).
    """
    env = {**os.environ, "LIGRETTO_PURE": "1" if pure else "0"}
    if source is not None:
        env["PYTHONPATH"] = os.path.abspath(source)
    done = subprocess.run(
        [sys.executable, script, "--child", *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def compare_builds(
    script: str, args: Sequence[str], pairs: int, baseline: str | None = None
) -> dict[str, list[dict[str, Any]]]:
    """``pairs`` runs of each build (``pure``, ``compiled`` when this install has
    one, ``baseline`` when given), interleaved: each round of runs starts
    with another build, so that all see the same machine load."""
    builds = ["pure"]
    if compiled_available():
        builds.append("compiled")
    if baseline is not None:
        builds.append("baseline")
    runs: dict[str, list[dict[str, Any]]] = {b: [] for b in builds}
    for i in range(pairs):
        for build in builds[i % len(builds) :] + builds[: i % len(builds)]:
            source = baseline if build == "baseline" else None
            runs[build].append(run_child(script, args, build == "pure", source))
    return runs


def median_ratio(
    top: Sequence[dict[str, Any]], bottom: Sequence[dict[str, Any]], key: str
) -> float:
    """Median over pairs of ``top[i][key] / bottom[i][key]``."""
    return statistics.median(a[key] / b[key] for a, b in zip(top, bottom, strict=True))


def median(runs: Sequence[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def compiled_available() -> bool:
    """Whether this install has a compiled core that may run."""
    from ligretto import _build

    return _build.decide(environ={}).kind == "compiled"
