"""Simulator speed: timed four-player rounds with races, on one core.

Each seat is a bot with its reaction-time model; the discrete-event loop
applies actions in virtual-time order, so races are lost with PileTakenError as
in R3. Prints rounds/s and actions/s (applied actions; refused race moves
are not counted) for stack-first bots, in the pure and in the compiled build
(each in its own process, interleaved), and beside them, measured in the
same processes:

- the rules engine alone (``benchmarks/engine.py``'s greedy 4-player
  rounds): the simulator's rounds/s as a fraction of the engine's;
- the machine reference (``benchmarks/reference.py``): rounds per million
  reference steps, a figure another machine can compare with its own.

Then the other strategies (this install's build), ``simulate`` with 2
worker processes against 1 (wall time; it needs 2 idle cores to show 2x),
and ``simulate`` on a local Dask cluster of 2 worker processes against the
local pool of 2 (rounds/s of wall time, one run each: what the cluster's
scheduling and transport cost; ``--no-cluster`` skips it, and it is skipped
without the ``distributed`` package).

    .venv/bin/python benchmarks/sim.py [--rounds N] [--pairs N] [--baseline SRC]
                                       [--profile] [--options JSON]

``--options '{"row_storage": true}'`` measures the R6 variant, where the
bots store cards in the row.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import pstats
import statistics
import time

import reference as ref
from engine import play_round

from ligretto.bots import make_bot
from ligretto.rules import RuleOptions
from ligretto.sim.engine import simulate_round
from ligretto.sim.seeds import derive_seed
from ligretto.simulate.run import SimConfig, simulate


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


STACK_FIRST = ["stack-first:hard", "stack-first:medium", "stack-first:easy", "stack-first:expert"]


def child(args: argparse.Namespace, options: RuleOptions) -> None:
    """Simulator and engine rounds/s in this process's build; one line of JSON.

    Simulator and engine batches alternate, so that both see the same load.
    """
    import ligretto

    bots = [make_bot(name) for name in STACK_FIRST]
    per_batch = max(1, args.rounds // args.batches)
    measure(STACK_FIRST, min(100, args.rounds), options)  # warm up the interned actions

    def sim_batch() -> float:
        for i in range(per_batch):
            simulate_round(bots, derive_seed(1, i), options, index=i)
        return per_batch

    def engine_batch() -> float:
        for seed in range(per_batch):
            play_round(4, seed, options)
        return per_batch

    sim = engine = 0.0
    for _ in range(args.batches):
        sim = max(sim, ref.best_rate(sim_batch, 1))
        engine = max(engine, ref.best_rate(engine_batch, 1))
    build = getattr(ligretto, "BUILD", None)  # a baseline may predate the builds
    print(
        json.dumps(
            {
                "build": "pure" if build is None else build.kind,
                "sim": sim,
                "engine": engine,
                "sim_per_engine": sim / engine,
                "reference": ref.reference_rate(),
            }
        )
    )


def workers_ratio(rounds: int, options: RuleOptions, pairs: int = 3) -> list[float]:
    """How many times as fast ``simulate`` is with 2 worker processes as with 1
    (wall time), for each of *pairs* interleaved pairs of runs.

    A first run of 1 worker warms the process up (the workers are forked
    from it, warm too): measured first and cold, 1 worker took up to 1.5×
    as long as warm, which flattered the ratio or hid it in the noise.
    """
    config = SimConfig.from_names(STACK_FIRST, seed=1, options=options)
    simulate(config, rounds=rounds // 4, workers=1)
    ratios = []
    for _ in range(pairs):
        wall = []
        for workers in (1, 2):
            start = time.perf_counter()
            simulate(config, rounds=rounds, workers=workers)
            wall.append(time.perf_counter() - start)
        ratios.append(wall[0] / wall[1])
    return ratios


def cluster_ratio(rounds: int, options: RuleOptions) -> tuple[float, float] | None:
    """Rounds/s of wall time of ``simulate`` on a local Dask cluster of 2
    worker processes and on the local pool of 2, one run each (after one
    warm-up run on the cluster, which imports ligretto in its workers)."""
    try:
        from distributed import LocalCluster
    except ImportError:
        return None
    config = SimConfig.from_names(STACK_FIRST, seed=1, options=options)
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,  # not the workers' shutdown chatter
    ) as cluster:
        address = cluster.scheduler_address
        simulate(config, rounds=rounds // 10, cluster=address)
        start = time.perf_counter()
        simulate(config, rounds=rounds, cluster=address)
        on_cluster = rounds / (time.perf_counter() - start)
    start = time.perf_counter()
    simulate(config, rounds=rounds, workers=2)
    local = rounds / (time.perf_counter() - start)
    return on_cluster, local


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=3, help="runs of each build")
    parser.add_argument("--batches", type=int, default=5, help="batches per run (best counts)")
    parser.add_argument("--profile", action="store_true", help="cProfile stack-first rounds")
    parser.add_argument("--options", default="{}", help="rule options as JSON (default: defaults)")
    parser.add_argument(
        "--worker-rounds",
        type=int,
        default=10_000,
        help="rounds for the 1-against-2-workers run (a few seconds: process start-up amortized)",
    )
    parser.add_argument(
        "--no-cluster", action="store_true", help="skip the Dask cluster against the local pool"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--baseline",
        metavar="SRC",
        help="also measure the ligretto in this src folder (e.g. a checkout of main)",
    )
    args = parser.parse_args()
    options = RuleOptions(**json.loads(args.options))
    if args.child:
        child(args, options)
        return
    if args.profile:
        cProfile.runctx(
            "measure(STACK_FIRST, args.rounds, options)",
            globals(),
            locals(),
            "/tmp/ligretto-sim.prof",
        )
        pstats.Stats("/tmp/ligretto-sim.prof").sort_stats("tottime").print_stats(20)
        return
    child_args = ["--rounds", str(args.rounds), "--batches", str(args.batches)]
    child_args += ["--options", args.options]
    runs = ref.compare_builds(__file__, child_args, args.pairs, args.baseline)
    machine = ref.median([r for rs in runs.values() for r in rs], "reference")
    print(
        f"stack-first bots (4 levels), 4 players, {options}; {args.rounds} rounds per run, "
        f"CPU time, best of {args.batches} batches, medians of {args.pairs} runs per build"
    )
    print(
        f"machine reference: {machine / 1e6:.2f} M steps/s (benchmarks/reference.py); "
        "rounds/Mstep = rounds per million reference steps"
    )
    if "compiled" not in runs:
        print("(this install has no compiled build: pure Python only)")
    for build, rs in runs.items():
        sim, engine = ref.median(rs, "sim"), ref.median(rs, "engine")
        line = (
            f"{build:9} simulator {sim:6.0f} rounds/s {sim / machine * 1e6:5.0f} rounds/Mstep"
            f" | engine {engine:6.0f} rounds/s | simulator/engine "
            f"{ref.median(rs, 'sim_per_engine'):.2f}x"
        )
        if build != "pure":
            line += f" | simulator {ref.median_ratio(rs, runs['pure'], 'sim'):.2f}x pure"
        print(line)
    if "compiled" in runs:
        # the comparison: the compiled simulator against the pure engine
        across = [
            c["sim"] / p["engine"] for c, p in zip(runs["compiled"], runs["pure"], strict=True)
        ]
        print(f"compiled simulator / pure engine {statistics.median(across):.2f}x")
    tables = {
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
    print(f"other strategies ({'compiled' if ref.compiled_available() else 'pure'} build):")
    for label, names in tables.items():
        n = max(1, args.rounds // 4)
        rps, aps, wall_rps, per_round, races = measure(names, n, options)
        print(
            f"  {label:42} {rps:6.0f} rounds/s {aps:7.0f} actions/s (CPU); "
            f"{per_round:.0f} actions, {races:.1f} races lost per round; {n} rounds"
        )
    ratios = workers_ratio(args.worker_rounds, options)
    print(
        f"simulate, {args.worker_rounds} rounds: 2 workers "
        f"{statistics.median(ratios):.2f}x as fast as 1, median of {len(ratios)} pairs "
        f"({', '.join(f'{r:.2f}' for r in ratios)}; wall time; "
        f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    measured = None if args.no_cluster else cluster_ratio(args.worker_rounds, options)
    if measured is not None:
        on_cluster, local = measured
        print(
            f"simulate, {args.worker_rounds} rounds: a local Dask cluster of 2 worker processes "
            f"{on_cluster:.0f} rounds/s, the local pool of 2 {local:.0f} rounds/s: "
            f"{on_cluster / local:.2f}x (wall time, one run each; "
            f"load average now {os.getloadavg()[0]:.1f})"
        )


if __name__ == "__main__":
    main()
