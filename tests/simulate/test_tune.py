"""``ligretto tune``: CMA-ES over the ``tuned`` weights, on common random numbers."""

from __future__ import annotations

from typer.testing import CliRunner

from ligretto.bots.tuned import WATCHFUL_LIKE, Weights
from ligretto.cli import app
from ligretto.simulate.tune import evaluate, losing_note, tune

runner = CliRunner()


def test_one_tiny_generation_runs_and_reports_its_gain() -> None:
    seen: list[int] = []
    result = tune(
        generations=1, rounds=3, seed=5, popsize=2, on_generation=lambda g: seen.append(g.number)
    )
    assert seen == [1]
    (generation,) = result.generations
    assert generation.best_gain == result.gain
    assert generation.best_gain >= generation.mean_gain
    assert isinstance(result.weights, Weights)


def test_every_candidate_plays_the_same_rounds() -> None:
    # Common random numbers: the same weights twice give the same differences,
    # so candidates differ only by their decisions.
    first, second = evaluate([WATCHFUL_LIKE.vector()] * 2, rounds=3, seed=9)
    assert first == second and len(first) == 3


def test_the_command_says_what_it_does_then_prints_generations_and_the_weights() -> None:
    result = runner.invoke(
        app, ["tune", "--generations", "1", "--rounds", "2", "--popsize", "2", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    # before the first generation, which takes minutes at the default sizes
    assert result.stderr.startswith(
        "tuning `tuned` against watchful at medium: 1 generation(s) of 2 candidates, "
        "each playing 2 rounds"
    )
    assert "generation   1: best" in result.stdout
    assert "TUNED = Weights(\n" in result.stdout.replace("# ", "")


def test_weights_that_lose_are_printed_with_a_warning_never_as_tuned() -> None:
    # seed 3's two rounds: the best of two candidates loses 1.5 points a round
    result = runner.invoke(
        app, ["tune", "--generations", "1", "--rounds", "2", "--popsize", "2", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "best gain on the tuning rounds: -1.500" in result.stdout
    assert "warning: these weights lose to watchful (-1.500 points per round)" in result.stderr
    # only as comments: pasted into bots/tuned.py, they change nothing
    assert "\nTUNED = " not in "\n" + result.stdout
    assert "# TUNED = Weights(\n#     stack=" in result.stdout
    assert losing_note(0.0, "watchful") is not None  # level is no gain
    assert losing_note(0.01, "watchful") is None


def test_an_unknown_level_is_refused() -> None:
    result = runner.invoke(app, ["tune", "--level", "superhuman", "--rounds", "2"])
    assert result.exit_code != 0
    assert "superhuman" in result.output


def test_fresh_generations_play_new_rounds_and_give_the_search_mean() -> None:
    # Round i of a block is the same deal for every candidate; a block
    # starting later is other deals (so a generation cannot fit its rounds).
    (early,) = evaluate([WATCHFUL_LIKE.vector()], rounds=4, seed=9)
    (later,) = evaluate([WATCHFUL_LIKE.vector()], rounds=4, seed=9, first=2)
    assert later[:2] == early[2:] and len(later) == 4
    seen: list[int] = []
    result = tune(
        generations=2,
        rounds=3,
        seed=5,
        popsize=4,  # two parents: their weighted mean is no candidate
        fresh=True,
        on_generation=lambda g: seen.append(g.number),
    )
    assert seen == [1, 2]
    # The result is CMA-ES's mean, which no candidate it asked for equals.
    assert result.weights.vector() not in {g.best for g in result.generations}
    # Its gain is measured on rounds 6…8 (after the two generations' blocks).
    (held_out,) = evaluate([result.weights.vector()], rounds=3, seed=5, first=6)
    assert result.gain == sum(held_out) / 3


def test_the_command_says_which_gain_it_prints() -> None:
    args = ["tune", "--generations", "1", "--rounds", "2", "--popsize", "2", "--seed", "3"]
    result = runner.invoke(app, [*args, "--fresh"])
    assert result.exit_code == 0, result.output
    assert "the mean's gain on fresh rounds:" in result.output
