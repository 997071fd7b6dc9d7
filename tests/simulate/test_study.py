"""A lab study: the command's chunks, its report, and the command line that reproduces it."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from typer.testing import CliRunner

from ligretto.cli import app
from ligretto.rules import RuleOptions
from ligretto.sim.house import HouseRules
from ligretto.simulate.budget import ChunkOutcome, play_chunk
from ligretto.simulate.study import QUESTIONS, StudySpec
from ligretto.simulate.study_run import StudyRun, run_study

runner = CliRunner()

#: A budget no study of these tests reaches.
AMPLE = 10**12


def _run(spec: StudySpec) -> dict[str, Any]:
    result = run_study(spec, AMPLE)
    assert not result["budget"]["stopped"]
    return result


def _command_json(command: str) -> dict[str, Any]:
    args = shlex.split(command)
    assert args[:2] == ["ligretto", "simulate"]
    result = runner.invoke(app, [*args[1:], "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    del data["config"]["workers"]
    return data


def test_the_command_of_a_rounds_study_gives_its_numbers() -> None:
    spec = StudySpec(("stack-first:medium", "greedy:hard", "random:easy"), rounds=150, seed=11)
    result = _run(spec)
    assert result["command"] == (
        "ligretto simulate --bots stack-first:medium,greedy:hard,random:easy --rounds 150 --seed 11"
    )
    assert _command_json(result["command"]) == result["report"]


def test_the_command_of_a_games_study_with_rule_options_gives_its_numbers() -> None:
    options = RuleOptions(row_refill="manual", recycle_shuffle=False, deadlock="reshuffle")
    spec = StudySpec(
        ("mine:hard", "stack-first:hard"), games=5, seed=3, options=options, agreed_rounds=2
    )
    result = _run(spec)
    assert "--row-refill manual --no-recycle-shuffle --deadlock reshuffle" in result["command"]
    assert "--games 5 --agreed-rounds 2" in result["command"]
    assert _command_json(result["command"]) == result["report"]
    assert result["report"]["games"]["games"] == 5


def test_stack_counts_add_up_to_the_rounds_and_their_mean() -> None:
    spec = StudySpec(QUESTIONS["versus"].bots, rounds=120, seed=2)
    result = _run(spec)
    for seat, counts in zip(result["report"]["seats"], result["stack_left"], strict=True):
        assert sum(counts) == 120
        mean = sum(k * n for k, n in enumerate(counts)) / 120
        assert mean == pytest.approx(seat["mean_stack_left"])


def test_cost_counts_rounds_times_seats_and_games_as_rounds() -> None:
    assert StudySpec(("greedy:easy",) * 4, rounds=1000).cost() == 4000
    assert StudySpec(("greedy:easy",) * 2, games=10).cost() == 10 * 10 * 2
    assert StudySpec(("greedy:easy",) * 2, games=10, agreed_rounds=3).cost() == 60


def test_a_spec_survives_its_stored_form() -> None:
    spec = StudySpec(
        QUESTIONS["r7"].bots, games=3, seed=9, target=50, options=RuleOptions(deck="cards")
    )
    assert StudySpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec
    assert "--deck cards" in spec.command() and "--target 50" in spec.command()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bots": ("greedy:easy",), "rounds": 10}, "players"),
        ({"bots": ("nobody:easy", "greedy:easy"), "rounds": 10}, "unknown strategy"),
        ({"bots": ("greedy:easy",) * 2}, "rounds or a number of games"),
        ({"bots": ("greedy:easy",) * 2, "rounds": 5, "games": 5}, "rounds or a number of games"),
    ],
)
def test_a_study_that_cannot_be_run_is_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        StudySpec(**fields)


ENDLESS = StudySpec(("random:easy",) * 16, games=10, seed=1, options=RuleOptions(deck="cards"))
"""Games to 99 that never end: sixteen random bots score below zero a round."""


@pytest.mark.many_rounds
def test_a_study_stops_at_its_budget_and_its_command_gives_its_numbers() -> None:
    result = run_study(ENDLESS, 900_000)
    budget = result["budget"]
    assert budget["stopped"] and budget["asked"] == 10
    assert 0 < budget["played"] < 10
    assert budget["used"] <= 900_000 < budget["simulated"]
    assert result["report"]["games"]["games"] == budget["played"]
    assert f"--games {budget['played']} " in result["command"]
    assert _command_json(result["command"]) == result["report"]


def test_a_study_whose_first_game_passes_the_budget_has_no_numbers() -> None:
    result = run_study(ENDLESS, 50_000)
    assert result["budget"]["stopped"] and result["budget"]["played"] == 0
    assert result["report"] is None
    assert result["command"] == ENDLESS.command()


def _interleaved(spec: StudySpec, budget: int, workers: int, aim: int) -> dict[str, Any]:
    """The study as a pool would run it: up to *workers* chunks sent before the first comes back."""
    run = StudyRun(spec, budget)
    run.aim = aim
    in_flight: list[ChunkOutcome] = []
    while not run.finished:
        while len(in_flight) < workers and (chunk := run.next_chunk()) is not None:
            in_flight.append(play_chunk(chunk))
        run.take(in_flight.pop(0))
    return run.result()


@pytest.mark.many_rounds
@pytest.mark.parametrize("budget", [30_000, 55_000, 10**9])
def test_what_a_study_counts_does_not_depend_on_how_its_chunks_were_sent(budget: int) -> None:
    spec = StudySpec(QUESTIONS["versus"].bots, rounds=400, seed=4)
    alone = run_study(spec, budget)
    for workers, aim in ((2, 3_000), (4, 1_000), (3, 20_000)):
        other = _interleaved(spec, budget, workers, aim)
        assert other["budget"]["stopped"] == alone["budget"]["stopped"]
        assert other["budget"]["played"] == alone["budget"]["played"]
        assert other["report"] == alone["report"]
        assert other["command"] == alone["command"]
    assert alone["budget"]["stopped"] == (budget < 10**9)


def test_a_study_with_every_seat_option_and_house_rule_gives_its_commands_numbers() -> None:
    spec = StudySpec(
        ("stack-first:medium",) * 4,
        games=4,
        seed=6,
        speeds=(1.5, 1.0, 1.0, 1.0),
        overlook=(0.0, 0.1, 0.0, 0.0),
        shuffles=("riffle:1", "uniform", "none", "uniform"),
        house=HouseRules(sets=2, stack_penalty=1),
    )
    result = _run(spec)
    assert (
        "--speed 1.5,1,1,1 --overlook 0,0.1,0,0 --shuffle riffle:1,uniform,none,uniform "
        "--sets 2 --stack-penalty 1" in result["command"]
    )
    assert _command_json(result["command"]) == result["report"]
    assert StudySpec.from_dict(spec.to_dict()) == spec


def test_a_study_kept_before_the_seat_options_still_reads() -> None:
    kept = {
        "question": "versus",
        "bots": ["stack-first:medium", "greedy:medium"],
        "rounds": 10,
        "games": 0,
        "seed": 2,
        "target": None,
        "agreed_rounds": None,
        "options": RuleOptions().to_dict(),
    }
    spec = StudySpec.from_dict(kept)
    assert spec.speeds == () and spec.shuffles == () and spec.house == HouseRules()
    assert spec.command().endswith("--rounds 10 --seed 2")


def test_a_shuffle_between_rounds_is_refused_for_single_rounds() -> None:
    with pytest.raises(ValueError, match="needs whole games"):
        StudySpec(("greedy:easy",) * 2, rounds=10, shuffles=("none", "uniform"))
