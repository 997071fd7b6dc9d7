"""``ligretto simulate``: the result table and the ``--json`` schema."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from ligretto.bots import strategy_names
from ligretto.cli import app

BOTS = "stack-first:hard,greedy:medium,random:easy,mine:hard"
runner = CliRunner()


def _run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _is_interval(value: dict[str, Any]) -> bool:
    centre = value["mean" if "mean" in value else "rate"]
    return bool(value["ci_low"] <= centre <= value["ci_high"])


def test_json_schema_of_a_rounds_run() -> None:
    data = _run_json("--players", "4", "--bots", BOTS, "--rounds", "40", "--seed", "1")
    assert set(data) == {
        "config",
        "rounds",
        "stop_rate",
        "deadlock_rate",
        "stuck",
        "stalled",
        "reshuffles_per_round",
        "lowest_row",
        "actions_per_round",
        "seconds_per_round",
        "seats",
        "comparisons",
    }
    assert data["config"] == {
        "players": 4,
        "bots": BOTS.split(","),
        "seed": 1,
        "workers": 1,
        "options": {
            "deck": "ligretto",
            "row_refill": "auto",
            "recycle_shuffle": True,
            "deadlock": "end",
            "row_storage": False,
        },
        "speeds": [1.0] * 4,
        "overlook": [0.0] * 4,
        "shuffles": ["uniform"] * 4,
        "house": {"sets": 1, "stack_penalty": 2},
    }
    assert data["rounds"] == 40 and data["stalled"] == 0 and data["stuck"] == 0
    assert data["reshuffles_per_round"]["mean"] == 0  # R4 "end": no reshuffle ever
    lowest = data["lowest_row"]
    assert lowest["fair_share"] == 0.25 and 0 < lowest["rounds"] <= 40
    assert _is_interval(lowest["win_rate"]) and _is_interval(lowest["points_edge"])
    assert _is_interval(data["stop_rate"]) and _is_interval(data["deadlock_rate"])
    assert data["seconds_per_round"]["mean"] > 10
    seats = data["seats"]
    assert [s["bot"] for s in seats] == BOTS.split(",")
    for seat in seats:
        assert set(seat) == {
            "seat",
            "bot",
            "strategy",
            "level",
            "speed",
            "overlook",
            "shuffle",
            "round_win_rate",
            "points_per_round",
            "stop_rate",
            "mean_stack_left",
            "mean_middle",
            "races_won",
            "races_lost",
            "refused",
            "deadlock_rate",
            "round_actions",
            "round_seconds",
            "own_actions_per_round",
        }
        assert _is_interval(seat["points_per_round"]) and _is_interval(seat["round_win_rate"])
        assert set(seat["points_per_round"]) == {"n", "mean", "stdev", "sem", "ci_low", "ci_high"}
        assert seat["points_per_round"]["n"] == 40 and seat["refused"] == 0
    assert abs(sum(s["round_win_rate"]["rate"] for s in seats) - 1) < 1e-9
    assert sum(s["stop_rate"]["rate"] for s in seats) == data["stop_rate"]["rate"]
    # Issue 5 lists deadlock rate and round length per seat too: every seat
    # played the same rounds, so they equal the run's, next to its own actions.
    for seat in seats:
        assert seat["deadlock_rate"] == data["deadlock_rate"]
        assert seat["round_actions"] == data["actions_per_round"]
        assert seat["round_seconds"] == data["seconds_per_round"]
        assert _is_interval(seat["own_actions_per_round"])
    own = sum(s["own_actions_per_round"]["mean"] for s in seats)
    assert abs(own - data["actions_per_round"]["mean"]) < 1e-9
    assert len(data["comparisons"]) == 6
    comparison = data["comparisons"][0]
    assert (comparison["a"], comparison["b"]) == ("stack-first:hard", "greedy:medium")
    assert {"mean", "ci_low", "ci_high", "t", "p_value", "significant"} <= set(comparison)


def test_json_is_the_same_with_two_workers() -> None:
    args = ("--bots", "stack-first:hard,mine:expert,greedy:easy", "--rounds", "250", "--seed", "4")
    one = _run_json(*args)
    two = _run_json(*args, "--workers", "2")
    assert two.pop("config")["workers"] == 2
    one.pop("config")
    assert one == two


def test_whole_games_report_game_wins() -> None:
    data = _run_json("--bots", "stack-first:hard,mine:hard", "--games", "4", "--agreed-rounds", "3")
    assert data["games"]["games"] == 4 and data["games"]["mode"] == "rounds"
    assert data["rounds"] == 12
    assert abs(sum(s["game_win_rate"]["rate"] for s in data["seats"]) - 1) < 1e-9


def test_table_output_and_errors() -> None:
    result = runner.invoke(app, ["simulate", "--bots", "stack-first:hard,greedy", "--rounds", "20"])
    assert result.exit_code == 0, result.output
    assert "greedy:medium" in result.output and "paired comparison" in result.output
    bad = runner.invoke(app, ["simulate", "--bots", "genius:hard", "--rounds", "5"])
    assert bad.exit_code != 0 and "unknown strategy 'genius'" in bad.output
    repeated = _run_json("--players", "5", "--bots", "stack-first:hard,mine", "--rounds", "3")
    assert repeated["config"]["bots"] == ["stack-first:hard", "mine:medium"] * 2 + [
        "stack-first:hard"
    ]
    too_many = runner.invoke(app, ["simulate", "--players", "2", "--bots", BOTS, "--rounds", "5"])
    assert too_many.exit_code != 0 and "4 bots for 2 players" in too_many.output


def test_help_lists_every_registered_strategy() -> None:
    result = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    for name in strategy_names():
        assert name in text
    assert "watchful=mine" in text and "tuned;" in text
