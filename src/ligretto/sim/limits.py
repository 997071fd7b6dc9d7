"""The stall guard and the safety limits of a simulated round.

A table of bots agrees that a round is stuck when no card has gone to the
middle for a long time (R4, ``Round.settle_stuck``); a round that passes
the safety limits anyway ends as ``stalled``. The simulator's engine
(``ligretto.sim.engine``) reads them once a round.
"""

from __future__ import annotations

from dataclasses import dataclass

from ligretto.rules.values import FrozenValue

__all__ = ["DEFAULT_MAX_ACTIONS", "DEFAULT_STUCK_AFTER", "RoundLimits"]

#: Far more than any real round needs (about 50–300 actions with four
#: players); a round that gets here is reported as ``stalled``.
DEFAULT_MAX_ACTIONS = 20_000

#: Virtual seconds without a card to the middle after which a table of bots
#: agrees that it is stuck (R4, ``Round.settle_stuck``). Long enough not to
#: cut short rounds that would end by themselves (a round lasts 50–150 s).
#: Without row storage, where every round ends by itself, 3,000 mixed-level
#: rounds of 2–4 seats: at 60 s the guard cut 1 in 160 ``stack-first``
#: rounds, at 120 s none of those but 1 in 120 ``random`` rounds (the
#: slowest players here), at 300 s 1 in 3,000 ``random`` rounds.
DEFAULT_STUCK_AFTER = 300.0


@dataclass(frozen=True, slots=True)
class RoundLimits(FrozenValue):
    """The stall guard and the safety limits of a simulated round.

    ``stuck_after``: virtual seconds without a card to the middle after
    which the table settles the round as stuck (R4, ``Round.settle_stuck``).
    ``max_actions``/``max_seconds``: safety limits; a round exceeding one of
    them ends as ``stalled`` (with the stall guard that does not happen in
    play, only with limits set low on purpose).
    """

    max_actions: int = DEFAULT_MAX_ACTIONS
    max_seconds: float = 4 * 3600.0
    stuck_after: float = DEFAULT_STUCK_AFTER

    def __post_init__(self) -> None:
        if not self.stuck_after > 0:
            raise ValueError(f"stuck_after must be positive seconds, not {self.stuck_after!r}")
