"""The CPU per test file (helpers/file_cpu.py): a group counts what its processes start."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers.file_cpu import ENV, Group, leave, own_group

SPIN = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass"
"""A child that uses half a second of CPU (however long that takes), then ends."""


def own_or_skip(name: str) -> Group:
    """This process in a new group ``name``, or the test skipped where it cannot be."""
    if os.environ.get(ENV):
        pytest.skip(f"{ENV} has put this process in a group of its own already")
    group = own_group(f"{name}-{os.getpid()}")
    if group is None:
        pytest.skip("no writable cgroup with a CPU counter here")
    return group


def test_a_group_counts_the_cpu_of_a_child_that_has_ended() -> None:
    found = own_or_skip("ligretto-test")
    try:
        before = found.usage()
        subprocess.run([sys.executable, "-c", SPIN], check=True)
        assert found.usage() - before >= 0.5
    finally:
        leave(found)
    assert not found.path.exists()
    # Back in the group it started in, not merely the hierarchy's root.
    assert str(os.getpid()) in (found.origin / "cgroup.procs").read_text().split()


def test_leaving_returns_to_the_group_it_came_from_not_the_root() -> None:
    first = own_or_skip("ligretto-test-origin")
    try:
        second = own_group(f"ligretto-test-inner-{os.getpid()}")
        assert second is not None
        assert second.origin == first.path
        leave(second)
        assert str(os.getpid()) in (first.path / "cgroup.procs").read_text().split()
    finally:
        leave(first)
    assert not first.path.exists()
