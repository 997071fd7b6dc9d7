"""A group's statistics equal a brute-force recomputation from the rounds (T3–T6)."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.groups import simulated_group
from helpers.played_games import POOL, START, played_games
from helpers.profiles import examples
from ligretto.estimates import t_quantile
from ligretto.tafel.names import name_key
from ligretto.tafel.stats import (
    PlayedGame,
    Season,
    chronological,
    head_to_head,
    history,
    member_stats,
    round_points,
    select,
    select_history,
)


def brute_force(games: list[PlayedGame], member: str) -> dict[str, Any]:
    """Every number of the member's statistics, straight from the round counts (R5)."""
    key = name_key(member)
    rounds: list[int] = []
    stops = stack = games_n = wins = shared = 0
    streak = longest = 0
    for played in sorted(games, key=lambda g: (g.played_at, g.id)):
        keys = [name_key(p) for p in played.game.players]
        if key not in keys:
            continue
        seat = keys.index(key)
        totals = [0] * len(keys)
        for rnd in played.game.rounds:
            if rnd.middle is None:
                continue
            for s in range(len(keys)):
                totals[s] += rnd.middle[s] - 2 * rnd.stacks[s]
            rounds.append(rnd.middle[seat] - 2 * rnd.stacks[seat])
            stack += rnd.stacks[seat]
            stops += rnd.stacks[seat] == 0
        if played.game.finished:
            games_n += 1
            top = max(totals)
            if totals[seat] == top:
                wins += 1
                shared += totals.count(top) > 1
                streak += 1
                longest = max(longest, streak)
            else:
                streak = 0
    return {
        "games": games_n,
        "wins": wins,
        "shared_wins": shared,
        "rounds": len(rounds),
        "points": sum(rounds),
        "stops": stops,
        "stack_cards": stack,
        "best": max(rounds, default=None),
        "worst": min(rounds, default=None),
        "longest_streak": longest,
        "values": rounds,
    }


@given(played_games())
@settings(max_examples=examples(200), deadline=None)
def test_member_statistics_equal_a_brute_force_recomputation(games: list[PlayedGame]) -> None:
    for stats in member_stats(games, POOL):
        expected = brute_force(games, stats.name)
        assert stats.games == expected["games"]
        assert stats.wins == expected["wins"]
        assert stats.shared_wins == expected["shared_wins"]
        assert stats.rounds == expected["rounds"]
        assert stats.points == expected["points"]
        assert stats.stops == expected["stops"]
        assert stats.stack_cards == expected["stack_cards"]
        assert stats.longest_streak == expected["longest_streak"]
        assert (stats.best_round and stats.best_round.points) == expected["best"]
        assert (stats.worst_round and stats.worst_round.points) == expected["worst"]
        assert round_points(games, stats.name) == expected["values"]
        values = expected["values"]
        if len(values) >= 2:
            half = (
                t_quantile(0.975, len(values) - 1)
                * statistics.stdev(values)
                / math.sqrt(len(values))
            )
            mean = sum(values) / len(values)
            assert stats.points_low == pytest.approx(mean - half)
            assert stats.points_high == pytest.approx(mean + half)
        else:
            assert stats.points_low is None and stats.points_high is None
        if stats.games:
            assert stats.win_rate == expected["wins"] / expected["games"]


@given(played_games())
@settings(max_examples=examples(100), deadline=None)
def test_head_to_head_counts_who_ended_ahead_in_finished_games(games: list[PlayedGame]) -> None:
    expected: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for played in games:
        if not played.game.finished:
            continue
        totals = dict(zip(map(name_key, played.game.players), played.game.totals, strict=True))
        for a in POOL:
            for b in POOL:
                ka, kb = name_key(a), name_key(b)
                if a != b and ka in totals and kb in totals:
                    row = expected[(a, b)]
                    row[0 if totals[ka] > totals[kb] else 1 if totals[ka] < totals[kb] else 2] += 1
    got = {(h.member, h.opponent): [h.ahead, h.behind, h.level] for h in head_to_head(games, POOL)}
    assert got == dict(expected)
    for h in head_to_head(games, POOL):
        mirror = got[(h.opponent, h.member)]
        assert (h.ahead, h.behind, h.level) == (mirror[1], mirror[0], mirror[2])


@given(played_games(), st.sampled_from([None, *POOL]), st.sampled_from([None, 2025, 2026, 2027]))
@settings(max_examples=examples(100), deadline=None)
def test_history_is_newest_first_and_filters_by_member_and_year(
    games: list[PlayedGame], member: str | None, year: int | None
) -> None:
    chosen = select(games, member=member, year=year, mode="rounds")
    items = history(chosen)
    assert [i.id for i in items] == [g.id for g in reversed(chronological(chosen))]
    for played in games:
        keys = [name_key(p) for p in played.game.players]
        wanted = (member is None or name_key(member) in keys) and (
            year is None or played.played_at.year == year
        )
        assert (played in chosen) == wanted
    assert select(games, mode="target") == []
    assert select_history(history(games), member=member, year=year, mode="rounds") == items
    season = Season.year(2026)
    assert all(g.played_at.year == 2026 for g in select(games, season=season))


def test_a_corrected_round_changes_the_statistics() -> None:
    members, games = simulated_group(12, seed=3)
    before = {s.name: (s.points, s.stops, s.wins) for s in member_stats(games, members)}
    first = games[0].game
    rnd = first.rounds[0]
    caller = rnd.caller
    seat = 0 if caller != 0 else 1
    assert rnd.middle is not None
    # T6: a correction of round 1 — the seat had one card more in the middle.
    middle = list(rnd.middle)
    middle[seat] = middle[seat] + 1 if middle[seat] < 40 - rnd.stacks[seat] else middle[seat] - 1
    corrected = first.copy()
    corrected.correct_round(1, middle=middle, confirm=True)
    games[0] = PlayedGame(games[0].id, games[0].played_at, corrected)
    after = {s.name: (s.points, s.stops, s.wins) for s in member_stats(games, members)}
    name = first.players[seat]
    assert after[name][0] == before[name][0] + (middle[seat] - rnd.middle[seat])
    assert after[name] != before[name]
    for other in members:
        if other != name:
            assert after[other][:2] == before[other][:2]


def test_two_hundred_simulated_games_equal_the_brute_force() -> None:
    members, games = simulated_group(200, seed=11)
    assert all(4 <= len(g.game.players) <= 8 for g in games)
    assert all(g.game.finished for g in games)
    for stats in member_stats(games, members):
        expected = brute_force(games, stats.name)
        assert (stats.games, stats.wins, stats.shared_wins, stats.points, stats.stops) == (
            expected["games"],
            expected["wins"],
            expected["shared_wins"],
            expected["points"],
            expected["stops"],
        )
        assert stats.longest_streak == expected["longest_streak"]


def test_season_refuses_an_end_before_its_start() -> None:
    from ligretto.tafel.errors import GroupError

    with pytest.raises(GroupError) as error:
        Season(START.date(), (START - timedelta(days=1)).date())
    assert error.value.code == "bad_season"
