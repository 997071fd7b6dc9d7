"""``ligretto replay``: a kept round printed, and bots playing it on from an action."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ligretto.bots import make_bot
from ligretto.cli import app
from ligretto.rules.errors import MalformedActionError
from ligretto.rules.replay_file import read_replay, replay_round, round_record, shuffled_hands
from ligretto.rules.round import Round
from ligretto.sim.engine import simulate_round

SPECS = ["stack-first:hard", "greedy:medium", "random:easy"]


def kept_round(seed: int = 21) -> dict[str, Any]:
    """A bot round as online play keeps it (times made up, 250 ms apart)."""
    bots = [make_bot(spec) for spec in SPECS]
    rnd = Round.deal(len(bots), seed)
    simulate_round(bots, seed, start=rnd)
    seats = [
        {"name": f"Bot {i}", "bot": {"strategy": b.spec.strategy, "level": b.spec.level.value}}
        for i, b in enumerate(bots)
    ]
    times = [250 * i for i in range(len(rnd.log))]
    return round_record(rnd, seats=seats, times=times, table="ABCDEF", round=3)


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(kept_round()), encoding="utf-8")
    return path


def test_a_replay_document_rebuilds_the_round_exactly() -> None:
    data = kept_round()
    rnd = replay_round(data)
    assert rnd.is_over and rnd.result().to_dict() == data["result"]
    assert read_replay(data).round(5).log == rnd.log[:5]
    # Every shuffled hand is told: the hand right after the recycle.
    log = read_replay(data)
    recycles = [i for i, (_, text) in enumerate(log.log) if text == "recycle"]
    shuffles = shuffled_hands(log)
    assert recycles and [s["after"] for s in shuffles] == recycles
    first = shuffles[0]
    assert first["hand"] == log.round(first["after"] + 1).snapshot()["seats"][first["seat"]]["hand"]
    with pytest.raises(MalformedActionError, match="action 2"):
        read_replay(
            {**data, "actions": [*data["actions"][:2], {"t_ms": 0, "seat": 0, "action": "fly"}]}
        )
    with pytest.raises(MalformedActionError, match="format"):
        read_replay({**data, "format": "ligretto.round/1"})


def test_replay_prints_seats_deal_every_action_with_its_time_and_the_result(
    replay_file: Path,
) -> None:
    result = CliRunner().invoke(app, ["replay", str(replay_file)])
    assert result.exit_code == 0, result.output
    out = result.output
    data = json.loads(replay_file.read_text())
    assert "table ABCDEF, round 3: 3 players" in out
    assert "Bot 0 (stack-first:hard)" in out
    assert out.count("stack ") >= 3 and "hand " in out
    last = len(data["actions"]) - 1
    t_last = f"{250 * last / 1000:8.3f} s"
    assert f"{last:4d}  {t_last}" in out and data["actions"][-1]["action"] in out
    assert "Ligretto Stop" in out and "ended: stop" in out


def test_replay_from_an_action_lets_bots_play_to_an_end(replay_file: Path) -> None:
    result = CliRunner().invoke(
        app, ["replay", str(replay_file), "--from", "10", "--bots", "greedy:hard"]
    )
    assert result.exit_code == 0, result.output
    after = result.output.split("from action 10, the bots ")[1]
    assert after.startswith("greedy:hard, greedy:hard, greedy:hard play on:")
    assert "  10  " in after and "ended: " in after.split("outcome after")[1]
    assert "ended: not over" not in after


def test_replay_refuses_a_file_that_is_no_replay_and_an_action_past_the_end(
    tmp_path: Path, replay_file: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(bad)])
    assert result.exit_code != 0 and "not a replay" in result.output
    result = CliRunner().invoke(app, ["replay", str(replay_file), "--from", "100000"])
    assert result.exit_code != 0 and "--from takes 0 to" in result.output


def test_replay_says_a_race_at_the_same_millisecond_as_a_tie(tmp_path: Path) -> None:
    data = kept_round()
    action = data["actions"][3]["action"]
    race = {"t_ms": 750, "seat": 1, "action": action, "refused_by_seat": 0}
    data["races"] = [{**race, "margin_ms": 7}, {**race, "margin_ms": 0}]
    path = tmp_path / "races.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.split("races lost (R3):\n")[1].splitlines()
    assert lines[0].endswith(f"seat 1 {action}: seat 0 was 7 ms faster"), lines
    assert lines[1].endswith(f"{action}: seat 0 played in the same millisecond and came first")
    assert "0 ms faster" not in result.output
