"""A lab study that costs far more than it looks, against a study at the cap: how long, how much.

The scenario of ``tests/web/test_lab_budget.py`` (``tests/helpers/lab_load.py``)
at full size, with the server's default budget: first the reference, the
"A vs B" question at the cap (50,000 rounds of four seats, 200,000 rounds
× seats), then 1,250 games to 99 of sixteen ``random:easy`` bots with
playing cards (200,000 rounds × seats as the cap counts them; none of the
games ever reaches 99). Both in one run on one server, so the **ratio** of
their times is the finding, as the machine may be shared. A prober asks
``/healthz`` all along. Prints per study: seconds, rounds or games played
of those asked, simulated actions (thrown-away work included), whether it
stopped at the budget, ``/healthz`` answer times, the CPU the server and
its child processes used; and the peak memory of each of them.

    .venv/bin/python benchmarks/lab_budget.py [--games 1250] [--rounds 50000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.group_load import Prober, figures
from helpers.lab_load import (
    cpu_seconds,
    endless_games,
    family,
    peak_rss_mb,
    run_study,
    serve,
    versus_rounds,
)


def _study(base: str, pid: int, label: str, form: dict[str, str]) -> tuple[float, float]:
    with Prober(base) as prober:
        started = time.perf_counter()
        cpu = cpu_seconds(pid)
        stored = run_study(base, form, timeout=7200)
        cpu = cpu_seconds(pid) - cpu
        seconds = time.perf_counter() - started
    budget: dict[str, Any] = stored["result"].get("budget", {})
    health = figures(prober.times["healthz"])
    print(
        f"{label:<10} {seconds:7.1f} s ({cpu:.1f} s CPU)"
        f"  played {budget.get('played')} of {budget.get('asked')}"
        f"  simulated {budget.get('simulated', 0):,} actions (budget {budget.get('actions', 0):,},"
        f" stopped: {budget.get('stopped')})"
    )
    print(
        f"{'':<10} /healthz median {health['median_ms']} p99 {health['p99_ms']}"
        f" max {health['max_ms']} ms ({health['n']} probes)"
    )
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1250)
    parser.add_argument("--rounds", type=int, default=50_000)
    args = parser.parse_args()
    one, five, _ = os.getloadavg()
    print(f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder) / "data") as server:
        reference = _study(server.base, server.pid, "reference", versus_rounds(args.rounds))
        endless = _study(server.base, server.pid, "endless", endless_games(args.games))
        peaks = {pid: round(peak_rss_mb(pid)) for pid in family(server.pid)}
    print(
        f"endless / reference: {endless[0] / reference[0]:.2f}x the time,"
        f" {endless[1] / reference[1]:.2f}x the CPU (the server and its children)"
    )
    print(f"peak memory (MB) of the server and its children: {peaks}")


if __name__ == "__main__":
    main()
