"""The manual clock tests run on, and rule errors mapped to reason codes."""

from __future__ import annotations

from ligretto.live.clock import ManualClock
from ligretto.live.protocol import Reason
from ligretto.live.reasons import refusal_for
from ligretto.rules.errors import (
    IllegalActionError,
    MalformedActionError,
    PileTakenError,
    RoundOverError,
)


def test_a_manual_clock_fires_due_timers_in_order_only_when_advanced() -> None:
    clock = ManualClock(start=100.0)
    fired: list[str] = []
    clock.call_later(0.2, lambda: fired.append("late"))

    def chain() -> None:
        clock.call_later(0.05, lambda: fired.append("chained"))

    clock.call_later(0.1, chain)
    clock.call_later(0.1, lambda: fired.append("early")).cancel()
    assert fired == [] and clock.pending == 2
    clock.advance(0.15)
    assert fired == ["chained"] and clock.now() == clock.monotonic() == 100.15
    clock.advance(1.0)
    assert fired == ["chained", "late"] and clock.pending == 0


def test_rule_errors_map_to_reasons_along_their_class_hierarchy() -> None:
    taken = refusal_for(PileTakenError("p0 has moved on"))
    assert taken is not None and taken.code is Reason.PILE_TAKEN
    assert taken.reason(PileTakenError("p0 has moved on")) == "p0 has moved on"
    over = refusal_for(RoundOverError("nothing more (R4)"))
    assert over is not None and over.code is Reason.ROUND_OVER
    assert over.reason(RoundOverError("nothing more (R4)")) == "the round is over"
    for error in (IllegalActionError(), MalformedActionError("x"), ValueError()):
        refusal = refusal_for(error)
        assert refusal is not None and refusal.code is Reason.ILLEGAL
    assert refusal_for(RuntimeError("a bug")) is None
