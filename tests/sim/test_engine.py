"""The discrete-event simulation of a round: reproducible, races as R3 says."""

from __future__ import annotations

import statistics

from ligretto.bots import Bot, make_bot
from ligretto.rules import RuleOptions, Termination
from ligretto.sim.engine import RoundLimits, simulate_round
from ligretto.sim.seeds import derive_seed
from ligretto.simulate.run import SimConfig, run_rounds


def _bots(*names: str) -> list[Bot]:
    return [make_bot(n) for n in names]


def test_same_seed_same_round_and_other_seed_other_round() -> None:
    bots = _bots("stack-first:hard", "greedy:medium", "random:easy", "mine:hard")
    a = simulate_round(bots, 42)
    b = simulate_round(bots, 42)
    assert a == b
    assert simulate_round(bots, 43) != a


def test_round_record_follows_r4_and_r5() -> None:
    bots = _bots("stack-first:hard", "stack-first:hard", "mine:hard", "greedy:hard")
    for seed in range(30):
        rec = simulate_round(bots, seed)
        assert not rec.stalled
        assert rec.points == tuple(m - 2 * s for m, s in zip(rec.middle, rec.stack, strict=True))
        if rec.caller is not None:  # R4: the caller's stack is empty, nobody else's
            assert rec.stack[rec.caller] == 0
            assert sum(s == 0 for s in rec.stack) == 1
            assert rec.termination is Termination.STOP
        else:
            assert rec.termination is Termination.DEADLOCK
        assert rec.seconds > 0 and sum(rec.actions) > 0
        assert rec.refused == (0, 0, 0, 0)


def test_r3_races_are_lost_by_the_slower_seat() -> None:
    # Same strategy at every seat: the expert seats take more piles first.
    bots = _bots("stack-first:easy", "stack-first:expert", "stack-first:easy", "stack-first:expert")
    records = [simulate_round(bots, seed) for seed in range(80)]
    won = [sum(r.races_won[s] for r in records) for s in range(4)]
    lost = [sum(r.races_lost[s] for r in records) for s in range(4)]
    assert sum(lost) > 0
    assert sum(won) <= sum(lost)  # every race won is someone's race lost
    assert won[1] + won[3] > won[0] + won[2]
    assert lost[1] + lost[3] < lost[0] + lost[2]
    points = [statistics.fmean(r.points[s] for r in records) for s in range(4)]
    assert min(points[1], points[3]) > max(points[0], points[2])


def test_limits_stop_a_round_as_stalled() -> None:
    bots = _bots("random:easy", "random:easy")
    rec = simulate_round(bots, 1, limits=RoundLimits(max_actions=10))
    assert rec.stalled and sum(rec.actions) <= 10 and rec.caller is None


def test_one_and_two_workers_give_identical_records() -> None:
    config = SimConfig.from_names(
        ["stack-first:hard", "greedy:medium", "mine:expert"],
        seed=7,
        options=RuleOptions(row_refill="manual"),
    )
    one = run_rounds(config, 230, workers=1)
    two = run_rounds(config, 230, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(230))
    assert run_rounds(SimConfig.from_names(config.labels, seed=8), 5) != one[:5]


def test_r4_a_deal_that_is_already_a_deadlock_ends_at_once() -> None:
    # derive_seed(1, 413) without recycle shuffling deals a table on which no
    # card can ever be played (found by the simulator; R4 "deadlock")
    bots = _bots("stack-first:medium", "mine:medium", "stack-first:medium", "mine:medium")
    options = RuleOptions(recycle_shuffle=False)
    rec = simulate_round(bots, derive_seed(1, 413), options)
    assert rec.termination is Termination.DEADLOCK and not rec.stalled
    assert rec.seconds == 0 and sum(rec.actions) == 0
    assert rec.points == (-20, -20, -20, -20)
