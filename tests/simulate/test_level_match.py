"""Bots at a player's level: the rating rule and the match
(docs/online-play.md, "Bots at your level")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ligretto.bots import Level
from ligretto.simulate.calibrate import load_table
from ligretto.simulate.level_match import (
    EVEN,
    BotResult,
    MatchedBots,
    bot_rating,
    matched_bots,
    rate_game,
    rating_from,
)
from ligretto.tafel.ratings import INITIAL, Rating, chance_to_beat, rate_against

LEVEL_ORDER = [level.value for level in Level]


def strength(match: MatchedBots) -> float:
    """The matched bots' skills together."""
    skills = [bot_rating(s, lv) for s, lv in match.bots]
    assert all(skill is not None for skill in skills)
    return sum(skill.mu for skill in skills if skill is not None)


def play(player: Rating | None, won: bool) -> tuple[Rating, MatchedBots]:
    """One game to 99 against the bots matched to ``player``: won (first) or lost (last)."""
    match = matched_bots(player or INITIAL)
    bots = [BotResult(s, lv, 60 + 5 * i) for i, (s, lv) in enumerate(match.bots)]
    after, counted = rate_game(player, 104 if won else 12, bots)
    assert counted == len(bots) and after is not None
    return after, match


def test_a_player_who_beats_the_matched_bots_meets_stronger_ones_next_time() -> None:
    rating, first = play(None, won=True)  # a newcomer's first game, won
    assert rating.mu > INITIAL.mu and rating.sigma < INITIAL.sigma
    second = matched_bots(rating)
    assert strength(second) > strength(first)
    for (_, before), (_, after) in zip(first.bots, second.bots, strict=True):
        assert LEVEL_ORDER.index(after) >= LEVEL_ORDER.index(before)


def test_a_player_who_loses_to_the_matched_bots_meets_weaker_ones_next_time() -> None:
    rating = Rating(26.0, 5.0)  # matched to a medium and two hard bots
    before = matched_bots(rating)
    after_rating, _ = play(rating, won=False)
    assert after_rating.mu < rating.mu
    after = matched_bots(after_rating)
    assert strength(after) < strength(before)


@given(
    mu=st.floats(min_value=-30, max_value=100, allow_nan=False),
    sigma=st.floats(min_value=0.5, max_value=9),
    won=st.booleans(),
)
def test_winning_never_brings_weaker_bots_and_losing_never_stronger(
    mu: float, sigma: float, won: bool
) -> None:
    rating = Rating(mu, sigma)
    after, match = play(rating, won)
    if won:
        assert after.mu > rating.mu and strength(matched_bots(after)) >= strength(match)
    else:
        assert after.mu < rating.mu and strength(matched_bots(after)) <= strength(match)


def test_each_bot_is_the_level_nearest_an_even_game() -> None:
    for rating in (INITIAL, Rating(-20, 3), Rating(45, 2), Rating(95, 4)):
        match = matched_bots(rating)
        chances = []
        for strategy, level in match.bots:
            skill = bot_rating(strategy, level)
            assert skill is not None
            chance = chance_to_beat(rating, skill)
            chances.append(chance)
            for other in Level:
                other_skill = bot_rating(strategy, other.value)
                assert other_skill is not None
                assert abs(chance - EVEN) <= abs(chance_to_beat(rating, other_skill) - EVEN)
        assert match.chance == pytest.approx(sum(chances) / len(chances))
    # Far weaker than every bot: the easiest; far stronger: the fastest.
    assert {lv for _, lv in matched_bots(Rating(-60, 2)).bots} == {"easy"}
    assert {lv for _, lv in matched_bots(Rating(150, 2)).bots} == {"expert"}


def test_the_bots_skills_are_the_calibrated_ones() -> None:
    stored = load_table()["ratings"]["watchful:hard"]
    assert bot_rating("watchful", "hard") == Rating(stored["mu"], stored["sigma"])
    assert bot_rating("greedy", "hard") is None  # never calibrated


def test_a_game_is_rated_by_the_groups_rule_from_the_totals() -> None:
    bots = [BotResult("watchful", "medium", 80), BotResult("stack-first", "hard", 104)]
    after, counted = rate_game(INITIAL, 80, bots)
    skills = [bot_rating("watchful", "medium"), bot_rating("stack-first", "hard")]
    # T6: equal totals share a place; the highest total is first.
    assert counted == 2
    assert after == rate_against(INITIAL, [2, 2, 1], [s for s in skills if s is not None])


def test_bots_never_calibrated_are_left_out_and_without_any_nothing_changes() -> None:
    rated = BotResult("watchful", "medium", 50)
    guest = BotResult("greedy", "expert", 200)
    with_guest, counted = rate_game(INITIAL, 100, [rated, guest])
    assert counted == 1 and with_guest == rate_game(INITIAL, 100, [rated])[0]
    assert rate_game(None, 100, [guest]) == (None, 0)
    kept = Rating(31.5, 4.0)
    assert rate_game(kept, 0, [guest]) == (kept, 0)


def test_a_rating_from_a_browser_is_checked() -> None:
    assert rating_from(30.0, 5.0) == Rating(30.0, 5.0)
    for mu, sigma in ((float("nan"), 5.0), (30.0, float("nan")), (1e9, 5.0), (30.0, 0.0)):
        assert rating_from(mu, sigma) is None
