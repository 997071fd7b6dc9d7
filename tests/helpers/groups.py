"""Groups of simulated games: members are bots of known strength (``ligretto.sim``).

``simulated_group(n_games)`` plays games with 4–8 of the members, seated
in a random order, through the simulator's game mode, and enters each
simulated round on a Tafel game with the members' names, as a table would
(T2 stacks first, then T3 the middle).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from ligretto.bots import make_bot
from ligretto.sim.game import simulate_game
from ligretto.tafel import Game, Mode
from ligretto.tafel.stats import PlayedGame

LEVELS = ("easy", "medium", "hard", "expert")
"""The bot levels from weakest to strongest (docs/bots.md)."""

MEMBERS: tuple[tuple[str, str], ...] = tuple(
    (f"{level.capitalize()} {i}", level) for level in LEVELS for i in (1, 2)
)
"""Eight members, two per level: (name, level)."""

START = datetime(2025, 1, 1, 19, 0, tzinfo=UTC)


def replay(
    players: list[str],
    record_rounds: list[tuple[tuple[int, ...], tuple[int, ...], bool]],
    *,
    mode: str,
    target: int | None,
    agreed: int | None,
) -> Game:
    """A Tafel game with *players* and the given rounds (stacks, middle, confirm)."""
    game = Game(players, mode=mode, target=target, agreed_rounds=agreed)
    for stacks, middle, confirm in record_rounds:
        n = game.open_round(list(stacks)).number
        game.complete_round(n, list(middle), confirm=confirm)
    return game


def simulated_group(
    n_games: int, *, seed: int = 7, strategy: str = "greedy"
) -> tuple[list[str], list[PlayedGame]]:
    """The member names and *n_games* games among them, one every two days."""
    rng = random.Random(seed)
    names = [name for name, _ in MEMBERS]
    level_of = dict(MEMBERS)
    games: list[PlayedGame] = []
    for index in range(n_games):
        seated = rng.sample(names, rng.randint(4, 8))
        bots = [make_bot(f"{strategy}:{level_of[name]}") for name in seated]
        if index % 3 == 0:
            mode, target, agreed = Mode.ROUNDS.value, None, rng.randint(1, 4)
        else:
            mode, target, agreed = Mode.TARGET.value, 30, None
        record = simulate_game(
            bots, rng.randrange(2**32), mode=mode, target=target, agreed_rounds=agreed
        )
        rounds = [(r.stack, r.middle, r.stalled) for r in record.rounds]
        game = replay(seated, rounds, mode=mode, target=target, agreed=agreed)
        played_at = START + timedelta(days=2 * index, minutes=rng.randrange(120))
        games.append(PlayedGame(f"g{index:04d}", played_at, game))
    return names, games
