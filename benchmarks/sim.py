"""Simulator speed: timed four-player rounds with races, on one core.

Each seat is a bot with its reaction-time model; the discrete-event loop
applies actions in virtual-time order, so races are lost with PileTakenError as
in R3. Prints rounds/s and actions/s (applied actions; refused race moves
are not counted) for stack-first bots — the figure the simulator issue
asks for — and for the other strategies. Numbers depend on the machine and
on what else runs on it; compare them only on one machine.

    .venv/bin/python benchmarks/sim.py [--rounds N] [--profile] [--options JSON]

``--options '{"row_storage": true}'`` measures the R6 variant, where the
bots store cards in the row.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time

from ligretto.bots import make_bot
from ligretto.rules import RuleOptions
from ligretto.sim.engine import simulate_round
from ligretto.sim.seeds import derive_seed


def measure(
    bot_names: list[str], rounds: int, options: RuleOptions | None = None
) -> tuple[float, float, float, float, float]:
    """rounds/s and actions/s of CPU time, rounds/s of wall time, actions and
    races lost per round. CPU time is what one core gives this process; on a
    busy machine the wall-clock figure is lower."""
    bots = [make_bot(name) for name in bot_names]
    options = options or RuleOptions()
    actions = races = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for i in range(rounds):
        record = simulate_round(bots, derive_seed(1, i), options, index=i)
        actions += sum(record.actions)
        races += sum(record.races_lost)
    cpu = time.process_time() - cpu
    elapsed = time.perf_counter() - start
    return rounds / cpu, actions / cpu, rounds / elapsed, actions / rounds, races / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="cProfile stack-first rounds")
    parser.add_argument("--options", default="{}", help="rule options as JSON (default: defaults)")
    args = parser.parse_args()
    options = RuleOptions(**json.loads(args.options))
    stack_first = [
        "stack-first:hard",
        "stack-first:medium",
        "stack-first:easy",
        "stack-first:expert",
    ]
    if args.profile:
        cProfile.runctx(
            "measure(stack_first, args.rounds, options)",
            globals(),
            locals(),
            "/tmp/ligretto-sim.prof",
        )
        pstats.Stats("/tmp/ligretto-sim.prof").sort_stats("tottime").print_stats(20)
        return
    measure(stack_first, min(100, args.rounds), options)  # warm up the interned actions
    tables = {
        "stack-first (4 levels)": stack_first,
        "greedy:medium x4": ["greedy:medium"] * 4,
        "random:medium x4": ["random:medium"] * 4,
        "mixed (stack-first, greedy, random, mine)": [
            "stack-first:hard",
            "greedy:medium",
            "random:easy",
            "mine:hard",
        ],
        "mine:hard x4": ["mine:hard"] * 4,
    }
    for label, names in tables.items():
        n = args.rounds if label.startswith("stack-first") else max(1, args.rounds // 4)
        rps, aps, wall_rps, per_round, races = measure(names, n, options)
        print(
            f"{label:42} {rps:6.0f} rounds/s {aps:7.0f} actions/s (CPU); "
            f"{wall_rps:5.0f} rounds/s wall; {per_round:.0f} actions, "
            f"{races:.1f} races lost per round; {n} rounds"
        )


if __name__ == "__main__":
    main()
