"""Rules engine speed: complete rounds with a trivial greedy policy.

Seats act in turn; each plays the first card that fits the middle, else
refills a gap, else turns cards (or recycles). Prints rounds/s and
actions/s for 2 and 4 players. The numbers depend on the machine and on
what else runs; compare them only on one machine.

    .venv/bin/python benchmarks/engine.py [--rounds N] [--profile] [--options JSON]

With ``row_storage`` the greedy policy never stores, and a round that only
a storage move could move on is (rightly, R4) no deadlock: after
``STUCK_AFTER`` actions per seat without a card to the middle the table
agrees that it is stuck (``Round.settle_stuck``, R4), as the simulator's
stall guard does.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time

from ligretto.rules import Play, Refill, Round, RuleOptions

#: actions per seat without a card to the middle after which the table is stuck
STUCK_AFTER = 200


def play_round(players: int, seed: int, options: RuleOptions) -> int:
    """Play one round to its end with the greedy policy; return the action count."""
    r = Round.deal(players, seed, options)
    actions = 0
    quiet = 0  # actions since the last card to the middle
    stuck_after = STUCK_AFTER * players
    while not r.is_over:
        if quiet > stuck_after:
            r.settle_stuck()
            quiet = 0
            continue
        for seat in range(players):
            legal = r.legal_actions(seat)
            if not legal:
                break
            choice = legal[0]  # plays to the middle come first
            if not isinstance(choice, Play):
                refills = [a for a in legal if isinstance(a, Refill)]
                choice = refills[0] if refills else legal[-1]  # turn or recycle
            r.apply(seat, choice)
            actions += 1
            quiet = 0 if type(choice) is Play else quiet + 1
            if r.is_over:
                break
    return actions


def measure(players: int, rounds: int, options: RuleOptions) -> tuple[float, float, int]:
    """Play ``rounds`` rounds; return wall seconds, CPU seconds and actions."""
    wall, cpu = time.perf_counter(), time.process_time()
    actions = sum(play_round(players, seed, options) for seed in range(rounds))
    return time.perf_counter() - wall, time.process_time() - cpu, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="cProfile 4-player rounds")
    parser.add_argument(
        "--options",
        default="{}",
        help="rule options as JSON, e.g. '{\"recycle_shuffle\": false}' (default: the defaults)",
    )
    args = parser.parse_args()
    options = RuleOptions(**json.loads(args.options))
    if args.profile:
        cProfile.runctx(
            "measure(4, args.rounds, options)", globals(), locals(), "/tmp/ligretto-engine.prof"
        )
        pstats.Stats("/tmp/ligretto-engine.prof").sort_stats("tottime").print_stats(15)
        return
    measure(4, min(200, args.rounds), options)  # warm up the interned actions
    print(f"greedy policy, {options}, {args.rounds} rounds each, one core")
    for players in (2, 4):
        wall, cpu, actions = measure(players, args.rounds, options)
        # CPU time is steadier than wall time on a shared machine.
        print(
            f"{players} players: {args.rounds / wall:6.0f} rounds/s "
            f"{actions / wall:8.0f} actions/s (wall) | "
            f"{args.rounds / cpu:6.0f} rounds/s {actions / cpu:8.0f} actions/s (CPU) | "
            f"{actions / args.rounds:.0f} actions/round"
        )


if __name__ == "__main__":
    main()
