"""Strategy results that the docs claim, checked on fixed seeds.

These are statistical claims, so each is tested the way the study states it:
a paired t-test over the same rounds at the 5 % level (a fixed seed makes
the test's outcome fixed, not flaky).
"""

from __future__ import annotations

import statistics

import pytest

from ligretto.simulate.run import SimConfig, run_rounds, simulate


@pytest.mark.many_rounds
def test_watchful_beats_stack_first_significantly() -> None:
    config = SimConfig.from_names(
        ["stack-first:hard", "mine:hard", "stack-first:hard", "mine:hard"], seed=2026
    )
    report = simulate(config, rounds=800)
    (comparison,) = report.comparisons
    assert (comparison.a, comparison.b) == ("stack-first:hard", "mine:hard")
    assert comparison.result.difference.mean < -0.5  # mine scores more per round
    assert comparison.result.difference.high < 0
    assert comparison.result.p_value < 0.01


@pytest.mark.many_rounds
def test_r7_stack_first_beats_its_reversal_and_random() -> None:
    # R7: the stack first (each card there costs 2) — against the same
    # player with the order reversed (discard top first), and against random
    config = SimConfig.from_names(
        [
            "stack-first:medium",
            "discard-first:medium",
            "stack-first:medium",
            "discard-first:medium",
        ],
        seed=1,
    )
    (result,) = (c.result for c in simulate(config, rounds=1500).comparisons)
    assert result.significant and result.difference.mean > 0.5
    config = SimConfig.from_names(["stack-first:medium", "random:medium"], seed=7)
    (result,) = (c.result for c in simulate(config, rounds=100).comparisons)
    assert result.significant and result.difference.mean > 5


def test_calibration_a_four_player_round_lasts_one_to_three_minutes() -> None:
    # docs/bots.md: the levels are calibrated on four equal players
    for level, low, high in [("easy", 120, 180), ("medium", 90, 130), ("expert", 45, 70)]:
        config = SimConfig.from_names([f"stack-first:{level}"] * 4, seed=11)
        seconds = statistics.fmean(r.seconds for r in run_rounds(config, 120))
        assert low <= seconds <= high, (level, seconds)
