"""The CPU per test file (helpers/file_cpu.py): a group counts what its processes start."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers.file_cpu import ENV, leave, own_group

SPIN = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass"
"""A child that uses half a second of CPU (however long that takes), then ends."""


def test_a_group_counts_the_cpu_of_a_child_that_has_ended() -> None:
    if os.environ.get(ENV):
        pytest.skip(f"{ENV} has put this process in a group of its own already")
    found = own_group(f"ligretto-test-{os.getpid()}")
    if found is None:
        pytest.skip("no writable cgroup with a CPU counter here")
    group, usage = found
    try:
        before = usage()
        subprocess.run([sys.executable, "-c", SPIN], check=True)
        assert usage() - before >= 0.5
    finally:
        leave(group)
    assert not group.exists()
