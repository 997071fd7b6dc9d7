"""Instructions per round: the engine and the simulator, counted, not timed.

A shared machine's speed swings from one second to the next (two figures
measured a minute apart can differ by 2x), so besides the timed benchmarks
this one counts the machine instructions a round takes, with valgrind's
cachegrind: the same count on every run of the same Python build, whatever
else the machine is doing. It measures, for the pure and the compiled build:

- the engine: ``benchmarks/engine.py``'s greedy 4-player rounds;
- the simulator: ``benchmarks/sim.py``'s four stack-first bots with timing
  and races;
- the machine reference (``benchmarks/reference.py``), per step: the
  rounds' counts divided by it are comparable across Python builds.

Each workload first plays rounds outside the count (the interned actions
and events fill up as in a long run), then ``--rounds`` more; a second run
without those gives the count of start-up and warm-up, which is taken off.
Instructions are not time (cache misses and branches differ), but the
ratios move with the timed ones and never with the machine's load.

    .venv/bin/python benchmarks/instructions.py [--rounds N] [--warm N]

``PYTHONPATH=../other/src`` counts another checkout's build instead (its
compiled modules built in place).

Needs ``valgrind`` (Debian package ``valgrind``); about a minute per build.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

WORKLOADS = {
    "engine": """
from engine import play_round
from ligretto.rules import RuleOptions
options = RuleOptions()
for seed in range(10_000, 10_000 + WARM):
    play_round(4, seed, options)
for seed in range(ROUNDS):
    play_round(4, seed, options)
""",
    "simulator": """
from sim import STACK_FIRST
from ligretto.bots import make_bot
from ligretto.rules import RuleOptions
from ligretto.sim.engine import simulate_round
from ligretto.sim.seeds import derive_seed
bots = [make_bot(name) for name in STACK_FIRST]
options = RuleOptions()
for i in range(WARM):
    simulate_round(bots, derive_seed(2, i), options, index=i)
for i in range(ROUNDS):
    simulate_round(bots, derive_seed(1, i), options, index=i)
""",
    "reference": """
from reference import reference
for _ in range(ROUNDS):
    reference()
""",
}


def count(workload: str, rounds: int, warm: int, pure: bool) -> int:
    """Instructions (cachegrind's ``I refs``) of one run of ``workload``."""
    code = WORKLOADS[workload].replace("ROUNDS", str(rounds)).replace("WARM", str(warm))
    # A PYTHONPATH already set (another checkout's src) still comes first.
    paths = [p for p in (os.environ.get("PYTHONPATH", ""), str(HERE)) if p]
    # A fixed hash seed: string hashing is part of the count.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PYTHONHASHSEED="0")
    env.pop("LIGRETTO_PURE", None)
    if pure:
        env["LIGRETTO_PURE"] = "1"
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_round(workload: str, rounds: int, warm: int, pure: bool) -> float:
    """Instructions per round (per call for the reference), start-up taken off."""
    whole = count(workload, rounds, warm, pure)
    start = count(workload, 0, warm, pure)
    return (whole - start) / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds counted")
    parser.add_argument("--warm", type=int, default=300, help="rounds played before them")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        # `make bench` runs every benchmark: this one is skipped, not failed.
        print("skipped: valgrind is not installed (Debian: apt-get install valgrind)")
        return
    from reference import REFERENCE_STEPS

    results: dict[str, dict[str, float]] = {}
    for build, pure in (("compiled", False), ("pure", True)):
        results[build] = {
            "engine": per_round("engine", args.rounds, args.warm, pure),
            "simulator": per_round("simulator", args.rounds, args.warm, pure),
        }
    step = per_round("reference", 20, 0, True) / REFERENCE_STEPS
    print(f"machine reference: {step:,.0f} instructions per step")
    print(f"{'':10} {'engine':>22} {'simulator':>22} {'simulator/engine':>17}")
    for build, figures in results.items():
        engine, sim = figures["engine"], figures["simulator"]
        print(
            f"{build:10} {engine:>12,.0f} = {engine / step:>5,.0f} st"
            f" {sim:>12,.0f} = {sim / step:>5,.0f} st {engine / sim:>16.2f}x"
        )
    compiled, pure_ = results["compiled"], results["pure"]
    print(
        f"compiled/pure: engine {pure_['engine'] / compiled['engine']:.2f}x,"
        f" simulator {pure_['simulator'] / compiled['simulator']:.2f}x"
        " (fewer instructions per round)"
    )
    print(json.dumps({"reference_instructions_per_step": step, **results}))


if __name__ == "__main__":
    main()
