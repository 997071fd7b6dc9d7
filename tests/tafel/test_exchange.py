"""Export and import of a game as pure functions of the domain (T6)."""

from __future__ import annotations

import csv
import doctest
import io
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

import ligretto.tafel.exchange as exchange
from ligretto.tafel import Code, Game, InvalidRoundError, Mode, describe
from ligretto.tafel.exchange import game_from_json, game_record, game_to_csv, game_to_json

AT = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
LATER = datetime(2025, 3, 4, 6, 0, 0, tzinfo=UTC)


def _game() -> Game:
    game = Game(["Anna", "Ben", "Cleo"], target=50)
    game.open_round([0, 3, 5])
    game.complete_round(1, [12, 14, 5])
    game.open_round([2, 0, 5])  # pending: stacks only (T2)
    return game


def _export(game: Game, history: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    return game_to_json(
        game, game_id="g1", version=4, created_at=AT, updated_at=LATER, history=history
    )


def test_docstring_examples() -> None:
    failures, attempted = doctest.testmod(exchange)
    assert attempted > 0 and failures == 0


def test_json_export_has_format_identity_game_and_history() -> None:
    game = _game()
    history = [{"version": 1, "at": AT.isoformat(), "action": "create", "round": None}]
    data = _export(game, history=history)
    assert data["format"] == exchange.EXPORT_FORMAT == "ligretto-tafel"
    assert data["format_version"] == exchange.EXPORT_FORMAT_VERSION == 1
    assert (data["id"], data["version"]) == ("g1", 4)
    assert data["created_at"] == AT.isoformat() and data["updated_at"] == LATER.isoformat()
    assert data["history"] == history
    for key, value in describe(game).items():
        assert data[key] == value
    json.dumps(data)  # JSON-ready as it is


def test_json_export_without_history_has_an_empty_list() -> None:
    assert _export(_game())["history"] == []


def test_game_record_is_the_export_without_format_and_history() -> None:
    game = _game()
    record = game_record(game, game_id="g1", version=4, created_at=AT, updated_at=LATER)
    exported = _export(game)
    assert record == {
        k: v for k, v in exported.items() if k not in ("format", "format_version", "history")
    }
    summary = game_record(
        game, game_id="g1", version=4, created_at=AT, updated_at=LATER, with_rounds=False
    )
    assert "rounds" not in summary and summary["rounds_count"] == 2


def test_t6_json_round_trip_gives_the_same_game() -> None:
    game = _game()
    game.complete_round(2, [11, 12, 6])
    game.finish()
    copy = game_from_json(_export(game))
    assert describe(copy) == describe(game)
    assert copy.closed


def test_t5_a_scored_rounds_game_stays_scored() -> None:
    game = Game(["Anna", "Ben"], mode=Mode.ROUNDS, agreed_rounds=1)
    game.open_round([0, 4])
    game.complete_round(1, [10, 12])
    game.score()
    copy = game_from_json(_export(game))
    assert copy.scored and copy.winners == ("Anna",)


def test_t3_import_checks_every_round_again_and_names_it() -> None:
    data = _export(_game())
    data["rounds"][0]["stacks"] = {"Anna": 0, "Ben": 0, "Cleo": 5}  # two callers (T2)
    with pytest.raises(InvalidRoundError) as refused:
        game_from_json(data)
    assert refused.value.code is Code.TWO_CALLERS
    assert refused.value.message.startswith("round 1:")


def test_csv_has_one_line_per_round_with_running_totals() -> None:
    text = game_to_csv(_game())
    assert text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:6] == [
        "round",
        "caller",
        "Anna stack",
        "Anna middle",
        "Anna points",
        "Anna total",
    ]
    assert len(rows[0]) == 2 + 4 * 3
    assert rows[1] == [
        "1",
        "Anna",
        "0",
        "12",
        "12",
        "12",
        "3",
        "14",
        "8",
        "8",
        "5",
        "5",
        "-5",
        "-5",
    ]
    # The pending round: the stacks and the caller, nothing else yet (T2).
    assert rows[2] == ["2", "Ben", "2", "", "", "", "0", "", "", "", "5", "", "", ""]


def test_csv_names_cannot_become_spreadsheet_formulas() -> None:
    game = Game(["=SUM(A1)", "+Ben", "Cleo"])
    game.open_round([0, 3, 5])
    rows = list(csv.reader(io.StringIO(game_to_csv(game))))
    assert rows[0][2] == "'=SUM(A1) stack" and rows[0][6] == "'+Ben stack"
    assert rows[1][1] == "'=SUM(A1)"
