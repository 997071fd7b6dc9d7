"""Counting on the hot path in plain Python, published to the series in one step."""

from __future__ import annotations

import gc

import pytest
from prometheus_client import CollectorRegistry, Histogram

from helpers.metrics import value
from ligretto.metrics import gc_pauses
from ligretto.metrics.local import LocalHistogram
from ligretto.metrics.moves import MOVES


def test_a_local_histogram_reaches_its_series_only_when_published() -> None:
    registry = CollectorRegistry()
    series = Histogram("t_seconds", "t", buckets=(0.001, 0.01), registry=registry)
    local = LocalHistogram(series)
    for seconds in (0.0005, 0.001, 0.002, 0.5):
        local.observe(seconds)

    def bucket(le: str) -> float | None:
        return registry.get_sample_value("t_seconds_bucket", {"le": le})

    assert bucket("+Inf") == 0.0  # nothing yet: the series is written at publish
    local.publish()
    # ``le`` counts the values <= its bound, cumulatively.
    assert (bucket("0.001"), bucket("0.01"), bucket("+Inf")) == (2.0, 3.0, 4.0)
    assert registry.get_sample_value("t_seconds_sum") == pytest.approx(0.5035)
    local.publish()  # nothing new: nothing added twice
    assert bucket("+Inf") == 4.0
    local.observe(0.02)
    local.publish()
    assert (bucket("0.01"), bucket("+Inf")) == (3.0, 5.0)
    assert local.count == 5


def test_moves_are_counted_as_integers_and_published_as_counters_and_a_histogram() -> None:
    # What earlier tests' tables in this process counted and nobody published
    # yet goes out first: the baseline is then all that was counted.
    MOVES.publish()
    received = value("ligretto_moves_received_total")
    answered = value("ligretto_moves_answered_total")
    within = value("ligretto_move_answer_seconds_bucket", le="0.0025")
    below = value("ligretto_move_answer_seconds_bucket", le="0.001")
    MOVES.received += 1
    MOVES.answer(0.002)
    assert value("ligretto_moves_received_total") == received  # not before publishing
    MOVES.publish()
    assert value("ligretto_moves_received_total") == received + 1
    assert value("ligretto_moves_answered_total") == answered + 1
    assert value("ligretto_move_answer_seconds_bucket", le="0.0025") == within + 1
    assert value("ligretto_move_answer_seconds_bucket", le="0.001") == below


def test_a_full_collection_is_timed_as_a_pause_of_generation_2() -> None:
    gc_pauses.watch()
    gc_pauses.watch()  # once, however often
    gc_pauses.publish()
    before = value("ligretto_gc_pause_seconds_count", generation="2")
    young = value("ligretto_gc_pause_seconds_count", generation="0")
    gc.collect()
    gc_pauses.publish()
    assert value("ligretto_gc_pause_seconds_count", generation="2") == before + 1
    assert value("ligretto_gc_pause_seconds_sum", generation="2") > 0
    assert value("ligretto_gc_pause_seconds_count", generation="0") >= young
