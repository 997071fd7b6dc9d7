"""Statistics with the standard library: checked against known values."""

import math
import random
import statistics

import pytest

from helpers.doctests import run_examples
from ligretto.estimates import (
    RunningMean,
    estimate_mean,
    estimate_proportion,
    paired_comparison,
    t_cdf,
    t_quantile,
)


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.7062047), (5, 2.5705818), (10, 2.2281389), (30, 2.0422725), (1000, 1.9623391)],
)
def test_t_quantile_matches_published_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-6)


def test_t_cdf_is_symmetric_and_inverts_the_quantile() -> None:
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
    assert t_cdf(-1.3, 7) == pytest.approx(1 - t_cdf(1.3, 7))
    assert t_cdf(t_quantile(0.9, 12), 12) == pytest.approx(0.9, abs=1e-9)


def test_estimate_mean_gives_student_interval() -> None:
    est = estimate_mean([1.0, 2.0, 3.0, 4.0, 5.0])
    assert est.mean == 3.0
    assert est.stdev == pytest.approx(math.sqrt(2.5))
    half = 2.7764451 * math.sqrt(2.5) / math.sqrt(5)  # t(0.975, 4)
    assert est.low == pytest.approx(3.0 - half, abs=1e-6)
    assert est.high == pytest.approx(3.0 + half, abs=1e-6)


def test_estimate_mean_of_one_value_has_an_unbounded_interval() -> None:
    est = estimate_mean([4.0])
    assert est.mean == 4.0 and est.low == -math.inf and est.high == math.inf
    with pytest.raises(ValueError):
        estimate_mean([])


def test_confidence_interval_covers_the_true_mean_about_95_percent() -> None:
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        est = estimate_mean([rng.gauss(10.0, 3.0) for _ in range(20)])
        covered += est.low <= 10.0 <= est.high
    assert 0.91 <= covered / 400 <= 0.99


def test_wilson_interval() -> None:
    p = estimate_proportion(30, 100)
    assert p.rate == 0.3
    assert p.low == pytest.approx(0.2189, abs=1e-4)
    assert p.high == pytest.approx(0.3958, abs=1e-4)
    assert math.isnan(estimate_proportion(0, 0).rate)


def test_paired_comparison_detects_a_shift_and_not_noise() -> None:
    rng = random.Random(3)
    base = [rng.gauss(0, 5) for _ in range(500)]
    shifted = [x + 1.0 + rng.gauss(0, 1) for x in base]
    noisy = [x + rng.gauss(0, 1) for x in base]
    result = paired_comparison(shifted, base)
    assert result.significant and result.difference.mean == pytest.approx(1.0, abs=0.2)
    assert not paired_comparison(noisy, base).significant
    with pytest.raises(ValueError):
        paired_comparison([1.0], [1.0, 2.0])


def test_wilson_interval_contains_the_rate_at_the_ends() -> None:
    for successes in (0, 40):
        p = estimate_proportion(successes, 40)
        assert p.low <= p.rate <= p.high
        assert p.low >= 0.0 and p.high <= 1.0


def test_a_running_mean_is_the_mean_and_spread_of_its_values_in_any_order() -> None:
    rng = random.Random(3)
    values = [rng.uniform(-50, 150) for _ in range(500)] + [7, -3, 12]
    forward, backward = RunningMean(), RunningMean()
    forward.extend(values)
    backward.extend(reversed(values))
    assert forward.estimate() == backward.estimate()  # exact sums: no order
    est = forward.estimate()
    assert est.n == len(values)
    assert est.mean == pytest.approx(statistics.fmean(values), rel=1e-12)
    assert est.stdev == pytest.approx(statistics.stdev(values), rel=1e-12)


def test_a_running_mean_of_huge_values_with_a_tiny_spread_keeps_the_spread() -> None:
    running = RunningMean()
    running.extend([1e9 + 0.5, 1e9 + 1.5, 1e9 + 2.5])
    assert running.estimate().stdev == 1.0  # Σx² − (Σx)²/n in floats would lose it


def test_a_scaled_running_mean_counts_fractions_exactly() -> None:
    thirds = RunningMean(scale=3)
    thirds.extend([1, 2, 4])  # 1/3, 2/3, 4/3
    est = thirds.estimate()
    assert est.mean == pytest.approx(7 / 9)
    assert est.stdev == pytest.approx(statistics.stdev([1 / 3, 2 / 3, 4 / 3]))
    with pytest.raises(ValueError):
        RunningMean(scale=0)
    with pytest.raises(ValueError):
        RunningMean().estimate()


def test_docstring_examples() -> None:
    result = run_examples("ligretto.estimates")
    assert result.attempted > 0 and result.failed == 0
