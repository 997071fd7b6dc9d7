"""A group's exchange format: its export reads back as the same group (T6)."""

from __future__ import annotations

import doctest
from datetime import UTC, date, datetime

import pytest

from ligretto.tafel import Game, group_exchange
from ligretto.tafel.errors import Code, GroupError, TafelError
from ligretto.tafel.group_exchange import (
    EXPORT_FORMAT,
    group_from_json,
    group_to_json,
    season_from_json,
    season_to_json,
)
from ligretto.tafel.stats import PlayedGame, Season


def test_docstring_examples() -> None:
    failures, attempted = doctest.testmod(group_exchange)
    assert attempted > 0 and failures == 0


def _game() -> Game:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=1)
    game.open_round([0, 4])
    game.complete_round(1, [10, 12])
    return game


def test_t6_an_export_reads_back_with_its_games_season_and_members() -> None:
    at = datetime(2026, 2, 1, 19, 30, tzinfo=UTC)
    season = Season(date(2026, 1, 1), date(2026, 6, 30))
    data = group_to_json(
        group_id="g1",
        version=4,
        name="Donnerstag",
        members=("Anna", "Ben", "Cleo"),
        season=season,
        games=[PlayedGame("x1", at, _game())],
    )
    assert data["format"] == EXPORT_FORMAT and data["season"] == season_to_json(season)
    imported = group_from_json(data)
    assert [m.name for m in imported.group.members] == ["Anna", "Ben", "Cleo"]
    assert imported.season == season
    [(game, played_at)] = imported.games
    assert played_at == at and game.totals == _game().totals


def test_t6_an_import_names_the_refused_game_by_its_place() -> None:
    data = group_to_json(
        group_id="g1",
        version=1,
        name="Donnerstag",
        members=("Anna", "Ben"),
        season=None,
        games=[PlayedGame("x1", datetime(2026, 2, 1, tzinfo=UTC), _game())],
    )
    data["games"].append({"played_at": "yesterday", "game": data["games"][0]["game"]})
    with pytest.raises(TafelError) as error:
        group_from_json(data)
    assert error.value.code is Code.BAD_IMPORT and error.value.message.startswith("game 2: ")


def test_t1_an_import_with_two_look_alike_members_is_refused() -> None:
    data = group_to_json(
        group_id="g1",
        version=1,
        name="Donnerstag",
        members=("Anna", "\u0410nna"),  # Latin and Cyrillic A: one player twice
        season=None,
        games=[],
    )
    with pytest.raises(GroupError) as error:
        group_from_json(data)
    assert error.value.code is Code.DUPLICATE_NAME


@pytest.mark.parametrize("value", ["2026", {"start": "2026-01-01"}, [1, 2]])
def test_t6_a_season_is_two_dates(value: object) -> None:
    with pytest.raises(GroupError) as error:
        season_from_json(value)
    assert error.value.code is Code.BAD_SEASON


def test_no_season_means_calendar_years() -> None:
    assert season_from_json(None) is None and season_to_json(None) is None
