"""A group's reads (GroupQueries): one answer, kept once, for the API and the pages alike."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import Engine

from ligretto.store import TafelService
from ligretto.store.group_queries import league_season
from ligretto.store.groups import GroupService
from ligretto.store.results import StoredGroup
from ligretto.tafel.errors import Code, GroupError
from ligretto.tafel.ratings import rate
from ligretto.tafel.stats import Season


@pytest.fixture
def groups(engine: Engine) -> GroupService:
    return GroupService(engine)


@pytest.fixture
def tafel(engine: Engine) -> TafelService:
    return TafelService(engine)


def _played(groups: GroupService, tafel: TafelService) -> tuple[str, str]:
    created = groups.create_group("Thursday", ["Anna", "Ben", "Cleo"])
    gid, token = created.stored.id, created.token
    for middle in ([20, 12], [14, 16]):
        game, _ = groups.create_game(gid, token, ["Anna", "Ben"], mode="rounds", rounds=1)
        tafel.open_round(game.stored.id, game.edit_token, [0, 3])
        tafel.complete_round(game.stored.id, game.edit_token, 1, middle)
    return gid, token


def test_a_members_data_is_computed_once_and_follows_every_change(
    groups: GroupService, tafel: TafelService
) -> None:
    gid, token = _played(groups, tafel)
    queries = groups.queries
    first = queries.member(gid, "anna")  # the name rule compares names (T1)
    assert first is not None and first.stats.name == "Anna"
    _, games = queries.played_games(gid)
    final, _ = rate(games, ["Anna", "Ben", "Cleo"])
    assert first.rating == final["Anna"] and len(first.ratings) == 2
    assert first.round_points == [20, 14]
    assert "Ben" in [h.opponent for h in first.pairs]
    assert all(h.member == "Anna" for h in first.pairs)
    again = queries.member(gid, "Anna")
    assert again is not None and again.ratings is first.ratings  # one kept result
    groups.add_members(gid, token, ["Dora"])
    changed = queries.member(gid, "Anna")
    assert changed is not None and changed.ratings is not first.ratings
    assert changed.group.members[-1] == "Dora"


def test_someone_outside_the_group_has_no_member_data(
    groups: GroupService, tafel: TafelService
) -> None:
    gid, _ = _played(groups, tafel)
    assert groups.queries.member(gid, "Zoe") is None
    assert groups.queries.member(gid, "Cleo") is not None  # a member who never played


def test_the_league_is_kept_per_season(groups: GroupService, tafel: TafelService) -> None:
    gid, _ = _played(groups, tafel)
    everything = groups.queries.league(gid, lambda _s: None)
    assert everything.table.games == 2 and everything.table.season is None
    assert groups.queries.league(gid, lambda _s: None) is everything
    other = groups.queries.league(gid, lambda _s: Season(date(1990, 1, 1), date(1990, 12, 31)))
    assert other.table.games == 0


def _group(season: Season | None) -> StoredGroup:
    now = datetime(2026, 5, 1, tzinfo=UTC)
    return StoredGroup("g", 1, "G", ("Anna",), season, 0, now, now)


def test_t6_the_season_asked_for() -> None:
    own = Season(date(2026, 3, 1), date(2026, 8, 31))
    today = date(2027, 2, 3)
    assert league_season(_group(own), None, None, None, everything=True) is None
    assert league_season(_group(own), 2025, None, None, False) == Season.year(2025)
    assert league_season(_group(own), None, None, None, False, today) == own
    assert league_season(_group(None), None, None, None, False, today) == Season.year(2027)
    span = Season(date(2026, 1, 1), date(2026, 2, 1))
    assert league_season(_group(own), None, span.start, span.end, False) == span
    with pytest.raises(GroupError) as error:
        league_season(_group(own), None, date(2026, 1, 1), None, False)
    assert error.value.code is Code.BAD_SEASON


def test_a_group_games_history_line_is_read_with_the_groups_results(
    groups: GroupService, tafel: TafelService
) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben"])
    gid, token = created.stored.id, created.token
    ids = []
    for middle in ([20, 12], [14, 16], [30, 12]):
        game, _ = groups.create_game(gid, token, ["Anna", "Ben"], mode="rounds", rounds=1)
        tafel.open_round(game.stored.id, game.edit_token, [0, 3])
        tafel.complete_round(game.stored.id, game.edit_token, 1, middle)
        ids.append(game.stored.id)
    second = groups.queries.family_note(ids[1])
    assert second is not None and [(w.name, w.nth) for w in second.wins] == [("Anna", 2)]
    assert second.best is None  # 14 does not beat the first game's 20
    third = groups.queries.family_note(ids[2])
    assert third is not None and third.best is not None and third.best.points == 30
    assert groups.queries.family_note(ids[2]) is third  # kept with the group's results
    alone = tafel.create_game(["Anna", "Ben"], mode="rounds", rounds=1)
    assert groups.queries.family_note(alone.stored.id) is None  # in no group
