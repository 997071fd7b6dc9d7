"""Stored groups: tokens, versions, members, games of a group, cached statistics."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine

from ligretto.store import TafelService, VersionConflictError
from ligretto.store.errors import (
    GameInGroupError,
    GameNotInGroupError,
    GroupForbiddenError,
    GroupNotFoundError,
)
from ligretto.store.group_queries import kept_bytes
from ligretto.store.groups import GroupService
from ligretto.tafel.errors import Code, GroupError, TafelError
from ligretto.tafel.stats import Season, member_stats


@pytest.fixture
def groups(engine: Engine) -> GroupService:
    return GroupService(engine)


@pytest.fixture
def tafel(engine: Engine) -> TafelService:
    return TafelService(engine)


def test_a_group_keeps_only_its_tokens_hash_and_checks_it(groups: GroupService) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben"])
    assert groups.check_token(created.stored.id, created.token)
    assert not groups.check_token(created.stored.id, "nope")
    with pytest.raises(GroupForbiddenError):
        groups.add_members(created.stored.id, "nope", ["Cleo"])
    with pytest.raises(GroupNotFoundError):
        groups.get_group("no-such-group")
    with pytest.raises(GroupNotFoundError):
        groups.get_group("../etc")
    stored = groups.get_group(created.stored.id)
    assert stored.members == ("Anna", "Ben") and stored.version == 1


def test_writes_check_the_version_and_change_nothing_when_refused(groups: GroupService) -> None:
    created = groups.create_group("Thursday", ["Anna"])
    gid, token = created.stored.id, created.token
    after = groups.add_members(gid, token, ["Ben"], expected_version=1)
    assert after.version == 2 and after.members == ("Anna", "Ben")
    with pytest.raises(VersionConflictError):
        groups.add_members(gid, token, ["Cleo"], expected_version=1)
    with pytest.raises(GroupError) as error:
        groups.add_members(gid, token, ["Dora", "ANNA"])
    assert error.value.code is Code.DUPLICATE_NAME
    assert groups.get_group(gid).members == ("Anna", "Ben")  # Dora did not join either
    renamed = groups.update_group(gid, token, name="Friday", season=Season.year(2026))
    assert renamed.name == "Friday" and renamed.season == Season.year(2026)
    assert groups.get_group(gid).season == Season.year(2026)


def test_a_game_of_the_group_needs_new_players_confirmed(
    groups: GroupService, tafel: TafelService
) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben"])
    gid, token = created.stored.id, created.token
    with pytest.raises(GroupError) as error:
        groups.create_game(gid, token, ["anna", "Ben", "Cleo"], mode="rounds", rounds=1)
    assert error.value.code is Code.NEW_MEMBERS
    assert groups.get_group(gid).games == 0
    game, group = groups.create_game(
        gid, token, ["anna", "Ben", "Cleo"], mode="rounds", rounds=1, new_members=["Cleo"]
    )
    assert group.members == ("Anna", "Ben", "Cleo") and group.games == 1
    # the game is an ordinary Tafel game with its own edit token
    tafel.open_round(game.stored.id, game.edit_token, [0, 3, 5])
    tafel.complete_round(game.stored.id, game.edit_token, 1, [20, 12, 5])
    _, games = groups.queries.played_games(gid)
    assert [g.id for g in games] == [game.stored.id]
    assert games[0].game.finished and games[0].game.winners == ("anna",)


def test_an_existing_game_joins_with_its_edit_token_and_only_one_group(
    groups: GroupService, tafel: TafelService
) -> None:
    one = groups.create_group("One", ["Anna", "Ben"])
    two = groups.create_group("Two", ["Anna", "Ben"])
    game = tafel.create_game(["Anna", "Ben"])
    gid = game.stored.id
    with pytest.raises(GroupForbiddenError):
        groups.add_game(one.stored.id, one.token, gid, "wrong")
    groups.add_game(one.stored.id, one.token, gid, game.edit_token)
    with pytest.raises(GameInGroupError) as error:
        groups.add_game(two.stored.id, two.token, gid, game.edit_token)
    assert error.value.elsewhere
    with pytest.raises(GameNotInGroupError):
        groups.remove_game(two.stored.id, two.token, gid)
    assert groups.remove_game(one.stored.id, one.token, gid).games == 0
    groups.add_game(two.stored.id, two.token, gid, game.edit_token)


def test_statistics_are_recomputed_after_a_correction(
    groups: GroupService, tafel: TafelService
) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben"])
    gid, token = created.stored.id, created.token
    game, _ = groups.create_game(gid, token, ["Anna", "Ben"], mode="rounds", rounds=2)
    tafel.open_round(game.stored.id, game.edit_token, [0, 3])
    tafel.complete_round(game.stored.id, game.edit_token, 1, [20, 12])
    calls = []

    def points(_group: object, games: list) -> dict[str, int]:  # type: ignore[type-arg]
        calls.append(1)
        return {s.name: s.points for s in member_stats(games, ["Anna", "Ben"])}

    assert groups.queries.computed(gid, "points", points) == {"Anna": 20, "Ben": 6}
    assert groups.queries.computed(gid, "points", points) == {"Anna": 20, "Ben": 6}
    assert len(calls) == 1  # the second read was kept
    tafel.correct_round(game.stored.id, game.edit_token, 1, middle=[18, 12])
    assert groups.queries.computed(gid, "points", points) == {"Anna": 18, "Ben": 6}
    assert len(calls) == 2


def test_export_and_import_keep_members_games_and_dates(
    groups: GroupService, tafel: TafelService
) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben", "Cleo"])
    gid, token = created.stored.id, created.token
    groups.update_group(gid, token, season=Season.year(2026))
    game, _ = groups.create_game(gid, token, ["Anna", "Ben"], mode="rounds", rounds=1)
    tafel.open_round(game.stored.id, game.edit_token, [0, 3])
    tafel.complete_round(game.stored.id, game.edit_token, 1, [20, 12])
    data = groups.queries.export_json(gid)
    copy = groups.import_group(data)
    assert copy.stored.id != gid and copy.token != token
    assert copy.stored.members == ("Anna", "Ben", "Cleo")
    assert copy.stored.season == Season.year(2026)
    _, games = groups.queries.played_games(copy.stored.id)
    _, originals = groups.queries.played_games(gid)
    assert [g.played_at for g in games] == [g.played_at for g in originals]
    assert [g.game.totals for g in games] == [(20, 6)]
    (new_id,) = copy.game_tokens
    assert tafel.check_token(new_id, copy.game_tokens[new_id])
    broken = dict(data, games=[{"played_at": "yesterday", "game": data["games"][0]["game"]}])
    with pytest.raises(TafelError) as error:
        groups.import_group(broken)
    assert error.value.code is Code.BAD_IMPORT


def test_t1_a_group_stored_before_look_alikes_were_one_name_still_works(
    groups: GroupService, engine: Engine
) -> None:
    import unicodedata

    from sqlalchemy import insert

    from ligretto.store.models import MemberRow

    created = groups.create_group("Thursday", ["Anna", "Ben"])
    gid, token = created.stored.id, created.token
    legacy = ["\u0410nna", "Ben\u034f"]  # accepted once: Cyrillic A, a joiner that shows nothing
    with engine.begin() as conn:
        conn.execute(
            insert(MemberRow),
            [
                # the key as it was then: NFKC and case folded only
                {"group_id": gid, "key": unicodedata.normalize("NFKC", n).casefold(), "name": n,
                 "position": 2 + i}
                for i, n in enumerate(legacy)
            ],
        )  # fmt: skip
    assert groups.get_group(gid).members == ("Anna", "Ben", *legacy)
    renamed = groups.update_group(gid, token, name="Friday")
    assert renamed.name == "Friday" and renamed.members == ("Anna", "Ben", *legacy)
    with pytest.raises(GroupError) as error:
        groups.add_members(gid, token, ["\u0391NNA"])  # Greek capital A: a third Anna
    assert error.value.code is Code.DUPLICATE_NAME
    assert groups.add_members(gid, token, ["Cleo"]).members[-1] == "Cleo"


def test_a_game_of_a_group_is_read_with_its_players_places_in_the_member_list(
    groups: GroupService, tafel: TafelService
) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben", "Cleo", "Kari"])
    group_id, token = created.stored.id, created.token
    game, _ = groups.create_game(group_id, token, ["kari", "Anna", "Dora"], new_members=["Dora"])
    # Seated Kari, Anna, Dora; Dora joined as the fifth member. Names compare as T1 does.
    assert tafel.get_game(game.stored.id).member_places == (3, 0, 4)
    alone = tafel.create_game(["Kari", "Anna"])
    assert tafel.get_game(alone.stored.id).member_places is None


def test_an_import_writes_in_short_transactions_and_a_failed_one_leaves_nothing(
    groups: GroupService, tafel: TafelService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import func, select

    from ligretto.store import group_repository
    from ligretto.store import groups as group_module
    from ligretto.store.models import GameRow, RoundRow

    created = groups.create_group("Thursday", ["Anna", "Ben"])
    gid, token = created.stored.id, created.token
    for _ in range(3):
        game, _ = groups.create_game(gid, token, ["Anna", "Ben"], mode="rounds", rounds=2)
        for n in (1, 2):
            tafel.open_round(game.stored.id, game.edit_token, [0, 3])
            tafel.complete_round(game.stored.id, game.edit_token, n, [20, 12])
    data = groups.queries.export_json(gid)

    def counts() -> tuple[int, int]:
        with groups.engine.connect() as conn:
            return (
                conn.execute(select(func.count()).select_from(GameRow)).scalar_one(),
                conn.execute(select(func.count()).select_from(RoundRow)).scalar_one(),
            )

    before = counts()
    # Three rounds a transaction: the games of two rounds go one at a time.
    monkeypatch.setattr(group_module, "IMPORT_BATCH_ROUNDS", 3)
    begun: list[int] = []
    real_begin = groups._writer.begin

    def counted_begin() -> Any:
        begun.append(1)
        return real_begin()

    monkeypatch.setattr(groups._writer, "begin", counted_begin)

    def refused(*_args: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(group_repository, "link_games", refused)
    with pytest.raises(RuntimeError):
        groups.import_group(data)
    assert counts() == before  # the games written before the failure were deleted again
    monkeypatch.undo()
    monkeypatch.setattr(group_module, "IMPORT_BATCH_ROUNDS", 3)
    monkeypatch.setattr(groups._writer, "begin", counted_begin)
    begun.clear()
    copy = groups.import_group(data)
    assert len(begun) == 4  # three games, one transaction each, then the group
    assert counts() == (before[0] + 3, before[1] + 6)
    _, games = groups.queries.played_games(copy.stored.id)
    assert [g.game.totals for g in games] == [(40, 12)] * 3


def test_the_games_kept_for_the_next_read_are_bounded_by_their_estimated_memory(
    groups: GroupService, tafel: TafelService
) -> None:
    created = groups.create_group("Thursday", ["Anna", "Ben"])
    gid, token = created.stored.id, created.token
    for _ in range(3):
        game, _ = groups.create_game(gid, token, ["Anna", "Ben"], mode="rounds", rounds=2)
        tafel.open_round(game.stored.id, game.edit_token, [0, 3])
        tafel.complete_round(game.stored.id, game.edit_token, 1, [20, 12])
    queries = groups.queries
    _, games = queries.played_games(gid)
    one = kept_bytes(games[0])
    assert one > 1024 and all(kept_bytes(g) == one for g in games)
    assert queries._games_bytes == 3 * one  # every game kept, each counted once
    queries.played_games(gid)
    assert queries._games_bytes == 3 * one
    # Room for two games: the oldest kept is dropped, the count follows.
    queries.games_cache_bytes = 2 * one
    queries._games.clear()
    queries._games_bytes = 0
    _, again = queries.played_games(gid)
    assert [g.game.totals for g in again] == [g.game.totals for g in games]
    assert len(queries._games) == 2 and queries._games_bytes == 2 * one
