"""A lab study is charged what it really costs: it stops at its budget of simulated actions.

Against a real ``ligretto serve`` (the lab's process pool is the process's):
forty games to 99 of sixteen ``random:easy`` bots with playing cards pass
the cap on what is asked (each game counted as 10 rounds), but none of them
ever reaches 99, so each would play 1,000 rounds. With a budget of one
million actions the study stops after a few games and says so; the work
its workers did and the memory of the server and its workers stay bounded.
How long it took is ``benchmarks/lab_budget.py``'s, never a test's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.lab_load import endless_games, family, peak_rss_mb, run_study, serve

pytestmark = pytest.mark.slow

BUDGET = 1_000_000
GAMES = 40
PEAK_MEMORY_MB = 300


def test_a_study_of_endless_games_stops_at_its_budget(tmp_path: Path) -> None:
    with serve(tmp_path / "data", lab_max_actions=str(BUDGET)) as server:
        stored = run_study(server.base, endless_games(GAMES))
        peaks = {pid: peak_rss_mb(pid) for pid in family(server.pid)}

    assert stored["state"] == "done"
    result = stored["result"]
    budget = result["budget"]
    assert budget["stopped"] is True
    assert budget["actions"] == BUDGET
    assert 0 < budget["played"] < GAMES
    assert budget["used"] <= BUDGET
    # everything the workers played, the games thrown away included
    assert BUDGET < budget["simulated"] <= 2 * BUDGET
    assert result["report"]["games"]["games"] == budget["played"]
    assert f"--games {budget['played']} " in result["command"]
    assert "Stopped at the budget" in stored["page"]
    assert f"{budget['played']} of {GAMES} games" in stored["page"]
    assert len(peaks) >= 2, peaks  # the server and at least one worker
    assert max(peaks.values()) < PEAK_MEMORY_MB, peaks
