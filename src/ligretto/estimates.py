"""Estimates with confidence intervals, with the standard library only.

Means with 95 % confidence intervals (Student's t), proportions with Wilson
intervals, and a paired t-test for comparing two strategies over the same
rounds. The simulator's reports and the Tafel's group statistics both use
them, so this module sits below both and imports nothing from ligretto.
Student's t distribution is computed here through the regularized incomplete
beta function (continued fraction, as in Numerical Recipes), because the
project does not depend on SciPy.

A mean is built from values seen one at a time (:class:`RunningMean`): the
count, the sum and the sum of squares, kept exactly (integers stay
integers; a float is a binary fraction, which :class:`~fractions.Fraction`
holds exactly), so a long run's estimate needs no list of its values and
does not depend on the order they came in.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "Comparison",
    "MeanEstimate",
    "Proportion",
    "RunningMean",
    "compare",
    "estimate_mean",
    "estimate_proportion",
    "paired_comparison",
    "t_cdf",
    "t_quantile",
]


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(ln_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Cumulative distribution function of Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """Inverse of :func:`t_cdf` (bisection; accurate to about 1e-10)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must lie strictly between 0 and 1")
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True, slots=True)
class MeanEstimate:
    """A sample mean with its standard error and a two-sided confidence interval."""

    n: int
    mean: float
    stdev: float
    sem: float
    low: float
    high: float
    confidence: float = 0.95

    def to_dict(self) -> dict[str, float | int]:
        return {
            "n": self.n,
            "mean": self.mean,
            "stdev": self.stdev,
            "sem": self.sem,
            "ci_low": self.low,
            "ci_high": self.high,
        }


class RunningMean:
    """A mean with its interval from values added one at a time; no value is kept.

    ``scale`` divides every value: ``RunningMean(scale=6)`` fed whole
    numbers estimates the mean of sixths exactly, without a float per value.

    >>> m = RunningMean()
    >>> for x in (1, 2, 3, 4, 5):
    ...     m.add(x)
    >>> m.n, m.estimate().mean
    (5, 3.0)
    """

    __slots__ = ("n", "scale", "squares", "total")

    def __init__(self, scale: int = 1) -> None:
        if scale < 1:
            raise ValueError("the scale is a whole number of at least 1")
        self.n = 0
        self.scale = scale
        self.total: int | Fraction = 0
        self.squares: int | Fraction = 0

    def add(self, value: float) -> None:
        """Count one value (finite; a float is taken exactly as it is stored)."""
        exact: int | Fraction = value if type(value) is int else Fraction(value)
        self.n += 1
        self.total += exact
        self.squares += exact * exact

    def extend(self, values: Iterable[float]) -> None:
        for value in values:
            self.add(value)

    def estimate(self, confidence: float = 0.95) -> MeanEstimate:
        """The mean with a Student-t confidence interval.

        With a single value the interval is infinite: nothing is known about
        the spread.
        """
        n = self.n
        if n == 0:
            raise ValueError("no values")
        mean = float(Fraction(self.total, n * self.scale))
        if n < 2:
            return MeanEstimate(n, mean, math.nan, math.inf, -math.inf, math.inf, confidence)
        # the sum of squared deviations, exact: Σx² − (Σx)²/n
        deviations = Fraction(self.squares) - Fraction(self.total) ** 2 / n
        stdev = math.sqrt(deviations / ((n - 1) * self.scale**2))
        sem = stdev / math.sqrt(n)
        half = t_quantile(0.5 + confidence / 2.0, n - 1) * sem
        return MeanEstimate(n, mean, stdev, sem, mean - half, mean + half, confidence)


def estimate_mean(values: Iterable[float], confidence: float = 0.95) -> MeanEstimate:
    """Mean of ``values`` with a Student-t confidence interval (:class:`RunningMean`)."""
    running = RunningMean()
    running.extend(values)
    return running.estimate(confidence)


@dataclass(frozen=True, slots=True)
class Proportion:
    """A share of successes with a Wilson score interval."""

    n: float
    successes: float
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"rate": self.rate, "ci_low": self.low, "ci_high": self.high}


def estimate_proportion(successes: float, n: float, confidence: float = 0.95) -> Proportion:
    """Share ``successes / n`` with a Wilson score interval.

    ``successes`` may be fractional (a shared round win counts 1/k for each
    of the k winners); the interval then treats it as a count, which is
    slightly conservative.
    """
    if n <= 0:
        return Proportion(0, 0, math.nan, math.nan, math.nan)
    p = successes / n
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    # rounding can put an end a hair past p when p is 0 or 1: keep p inside
    low = min(max(0.0, centre - half), p)
    high = max(min(1.0, centre + half), p)
    return Proportion(n, successes, p, low, high)


@dataclass(frozen=True, slots=True)
class Comparison:
    """Paired comparison of two seats over the same rounds: mean of a − b."""

    difference: MeanEstimate
    t: float
    p_value: float

    @property
    def significant(self) -> bool:
        """Significant at the 5 % level (two-sided)."""
        return self.p_value < 0.05

    def to_dict(self) -> dict[str, float | int | bool]:
        return {
            **self.difference.to_dict(),
            "t": self.t,
            "p_value": self.p_value,
            "significant": self.significant,
        }


def paired_comparison(a: Sequence[float], b: Sequence[float]) -> Comparison:
    """Paired two-sided t-test of ``mean(a - b) == 0``.

    Pairing by round removes the luck of the deal that both seats share
    (a round where the middle runs freely is good for everyone), so the test
    is much sharper than comparing two independent means.
    """
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return compare(estimate_mean([x - y for x, y in zip(a, b, strict=True)]))


def compare(difference: MeanEstimate) -> Comparison:
    """The paired t-test of a mean of differences (from :class:`RunningMean` or a list)."""
    if difference.n < 2:
        return Comparison(difference, math.nan, math.nan)
    if difference.sem == 0:
        t = 0.0 if difference.mean == 0 else math.copysign(math.inf, difference.mean)
    else:
        t = difference.mean / difference.sem
    p = 2.0 * (1.0 - t_cdf(abs(t), difference.n - 1))
    return Comparison(difference, t, min(1.0, max(0.0, p)))
