"""The positions of a kept round, as the engine computes them for the replay page.

Every position is what the replay page showed when it applied the
document's actions itself (``helpers.kept_rounds.old_page_tables``): the
kept rounds replay unchanged, whatever the rule options (R3 refill, R3
recycling with or without a shuffle, R4 deadlock, R6 storage).
"""

from __future__ import annotations

import json

import pytest

from helpers.kept_rounds import kept_round, old_page_tables, served_tables
from ligretto.rules.options import RuleOptions
from ligretto.rules.positions import POSITIONS_FORMAT, round_positions
from ligretto.rules.replay_file import read_replay

CASES = [
    (21, ["stack-first:hard", "greedy:medium", "random:easy"], RuleOptions()),
    (5, ["greedy:hard", "greedy:hard"], RuleOptions(recycle_shuffle=False)),
    (8, ["random:easy"] * 4, RuleOptions(row_refill="manual", deadlock="reshuffle")),
    (13, ["greedy:medium", "random:medium", "stack-first:easy"], RuleOptions(row_storage=True)),
]


@pytest.mark.parametrize(("seed", "specs", "options"), CASES)
def test_every_position_is_what_the_page_showed_before(
    seed: int, specs: list[str], options: RuleOptions
) -> None:
    doc = kept_round(seed, specs, options)
    served = round_positions(read_replay(doc))
    assert served["format"] == POSITIONS_FORMAT
    assert len(served["steps"]) == len(doc["actions"])
    assert served_tables(served) == old_page_tables(doc)


def test_a_step_tells_its_action_and_only_what_it_changed() -> None:
    doc = kept_round(21, ["stack-first:hard", "greedy:medium", "random:easy"])
    served = round_positions(read_replay(doc))
    for entry, step in zip(doc["actions"], served["steps"], strict=True):
        words = entry["action"].split(" ")
        assert step["kind"] == words[0]
        if words[0] in ("play", "store"):
            assert step["card"] == words[1]
        if words[0] == "play":
            assert "pile" in step
        # One seat acts; only an R4 settling may touch every seat.
        if entry["seat"] is not None:
            assert [s for s, _ in step.get("seats", [])] in ([], [entry["seat"]])
    # The whole answer is smaller than the positions written out in full.
    whole = json.dumps(served_tables(served), separators=(",", ":"))
    assert len(json.dumps(served, separators=(",", ":"))) * 4 < len(whole)
