"""Whole simulated games end as the Tafel's T4/T5 rules say."""

from __future__ import annotations

from itertools import accumulate

import pytest

from ligretto.bots import make_bot
from ligretto.sim.game import GameStoppedError
from ligretto.sim.report import RoundRecord
from ligretto.sim.summary import summarize
from ligretto.simulate.run import GameSettings, SimConfig, play_game, run_games
from ligretto.tafel import Mode

BOTS = ["stack-first:hard", "greedy:medium", "mine:hard"]


def _running(game_rounds: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    return list(
        accumulate(game_rounds, lambda a, b: tuple(x + y for x, y in zip(a, b, strict=True)))
    )


def test_t4_target_game_ends_after_the_first_round_with_a_single_leader_at_the_target() -> None:
    config = SimConfig.from_names(BOTS, seed=3)
    games = run_games(config, 12, GameSettings(Mode.TARGET, target=50))
    for game in games:
        totals = _running([r.points for r in game.rounds])
        assert game.totals == totals[-1]
        reached = False
        for n, t in enumerate(totals):
            reached = reached or max(t) >= 50
            decided = reached and t.count(max(t)) == 1
            # T4: the game ends exactly after the first deciding round
            assert decided == (n == len(totals) - 1)
        top = max(game.totals)
        assert game.winners == (game.totals.index(top),)


def test_t5_rounds_game_plays_the_agreed_rounds_and_a_tie_shares_the_victory() -> None:
    config = SimConfig.from_names(["stack-first:hard", "stack-first:hard"], seed=1)
    games = run_games(config, 40, GameSettings(Mode.ROUNDS, agreed_rounds=1))
    for game in games:
        assert len(game.rounds) == 1
        top = max(game.totals)
        assert game.winners == tuple(s for s, t in enumerate(game.totals) if t == top)
    assert any(len(g.winners) == 2 for g in games)  # ties happen and are shared


def test_games_are_the_same_with_one_and_two_workers_and_summarize() -> None:
    config = SimConfig.from_names(BOTS, seed=5)
    settings = GameSettings(Mode.ROUNDS, agreed_rounds=3)
    one = run_games(config, 9, settings)
    assert one == run_games(config, 9, settings, workers=2)
    report = summarize(config.labels, [], one, mode="rounds", agreed_rounds=3)
    assert report.games is not None and report.games.games == 9
    assert report.rounds == 27
    shares = [s.game_wins.successes for s in report.seats if s.game_wins is not None]
    assert abs(sum(shares) - 9) < 1e-9  # every game's victory is handed out once
    assert make_bot(BOTS[2]).strategy.name == "watchful"


def test_a_game_stops_when_asked_after_a_round() -> None:
    config = SimConfig.from_names(BOTS, seed=5)
    seen: list[RoundRecord] = []

    def three_rounds(record: RoundRecord) -> bool:
        seen.append(record)
        return len(seen) < 3

    ten = GameSettings(Mode.ROUNDS, agreed_rounds=10)
    with pytest.raises(GameStoppedError) as stopped:
        play_game(config, ten, config.make_bots(), 0, three_rounds)
    assert stopped.value.rounds == tuple(seen) and len(seen) == 3
    # the rounds it played are the game's own first rounds
    whole = play_game(config, ten, config.make_bots(), 0)
    assert whole.rounds[:3] == tuple(seen)
