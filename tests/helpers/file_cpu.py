"""The CPU each test file costs the machine, with all it starts.

The suite is CPU-bound on two cores: a pass ends sooner only when its tests
take less of the machine's CPU, and most of that CPU is not in pytest's own
processes but in what the tests start: Chromium's browser, renderer and GPU
processes, server processes, their board workers. Those come and go inside
a file, so a process's own counters lose them.

``LIGRETTO_FILE_CPU_OUT=path`` moves each pytest process (each xdist
worker) into a control group of its own, which every process it starts
inherits, and reads the group's CPU counter whenever the worker moves on to
the next file: each file is charged with what its tests, fixtures and
tear-down took, children included. The controller writes the seconds per
file to ``path`` (JSON, the costliest first, with their sum), and
``make file-cpu`` runs the compiled pass that way. A server shared by all
workers (the PostgreSQL of ``.ci/run``) is charged to nobody.

Needs a writable cgroup hierarchy with a CPU counter: cgroup v1's
``cpuacct`` or cgroup v2 (as root, or in a delegated subtree); without one
it says so and records nothing.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest

ENV = "LIGRETTO_FILE_CPU_OUT"
V1 = Path("/sys/fs/cgroup/cpuacct")
V2 = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))

Usage = Callable[[], float]
"""Seconds of CPU a group's processes have used so far."""


@dataclass(frozen=True)
class Group:
    """A control group this process moved into, and where it came from."""

    path: Path
    origin: Path
    usage: Usage


def _origin(root: Path, controller: str) -> Path:
    """The group this process is in now under ``root``, from /proc/self/cgroup
    (``4:cpu,cpuacct:/a/b`` in v1, ``0::/a/b`` in v2)."""
    for line in Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines():
        _number, controllers, where = line.split(":", 2)
        if controller in controllers.split(","):
            return root / where.lstrip("/")
    return root


def _join(group: Path) -> None:
    group.mkdir(exist_ok=True)
    try:
        (group / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")
    except OSError:
        group.rmdir()  # made, but not ours to enter (a delegated tree's rules)
        raise


def _v2_usage(group: Path) -> float:
    for line in (group / "cpu.stat").read_text(encoding="ascii").splitlines():
        key, _, value = line.partition(" ")
        if key == "usage_usec":
            return int(value) / 1e6
    raise OSError(f"{group / 'cpu.stat'} has no usage_usec")


def own_group(name: str) -> Group | None:
    """Move this process into a new group ``name`` beside the hierarchy's root."""
    try:
        if (V1 / "cpuacct.usage").exists():
            origin = _origin(V1, "cpuacct")
            group = V1 / name
            _join(group)
            usage = group / "cpuacct.usage"
            return Group(group, origin, lambda: int(usage.read_text(encoding="ascii")) / 1e9)
        for root in V2:
            if (root / "cgroup.controllers").exists():
                origin = _origin(root, "")
                group = root / name
                _join(group)
                return Group(group, origin, partial(_v2_usage, group))
    except OSError:
        return None
    return None


def leave(group: Group) -> None:
    """Move this process back to the group it came from and remove its own
    (which stays while a process it started is still alive)."""
    try:
        (group.origin / "cgroup.procs").write_text(str(os.getpid()), encoding="ascii")
        group.path.rmdir()
    except OSError:
        pass


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class FileCpu:
    """Charges each file with the group's CPU from its first test to the next file's."""

    def __init__(self, config: pytest.Config, out: str) -> None:
        self.config = config
        self.out = out
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.current: str | None = None
        self.mark = 0.0
        self.group: Group | None = None
        self.is_worker = hasattr(config, "workerinput")
        uses_workers = getattr(config.option, "numprocesses", None) not in (None, 0)
        if self.is_worker or not uses_workers:  # the processes that run tests
            self.group = own_group(f"ligretto-tests-{os.getpid()}")
            if self.group is None:
                print(f"{ENV}: no writable cgroup with a CPU counter here: nothing recorded")

    def _charge(self, usage: Usage) -> float:
        now = usage()
        if self.current is not None:
            self.seconds[self.current] += now - self.mark
        self.mark = now
        return now

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> None:
        name = _file_of(item.nodeid)
        if self.group is not None and name != self.current:
            self._charge(self.group.usage)
            self.current = name

    def pytest_sessionfinish(self) -> None:
        if self.group is None:
            return
        self._charge(self.group.usage)
        self.current = None
        if self.is_worker:
            self.config.workeroutput["file_cpu"] = dict(self.seconds)  # type: ignore[attr-defined]
        self._leave()

    def _leave(self) -> None:
        assert self.group is not None
        leave(self.group)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: object) -> None:
        output = getattr(node, "workeroutput", {})
        for name, seconds in output.get("file_cpu", {}).items():
            self.seconds[name] += seconds

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.is_worker or not self.seconds:
            return
        terminalreporter.section("CPU per test file, with what it started (the costliest)")
        for name, seconds in sorted(self.seconds.items(), key=lambda item: -item[1])[:15]:
            terminalreporter.write_line(f"{seconds:8.1f} s  {name}")
        terminalreporter.write_line(f"{sum(self.seconds.values()):8.1f} s  in all ({self.out})")

    def pytest_unconfigure(self) -> None:
        if self.is_worker or not self.seconds:
            return
        costliest = dict(sorted(self.seconds.items(), key=lambda item: -item[1]))
        record = {
            "total": round(sum(costliest.values()), 1),
            "files": {name: round(seconds, 1) for name, seconds in costliest.items()},
        }
        Path(self.out).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def register(config: pytest.Config) -> None:
    """Record CPU per file when ``LIGRETTO_FILE_CPU_OUT`` names a file."""
    out = os.environ.get(ENV)
    if out:
        config.pluginmanager.register(FileCpu(config, out), "ligretto-file-cpu")
