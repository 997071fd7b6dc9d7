"""The shared rule vectors are the Python domain's answers, and cover every clause."""

from __future__ import annotations

import json

from helpers.tafel_vectors import VECTORS, dumps, generate


def test_the_committed_vectors_are_what_the_domain_says() -> None:
    assert VECTORS.read_text() == dumps(generate()), "python tests/helpers/tafel_vectors.py"


def test_the_vectors_cover_every_rule_clause() -> None:
    vectors = json.loads(VECTORS.read_text())
    seen = {step["error"] for item in vectors for step in item["expect"]}
    for code in (
        None,
        "two_callers",
        "out_of_range",
        "not_a_whole_number",
        "missing_player",
        "implausible",
        "round_pending",
        "round_not_pending",
        "no_such_round",
        "not_last_round",
        "game_finished",
        "all_rounds_played",
        "no_rounds",
        "decided_earlier",
    ):
        assert code in seen, code
    states = [s for item in vectors for s in item["expect"] if s["error"] is None]
    statuses = {s["status"] for s in states}
    assert statuses == {"playing", "tiebreak", "finished"}
    assert any(len(s["winners"]) > 1 for s in states)  # T5: a shared victory
    assert any(len(set(s["ranks"])) < len(s["ranks"]) for s in states)  # tied ranks
    assert sum(len(item["steps"]) for item in vectors) > 200
