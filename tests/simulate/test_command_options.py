"""``ligretto simulate``'s study options: per seat speed, overlooking and shuffle,
house rules, per-round records; each refused with its reason when it cannot be."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ligretto.cli import app

runner = CliRunner()
FOUR = "stack-first:medium,stack-first:medium,stack-first:medium,stack-first:medium"


def _run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_per_seat_options_repeat_round_the_table_and_name_the_seats() -> None:
    data = _run_json("--bots", FOUR, "--speed", "1.5,1", "--overlook", "0,0.2", "--rounds", "30")
    assert data["config"]["speeds"] == [1.5, 1.0, 1.5, 1.0]
    assert data["config"]["overlook"] == [0.0, 0.2, 0.0, 0.2]
    seats = data["seats"]
    assert seats[0]["bot"] == "stack-first:medium speed=1.5"
    assert seats[1]["bot"] == "stack-first:medium overlook=0.2"
    assert (seats[1]["strategy"], seats[1]["level"], seats[1]["overlook"]) == (
        "stack-first",
        "medium",
        0.2,
    )
    (comparison,) = data["comparisons"]  # two different seats, each twice
    assert comparison["a"] == "stack-first:medium speed=1.5"


def test_house_rules_and_a_shuffle_between_the_rounds_of_games() -> None:
    data = _run_json(
        "--bots",
        FOUR,
        "--games",
        "3",
        "--shuffle",
        "riffle:1,uniform",
        "--sets",
        "2",
        "--stack-penalty",
        "1",
    )
    assert data["config"]["house"] == {"sets": 2, "stack_penalty": 1}
    assert data["config"]["shuffles"] == ["riffle:1", "uniform"] * 2
    assert data["seats"][0]["bot"] == "stack-first:medium shuffle=riffle:1"
    assert data["seats"][0]["shuffle"] == "riffle:1"
    assert "r5_round_win_rate" in data["seats"][0]
    assert data["games"]["games"] == 3


def test_records_are_a_json_line_a_round_with_the_deal_and_agree_with_the_report(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rounds.jsonl"
    data = _run_json("--bots", FOUR, "--rounds", "120", "--seed", "9", "--records", str(path))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 120 == data["rounds"]
    assert [line["round"] for line in lines] == list(range(120))
    assert all(line["game"] is None for line in lines)
    first = lines[0]
    assert set(first) >= {"points", "middle", "stack", "row_sums", "caller", "reshuffles"}
    assert len(first["row_sums"]) == 4 and all(3 <= s <= 30 for s in first["row_sums"])
    for seat in range(4):
        mean = sum(line["points"][seat] for line in lines) / 120
        assert mean == pytest.approx(data["seats"][seat]["points_per_round"]["mean"])
    stops = sum(line["caller"] is not None for line in lines) / 120
    assert stops == pytest.approx(data["stop_rate"]["rate"])


def test_records_of_games_name_their_game_and_may_be_compressed(tmp_path: Path) -> None:
    path = tmp_path / "rounds.jsonl.gz"
    data = _run_json("--bots", FOUR, "--games", "4", "--agreed-rounds", "3", "--records", str(path))
    with gzip.open(path, "rt") as file:
        lines = [json.loads(line) for line in file]
    assert len(lines) == data["rounds"] == 12
    assert [(line["game"], line["round"]) for line in lines] == [
        (g, r) for g in range(4) for r in range(3)
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--speed", "fast"], "'fast' is not a number"),
        (["--speed", "0"], "a speed factor is above 0"),
        (["--speed", "1,1,1,1,1"], "--speed: 5 values for 4 seats"),
        (["--overlook", "1.5"], "overlooking is 0 to 1"),
        (["--shuffle", "shake"], "unknown shuffle 'shake'"),
        (["--shuffle", "riffle:2"], "needs whole games"),
        (["--sets", "4"], "--sets"),
        (["--stack-penalty", "9"], "--stack-penalty"),
    ],
)
def test_options_that_cannot_be_are_refused_with_their_reason(
    args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["simulate", "--bots", FOUR, "--rounds", "5", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split())


def test_an_unwritable_records_file_is_refused_and_nothing_is_run(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "rounds.jsonl"
    result = runner.invoke(
        app, ["simulate", "--bots", FOUR, "--rounds", "5", "--records", str(path)]
    )
    assert result.exit_code == 2
    assert "cannot write" in " ".join(result.output.replace("│", " ").split())
