"""Invariants of the Tafel over random games (Hypothesis): T4–T6."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.profiles import examples
from ligretto.tafel import Game, Mode, RoundOrderError, Status, describe, from_description


@st.composite
def round_counts(draw: st.DrawFn, players: int) -> tuple[list[int], list[int]]:
    """A plausible round (T2/T3): at most one caller, 10 − stack ≤ middle ≤ 40 − stack."""
    caller = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    stacks = [0 if seat == caller else draw(st.integers(1, 10)) for seat in range(players)]
    middle = [draw(st.integers(10 - s, 40 - s)) for s in stacks]
    return stacks, middle


@st.composite
def games(draw: st.DrawFn) -> Game:
    players = draw(st.integers(2, 5))
    if draw(st.booleans()):
        game = Game([f"P{i}" for i in range(players)], target=draw(st.sampled_from([50, 99])))
    else:
        game = Game(
            [f"P{i}" for i in range(players)],
            mode=Mode.ROUNDS,
            agreed_rounds=draw(st.integers(1, 8)),
        )
    for _ in range(draw(st.integers(0, 12))):
        if not game.accepts_new_round:
            break
        stacks, middle = draw(round_counts(players))
        rnd = game.open_round(stacks)
        if draw(st.integers(0, 9)) > 0:
            game.complete_round(rnd.number, middle)
    return game


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_t4_totals_are_the_sum_of_round_points(game: Game) -> None:
    expected = [0] * len(game.players)
    for rnd in game.rounds:
        if rnd.points is not None:
            expected = [t + p for t, p in zip(expected, rnd.points, strict=True)]
    assert list(game.totals) == expected
    running = [t for t in game.running_totals() if t is not None]
    assert (running[-1] if running else tuple(expected)) == tuple(expected)


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_t6_ranks_are_consistent_with_totals(game: Game) -> None:
    totals, ranks = game.totals, game.ranks
    for a in range(len(totals)):
        for b in range(len(totals)):
            assert (totals[a] > totals[b]) == (ranks[a] < ranks[b])
            assert (totals[a] == totals[b]) == (ranks[a] == ranks[b])
        # Competition ranking: rank = 1 + number of players strictly ahead.
        assert ranks[a] == 1 + sum(t > totals[a] for t in totals)


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_t4_t5_winners_hold_the_top_total_exactly_when_finished(game: Game) -> None:
    if game.status is Status.FINISHED:
        top = max(game.totals)
        assert set(game.winners) == {
            p for p, t in zip(game.players, game.totals, strict=True) if t == top
        }
        if game.mode is Mode.TARGET:
            assert len(game.winners) == 1
            assert game.decided_after == game.complete_rounds
    else:
        assert game.winners == ()


@settings(max_examples=examples(100), deadline=None)
@given(games())
def test_t6_export_reimports_to_the_same_game(game: Game) -> None:
    assert describe(from_description(describe(game))) == describe(game)


@settings(max_examples=examples(100), deadline=None)
@given(games())
def test_t6_removing_the_last_round_restores_the_previous_totals(game: Game) -> None:
    if not game.rounds:
        return
    before = game.running_totals()
    game.remove_last_round()
    previous = [t for t in before[:-1] if t is not None]
    assert game.totals == (previous[-1] if previous else (0,) * len(game.players))
    try:
        game.open_round([0] + [5] * (len(game.players) - 1))
    except RoundOrderError:
        # Only a decided target game or a full rounds game may refuse a round.
        assert game.status is Status.FINISHED


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_t4_totals_kept_round_by_round_equal_a_fresh_count(game: Game) -> None:
    fresh = Game.restore(
        game.players,
        mode=game.mode,
        target=game.target,
        agreed_rounds=game.agreed_rounds,
        deck=game.deck,
        row_storage=game.row_storage,
        rounds=game.rounds,
        closed=game.closed,
        scored=game.scored,
    )
    assert describe(fresh) == describe(game)
