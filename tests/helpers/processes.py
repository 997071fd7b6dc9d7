"""A process and the processes below it, as Linux's ``/proc`` shows them: the tree, memory, CPU."""

from __future__ import annotations

import os
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the name (state, ppid, …); None when gone."""
    try:
        # "pid (name) state ppid …": the name may hold spaces and parentheses.
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def descendants(pid: int) -> list[int]:
    """Every process below *pid*: its children, theirs, and so on."""
    tree, found, todo = _children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (``VmHWM``), in MB; 0 when it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) that *pid* and every process below it used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for member in [pid, *descendants(pid)]:
        if (fields := _stat(member)) is not None:
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total
