"""The family table: who wins most in a season, and a member's form in words (T4–T6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.played_games import POOL, played_games
from helpers.profiles import examples
from ligretto.tafel import Game
from ligretto.tafel.family import family_table
from ligretto.tafel.names import name_key
from ligretto.tafel.ratings import league
from ligretto.tafel.stats import (
    RECENT_GAMES,
    Form,
    PlayedGame,
    Season,
    member_stats,
    recent_form,
)

START = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


def one_round(players: list[str], points: list[int], day: int, game_id: str) -> PlayedGame:
    """A finished one-round game in which the first seat called Stop and the others
    kept 3 stack cards, so that each seat ends with *points* (R5: middle − 2·stack)."""
    game = Game(players, mode="rounds", agreed_rounds=1)
    stacks = [0] + [3] * (len(players) - 1)
    number = game.open_round(stacks).number
    game.complete_round(number, [p + 2 * s for p, s in zip(points, stacks, strict=True)])
    return PlayedGame(game_id, START + timedelta(days=day), game)


def test_t5_most_wins_come_first_even_when_the_rating_ranks_another_member_higher() -> None:
    members = ["Kari", "Ola", "Per"]
    games = [
        one_round(["Kari", "Ola", "Per"], [30, 22, 14], 0, "g1"),
        one_round(["Kari", "Ola", "Per"], [30, 22, 14], 1, "g2"),
        one_round(["Kari", "Ola", "Per"], [14, 22, 30], 2, "g3"),
    ]
    assert league(games, members).rows[0].name == "Ola"  # three second places, no win
    table = family_table(games, members)
    assert [(r.place, r.name, r.wins, r.games) for r in table.rows] == [
        (1, "Kari", 2, 3),
        (2, "Per", 1, 3),
        (3, "Ola", 0, 3),
    ]
    assert [r.name for r in table.leaders] == ["Kari"]
    ola = table.rows[2]
    assert (ola.seconds, ola.thirds) == (3, 0)
    assert table.rows[0].form == Form(played=3, won=2, streak=0)
    assert table.rows[1].form == Form(played=3, won=1, streak=1)
    assert table.games == 3


def test_t6_members_level_on_every_count_share_a_place() -> None:
    members = ["Kari", "Ola", "Per"]
    games = [
        one_round(["Kari", "Ola", "Per"], [30, 22, 14], 0, "g1"),
        one_round(["Ola", "Kari", "Per"], [30, 22, 14], 1, "g2"),
    ]
    table = family_table(games, members)
    assert [(r.place, r.name) for r in table.rows] == [(1, "Kari"), (1, "Ola"), (3, "Per")]
    assert [r.name for r in table.leaders] == ["Kari", "Ola"]


def test_t5_the_same_wins_from_fewer_games_rank_higher_and_a_shared_victory_counts() -> None:
    members = ["Kari", "Ola", "Per"]
    games = [
        one_round(["Kari", "Ola"], [20, 10], 0, "g1"),
        one_round(["Ola", "Per"], [20, 20], 1, "g2"),  # a shared victory (T5)
        one_round(["Ola", "Per"], [12, 20], 2, "g3"),
    ]
    table = family_table(games, members)
    assert [(r.place, r.name, r.wins, r.games, r.shared_wins) for r in table.rows] == [
        (1, "Per", 2, 2, 1),
        (2, "Kari", 1, 1, 0),
        (3, "Ola", 1, 3, 1),
    ]


def test_t6_a_season_counts_only_its_own_finished_games() -> None:
    members = ["Kari", "Ola"]
    unfinished = Game(["Kari", "Ola"], mode="rounds", agreed_rounds=2)
    unfinished.complete_round(unfinished.open_round([0, 3]).number, [20, 10])
    games = [
        one_round(["Kari", "Ola"], [20, 10], 0, "g1"),
        one_round(["Kari", "Ola"], [10, 20], 400, "g2"),
        PlayedGame("g3", START + timedelta(days=401), unfinished),
    ]
    table = family_table(games, members, Season.year(2026))
    assert [(r.name, r.wins, r.games) for r in table.rows] == [("Kari", 1, 1), ("Ola", 0, 1)]
    assert table.games == 1


def test_recent_form_in_an_example() -> None:
    assert recent_form([True, False, True, True, False, True, True]) == Form(5, 4, 2)
    assert recent_form([]) == Form(0, 0, 0)
    with pytest.raises(ValueError, match="at least one game"):
        recent_form([True], last=0)


@given(st.lists(st.booleans(), max_size=30), st.integers(1, 8))
@settings(max_examples=examples(300), deadline=None)
def test_recent_form_counts_the_last_games_and_the_streak_up_to_now(
    results: list[bool], last: int
) -> None:
    form = recent_form(results, last)
    assert form.played == min(last, len(results))
    assert form.won == sum(results[len(results) - form.played :])
    assert all(results[len(results) - form.streak :])
    assert form.streak == len(results) or not results[len(results) - form.streak - 1]


@given(played_games())
@settings(max_examples=examples(200), deadline=None)
def test_the_family_table_agrees_with_the_statistics_and_orders_by_wins(
    games: list[PlayedGame],
) -> None:
    table = family_table(games, POOL)
    stats = {s.name: s for s in member_stats(games, POOL)}
    assert {r.name for r in table.rows} == {n for n, s in stats.items() if s.games}
    for row in table.rows:
        member = stats[row.name]
        assert (row.games, row.wins, row.shared_wins) == (
            member.games,
            member.wins,
            member.shared_wins,
        )
        assert row.longest_streak == member.longest_streak
        assert row.form == member.form
        assert row.form.played == min(RECENT_GAMES, row.games)
        assert row.wins + row.seconds + row.thirds <= row.games

    def key(r: object) -> tuple[int, float, int, int]:
        assert hasattr(r, "wins")
        return (-r.wins, -r.wins / r.games, -r.seconds, -r.thirds)  # type: ignore[attr-defined]

    keys = [key(r) for r in table.rows]
    assert keys == sorted(keys)
    for row in table.rows:
        # A place is one more than the members strictly ahead: level members share it.
        assert row.place == 1 + sum(1 for k in keys if k < key(row))
    finished = sum(1 for g in games if g.game.finished)
    assert table.games == finished
    assert len({name_key(r.name) for r in table.rows}) == len(table.rows)
