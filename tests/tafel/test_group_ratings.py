"""Ratings (OpenSkill Plackett–Luce) and the league table of a group."""

from __future__ import annotations

from statistics import mean

from helpers.groups import LEVELS, MEMBERS, simulated_group
from ligretto.tafel import Game
from ligretto.tafel.ratings import INITIAL, league, rate
from ligretto.tafel.stats import PlayedGame, Season


def test_stronger_bot_levels_are_rated_higher_after_enough_games() -> None:
    members, games = simulated_group(200, seed=5)
    final, steps = rate(games, members)
    assert len(steps) == 200
    level_of = dict(MEMBERS)
    by_level = {
        level: mean(final[m].mu for m in members if level_of[m] == level) for level in LEVELS
    }
    # easy < medium < hard < expert, the simulator's known strengths (docs/bots.md)
    assert [by_level[level] for level in LEVELS] == sorted(by_level.values())
    table = league(games, members)
    best = [row.name for row in table.rows[:2]]
    assert {level_of[name] for name in best} == {"expert"}
    worst = [row.name for row in table.rows[-2:]]
    assert {level_of[name] for name in worst} == {"easy"}
    # uncertainty shrinks with games played
    assert all(final[m].sigma < INITIAL.sigma / 2 for m in members)


def _game(players: list[str], middles: list[int], stacks: list[int]) -> Game:
    game = Game(players, mode="rounds", agreed_rounds=1)
    game.open_round(stacks)
    game.complete_round(1, middles, confirm=True)
    return game


def test_league_counts_a_season_only_and_shares_a_win() -> None:
    from datetime import UTC, datetime

    early = PlayedGame(
        "a", datetime(2024, 6, 1, tzinfo=UTC), _game(["Anna", "Ben"], [20, 5], [0, 5])
    )
    tie = PlayedGame(
        "b",
        datetime(2025, 6, 1, tzinfo=UTC),
        _game(["Anna", "Ben", "Cleo"], [10, 10, 2], [2, 2, 0]),
    )
    table = league([early, tie], ["Anna", "Ben", "Cleo"], Season.year(2025))
    assert table.games == 1
    rows = {row.name: row for row in table.rows}
    assert rows["Anna"].wins == rows["Ben"].wins == 1
    assert rows["Anna"].shared_wins == rows["Ben"].shared_wins == 1
    assert rows["Cleo"].wins == 0
    # a shared victory is a shared rank: equal ratings, equal places
    assert rows["Anna"].rating == rows["Ben"].rating
    assert rows["Anna"].rank == rows["Ben"].rank == 1
    assert rows["Cleo"].rank == 3
    assert rows["Anna"].points == 6 and rows["Anna"].rounds == 1


def test_unfinished_games_and_non_members_are_not_rated() -> None:
    from datetime import UTC, datetime

    running = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=3)
    running.open_round([0, 4])
    running.complete_round(1, [20, 10])
    lone = _game(["Anna", "Zoe"], [20, 5], [0, 5])
    games = [
        PlayedGame("a", datetime(2025, 1, 1, tzinfo=UTC), running),
        PlayedGame("b", datetime(2025, 1, 2, tzinfo=UTC), lone),
    ]
    final, steps = rate(games, ["Anna", "Ben"])
    assert final == {} and steps == []


def test_a_memo_continues_from_the_first_changed_game_with_the_same_result() -> None:
    from ligretto.tafel.ratings import RatingMemo

    members, games = simulated_group(40, seed=9)
    memo = RatingMemo()
    assert rate(games, members, memo) == rate(games, members)
    for index in (39, 5):  # the newest game, then an old one, change their outcome
        played = games[index]
        corrected = played.game.copy()
        last = corrected.rounds[-1]
        assert last.middle is not None
        corrected.closed = True  # keep it finished whatever the new totals
        seat = last.caller if last.caller is not None else 0
        middle = list(last.middle)
        middle[seat] = max(0, middle[seat] - 15)
        corrected.correct_round(last.number, middle=middle, confirm=True)
        games[index] = PlayedGame(played.id, played.played_at, corrected)
        assert rate(games, members, memo) == rate(games, members)
    assert rate(games, members[:4], memo) == rate(games, members[:4])
