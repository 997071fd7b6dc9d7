"""A seed's simulated rounds stay what they were: speed work must not change results.

``data/records.json`` holds rounds simulated before the simulator's event
queue, the stack-first choice and the core's constants were reworked for
speed (three tables: stack-first bots, mixed strategies with manual refill,
six seats with row storage, reshuffle and a stall guard that fires). A
change that alters what bots do on purpose regenerates the file and says so
in its commit; any other difference is a bug. Both builds are checked (the
pure one by ``make test-pure``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ligretto.bots import make_bot
from ligretto.rules import RuleOptions
from ligretto.sim.engine import RoundLimits, simulate_round
from ligretto.sim.seeds import derive_seed

RECORDS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "records.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", sorted(RECORDS))
def test_a_seed_gives_the_rounds_it_gave(case: str) -> None:
    table = RECORDS[case]
    bots = [make_bot(name) for name in table["bots"]]
    options = RuleOptions(**table["options"])
    stuck_after = table["stuck_after"]
    limits = RoundLimits(stuck_after=stuck_after) if stuck_after else None
    for index, kept in enumerate(table["rounds"]):
        record = simulate_round(bots, derive_seed(7, index), options, index=index, limits=limits)
        now = {
            "points": list(record.points),
            "actions": list(record.actions),
            "races_lost": list(record.races_lost),
            "seconds": round(record.seconds, 6),
            "stuck": record.stuck,
        }
        assert now == kept, f"{case}, round {index}"


def test_the_kept_rounds_cover_races_and_the_stall_guard() -> None:
    rounds = [r for table in RECORDS.values() for r in table["rounds"]]
    assert sum(sum(r["races_lost"]) for r in rounds) > 50
    assert sum(r["stuck"] for r in rounds) > 0
    assert len({tuple(r["points"]) for r in rounds}) == len(rounds)
