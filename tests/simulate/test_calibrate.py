"""``ligretto calibrate``: the bot levels rated with the groups' OpenSkill rating."""

from __future__ import annotations

from typer.testing import CliRunner

from ligretto.cli import app
from ligretto.simulate.calibrate import calibrate, level_ratings, players

runner = CliRunner()


def test_a_small_calibration_rates_every_bot_and_is_reproducible() -> None:
    data = calibrate(games=3, seed=4)
    assert set(data["ratings"]) == set(players())
    # four seats per game (T1), every seat rated once per game it played
    assert sum(r["games"] for r in data["ratings"].values()) == 3 * 4
    assert calibrate(games=3, seed=4) == data
    assert len(level_ratings(data)) == 4


def test_the_command_prints_each_level_without_writing() -> None:
    result = runner.invoke(app, ["calibrate", "--games", "2", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "medium: stack-first" in result.output
    assert '"command": "ligretto calibrate' in result.output
