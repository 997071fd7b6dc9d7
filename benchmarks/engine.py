"""Rules engine speed: complete rounds with a trivial greedy policy.

Seats act in turn; each plays the first card that fits the middle, else
refills a gap, else turns cards (or recycles). Prints, for 2 and 4 players,
rounds/s and actions/s of the pure and of the compiled build (each in its
own process, interleaved), the compiled/pure ratio, and the figures per
million steps of the machine reference measured in the same run (see
``benchmarks/reference.py``): ratios another machine can compare with.

    .venv/bin/python benchmarks/engine.py [--rounds N] [--pairs N] [--baseline SRC]
                                          [--profile] [--options JSON]

``--baseline ../main/src`` adds the engine of another checkout (pure
Python), e.g. the release before the compiled core, as a third build.

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

import reference as ref

from ligretto.rules import Play, Round, RuleOptions

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
            # The first legal play to the middle, else the first refill, else
            # the last legal action (turn or recycle): asked for one by one,
            # without listing every legal action.
            choice = r.first_action(seat)
            if choice is None:
                legal = r.legal_actions(seat)  # only stores (R6) are left
                if not legal:
                    break
                choice = legal[-1]
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


def rates(players: int, rounds: int, options: RuleOptions, batches: int) -> tuple[float, float]:
    """Rounds and actions per CPU second, of the best of ``batches`` batches."""
    per_batch = max(1, rounds // batches)
    actions = sum(play_round(players, seed, options) for seed in range(per_batch))

    def work() -> float:
        for seed in range(per_batch):
            play_round(players, seed, options)
        return per_batch

    best = ref.best_rate(work, batches)
    return best, best * actions / per_batch


def child(args: argparse.Namespace, options: RuleOptions) -> None:
    """One measurement in this process's build; prints one line of JSON."""
    import ligretto

    measure(4, min(200, args.rounds), options)  # warm up the interned actions
    build = getattr(ligretto, "BUILD", None)  # a baseline may predate the builds
    result: dict[str, object] = {"build": "pure" if build is None else build.kind}
    machine = ref.reference_rate()
    for players in (2, 4):
        rps, aps = rates(players, args.rounds, options, args.batches)
        result[f"rounds{players}"] = rps
        result[f"actions{players}"] = aps
    result["reference"] = max(machine, ref.reference_rate())
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=3, help="runs of each build")
    parser.add_argument("--batches", type=int, default=5, help="batches per run (best counts)")
    parser.add_argument("--profile", action="store_true", help="cProfile 4-player rounds")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--baseline",
        metavar="SRC",
        help="also measure the ligretto in this src folder (e.g. a checkout of main)",
    )
    parser.add_argument(
        "--options",
        default="{}",
        help="rule options as JSON, e.g. '{\"recycle_shuffle\": false}' (default: the defaults)",
    )
    args = parser.parse_args()
    options = RuleOptions(**json.loads(args.options))
    if args.child:
        child(args, options)
        return
    if args.profile:
        cProfile.runctx(
            "measure(4, args.rounds, options)", globals(), locals(), "/tmp/ligretto-engine.prof"
        )
        pstats.Stats("/tmp/ligretto-engine.prof").sort_stats("tottime").print_stats(15)
        return
    child_args = ["--rounds", str(args.rounds), "--batches", str(args.batches)]
    child_args += ["--options", args.options]
    runs = ref.compare_builds(__file__, child_args, args.pairs, args.baseline)
    machine = ref.median([r for rs in runs.values() for r in rs], "reference")
    print(
        f"greedy policy, {options}, {args.rounds} rounds per run, one core; "
        f"CPU time, best of {args.batches} batches, medians of {args.pairs} runs per build"
    )
    print(
        f"machine reference: {machine / 1e6:.2f} M steps/s (benchmarks/reference.py); "
        "rounds/Mstep = rounds per million reference steps"
    )
    if "compiled" not in runs:
        print("(this install has no compiled build: pure Python only)")
    for players in (2, 4):
        key, akey = f"rounds{players}", f"actions{players}"
        for build, rs in runs.items():
            rps, aps = ref.median(rs, key), ref.median(rs, akey)
            line = (
                f"{players} players {build:9} {rps:6.0f} rounds/s {aps:7.0f} actions/s "
                f"{rps / machine * 1e6:6.0f} rounds/Mstep"
            )
            if build != "pure":
                line += f"   {ref.median_ratio(rs, runs['pure'], key):.2f}x pure"
            print(line)


if __name__ == "__main__":
    main()
