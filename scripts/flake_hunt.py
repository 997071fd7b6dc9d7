"""Run tests again and again on a machine kept busy; name every test that failed once.

``make flake-hunt`` runs this. A test that passes on a quiet machine and
fails on a busy one waits for a time instead of for what it checks; this
finds such tests before CI does. Each run is a whole pytest session over
the given paths (by default the browser, live and deploy tests, the ones
that wait for servers, sockets and pages) while one busy loop per core
(``stress-ng --cpu N``, or a plain Python loop when stress-ng is not
installed) takes the cores' time. At the end it prints each test that
failed in any run, with how many runs it failed in, and exits 1 if there
was one.

    python scripts/flake_hunt.py --runs 5 -- tests/browser tests/live tests/deploy

Only the standard library: it runs before and beside the test environment.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

DEFAULT_PATHS = ("tests/browser", "tests/live", "tests/deploy")


def _spin() -> None:  # pragma: no cover - runs in a child process until killed
    while True:
        pass


@contextmanager
def busy_cores(count: int) -> Iterator[str]:
    """Keep ``count`` cores busy until the block ends; yield what does it."""
    if count <= 0:
        yield "nothing (--busy 0)"
        return
    stress = shutil.which("stress-ng")
    if stress:
        process = subprocess.Popen(
            [stress, "--cpu", str(count), "--quiet"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            yield f"stress-ng --cpu {count}"
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        return
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(count)]
    for spinner in spinners:
        spinner.start()
    try:
        yield f"{count} Python busy loop(s)"
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.join()


def failures(report: Path) -> list[str]:
    """The node ids of the tests a JUnit XML report lists as failed or in error."""
    if not report.exists():
        return ["(the run wrote no report: pytest did not finish)"]
    failed = []
    for case in ET.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            module = case.get("classname", "").replace(".", "/")
            failed.append(f"{module}.py::{case.get('name')}")
    return failed


def hunt(runs: int, busy: int, pytest_args: Sequence[str], python: str) -> int:
    failed: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="flake-hunt-") as folder, busy_cores(busy) as load:
        print(f"flake hunt: {runs} run(s) of {' '.join(pytest_args)} under {load}", flush=True)
        for run in range(1, runs + 1):
            report = Path(folder) / f"run-{run}.xml"
            started = time.monotonic()
            command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            command += [f"--junitxml={report}", *pytest_args]
            code = subprocess.call(command)
            found = failures(report)
            if code not in (0, 1) and not found:
                found = [f"(pytest exited {code} in run {run})"]
            failed.update(found)
            minutes = (time.monotonic() - started) / 60
            print(f"run {run}/{runs}: {len(found)} failed, {minutes:.1f} min", flush=True)
    if not failed:
        print(f"flake hunt: no test failed in {runs} run(s)")
        return 0
    print(f"flake hunt: {len(failed)} test(s) failed at least once in {runs} run(s):")
    for test, times in failed.most_common():
        print(f"  {times}/{runs}  {test}")
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="how many runs (default 5)")
    parser.add_argument(
        "--busy",
        type=int,
        default=os.cpu_count() or 1,
        help="busy loops to run beside the tests (default: one per core)",
    )
    parser.add_argument("--python", default=sys.executable, help="the Python with pytest")
    parser.add_argument("pytest_args", nargs="*", help="paths and options for pytest")
    args = parser.parse_args(argv)
    return hunt(args.runs, args.busy, args.pytest_args or DEFAULT_PATHS, args.python)


if __name__ == "__main__":
    sys.exit(main())
