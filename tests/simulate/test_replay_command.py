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
from ligretto.rules.options import RuleOptions
from ligretto.rules.replay_file import (
    initial_deal,
    read_replay,
    replay_round,
    round_record,
    shuffled_hands,
)
from ligretto.rules.round import Round
from ligretto.sim.engine import simulate_round

SPECS = ["stack-first:hard", "greedy:medium", "random:easy"]


def kept_round(seed: int = 21) -> dict[str, Any]:
    """A round as online play keeps it, bots named as a table names them when
    they sit down and the last seat a person's (times made up, 250 ms apart)."""
    bots = [make_bot(spec) for spec in SPECS]
    rnd = Round.deal(len(bots), seed)
    simulate_round(bots, seed, start=rnd)
    seats: list[dict[str, Any]] = [
        {
            "name": f"Bot {i + 1} ({b.spec.strategy})",
            "bot": {"strategy": b.spec.strategy, "level": b.spec.level.value},
        }
        for i, b in enumerate(bots)
    ]
    seats[2] = {"name": "Bestemor", "bot": None}
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
    result = CliRunner().invoke(app, ["replay", str(replay_file), "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.output
    data = json.loads(replay_file.read_text())
    assert out.startswith("Replay of round 3, table ABCDEF\nPlayers: 3 · Seed: 21\n")
    # One name per seat, the table's: a bot by its number and style, its level beside it.
    assert "\n  Bot 1 (by the book) · hard\n  Bot 2 (eager) · medium\n  Bestemor\n" in out
    assert "stack-first" not in out and "(greedy)" not in out
    assert out.count("\n    Stack  ") == 3 and out.count("\n    Hand   ") == 3
    last = len(data["actions"]) - 1
    assert f"{last:4d}  {250 * last / 1000:.3f} s  " in out
    assert "Ligretto Stop by " in out and "Result" in out


def test_replay_from_an_action_lets_bots_play_to_an_end(replay_file: Path) -> None:
    result = CliRunner().invoke(
        app, ["replay", str(replay_file), "--from", "10", "--bots", "greedy:hard", "--lang", "en"]
    )
    assert result.exit_code == 0, result.output
    after = result.output.split("From action 10 on, these bots play: ")[1]
    assert after.startswith("Bot 1 (eager) · hard, Bot 2 (eager) · hard, Bot 3 (eager) · hard\n")
    assert "    10  Bot " in after
    outcome = after.split("Outcome after ")[1]
    assert "Ligretto Stop by Bot " in outcome or "Nobody could play any more." in outcome
    assert "The round was not over." not in after


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
    result = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"])
    assert result.exit_code == 0, result.output
    lines = result.output.split("Races for a pile\n")[1].splitlines()
    assert lines[0].endswith(
        "0.750 s  Race: Bot 1 (by the book) took the pile, Bot 2 (eager) was 7 ms slower."
    ), lines
    assert lines[1].endswith(
        "Race: Bot 1 (by the book) took the pile, Bot 2 (eager) played at the same moment."
    )
    assert "0 ms" not in result.output


# What each language makes of the same round: the first play of a card, the
# result's head, a tie, a time past ten seconds and the Stop, as the table
# and the replay page say them (R3, R4, R5).
SPOKEN = {
    "en": {
        "title": "Replay of round 3, table ABCDEF",
        "bot": "Bot 1 (by the book) · hard",
        "deal": "    Row    ",
        "time": "13.600 s",
        "tie": "Bot 2 (eager) played at the same moment.",
        "head": "Player",
        "stop": "Ligretto Stop by ",
    },
    "de": {
        "title": "Wiederholung von Runde 3, Tisch ABCDEF",
        "bot": "Bot 1 (nach Lehrbuch) · schwer",
        "deal": "    Reihe   ",
        "time": "13,600 s",
        "tie": "Bot 2 (eifrig) spielte im selben Augenblick.",
        "head": "Mitspieler",
        "stop": "„Ligretto Stop“ von ",
    },
    "nb": {
        "title": "Reprise av runde 3, bord ABCDEF",
        "bot": "Bot 1 (etter boka) · vanskelig",
        "deal": "    Rekke  ",
        "time": "13,600 s",
        "tie": "Bot 2 (ivrig) spilte i samme øyeblikk.",
        "head": "Spiller",
        "stop": "«Ligretto Stopp» fra ",
    },
}
CARD_WORDS = {
    "en": {"R": "red", "G": "green", "B": "blue", "Y": "yellow"},
    "de": {"R": "rot", "G": "grün", "B": "blau", "Y": "gelb"},
    "nb": {"R": "rød", "G": "grønn", "B": "blå", "Y": "gul"},
}


def tied_race_file(tmp_path: Path) -> Path:
    data = kept_round()
    played = next(a for a in data["actions"] if a["action"].startswith("play "))
    race = {"seat": 1, "action": played["action"], "refused_by_seat": 0}
    data["races"] = [{**race, "t_ms": 13_600, "margin_ms": 0}]
    path = tmp_path / "tie.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("language", sorted(SPOKEN))
def test_replay_speaks_cards_names_and_numbers_in_the_language_asked(
    tmp_path: Path, language: str
) -> None:
    path = tied_race_file(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path), "--lang", language])
    assert result.exit_code == 0, result.output
    out, said = result.output, SPOKEN[language]
    assert out.startswith(said["title"] + "\n")
    assert said["bot"] in out and said["deal"] in out and said["tie"] in out
    assert f"  {said['time']}  " in out
    assert f"\n  {said['head']} " in out and said["stop"] in out
    # Cards by their names, never their codes: the first card played is
    # named in its action's line as the table names it ("blau 7"), and the
    # deal lists names too.
    data = json.loads(path.read_text())
    index, played = next(
        (i, a) for i, a in enumerate(data["actions"]) if a["action"].startswith("play ")
    )
    code = played["action"].split()[1]
    line = next(line for line in out.splitlines() if line.startswith(f"  {index:4d}  "))
    assert f"{CARD_WORDS[language][code[0]]} {code[1:]}" in line and code not in line
    dealt = initial_deal(3, 21, RuleOptions())[0]["row"]
    row = ", ".join(f"{CARD_WORDS[language][c[0]]} {c[1:]}" for c in dealt)
    assert f"{said['deal']}{row}\n" in out


def test_replay_takes_its_language_from_lang_and_refuses_one_it_does_not_speak(
    replay_file: Path,
) -> None:
    norwegian = CliRunner().invoke(app, ["replay", str(replay_file)], env={"LANG": "nb_NO.UTF-8"})
    assert norwegian.exit_code == 0 and norwegian.output.startswith("Reprise av runde 3")
    unknown = CliRunner().invoke(app, ["replay", str(replay_file)], env={"LANG": "C.UTF-8"})
    assert unknown.exit_code == 0 and unknown.output.startswith("Replay of round 3")
    refused = CliRunner().invoke(app, ["replay", str(replay_file), "--lang", "fr"])
    assert refused.exit_code != 0 and "'fr' is not one of de, en, nb" in refused.output
    assert "Replay of round" not in refused.output
