"""Whole games: round after round on the Tafel until its outcome ends the game.

The Tafel (``ligretto.tafel.Game``) is the one implementation of scoring
totals and of the outcome rules — T4 (target: after a round in which someone
has the target, the highest total wins; a tie at the top plays on until one
alone leads) and T5 (rounds: after the agreed rounds, most points wins, a tie
shares the victory). The simulator only enters each simulated round's counts
the way a table would (T2 stacks first, then T3 the middle) and asks the
Tafel whether the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ligretto.bots import Bot
from ligretto.rules import RuleOptions
from ligretto.sim.engine import RoundLimits, simulate_round
from ligretto.sim.report import GameRecord, RoundRecord
from ligretto.sim.seeds import derive_seed
from ligretto.tafel import Game, Mode

__all__ = ["MAX_GAME_ROUNDS", "GameStoppedError", "KeepGoing", "simulate_game"]

#: A guard against a game that never ends (a T4 tie-break could in principle
#: go on for ever); far beyond any real game.
MAX_GAME_ROUNDS = 1000

KeepGoing = Callable[[RoundRecord], bool]
"""Asked after every round of a game with that round's record: ``False``
stops the game there (the lab's budget of simulated actions)."""


class GameStoppedError(Exception):
    """A game stopped before its end because ``keep_going`` said so.

    ``rounds`` holds the rounds it played; the game has no outcome.
    """

    def __init__(self, rounds: Sequence[RoundRecord]) -> None:
        super().__init__(f"stopped after {len(rounds)} rounds")
        self.rounds = tuple(rounds)


def seat_names(bots: Sequence[Bot]) -> list[str]:
    """Unique player names for the Tafel (T1): seat number and bot."""
    return [f"{seat + 1} {bot.spec}" for seat, bot in enumerate(bots)]


def simulate_game(
    bots: Sequence[Bot],
    seed: int,
    options: RuleOptions | None = None,
    *,
    index: int = 0,
    mode: Mode | str = Mode.TARGET,
    target: int | None = None,
    agreed_rounds: int | None = None,
    limits: RoundLimits | None = None,
    keep_going: KeepGoing | None = None,
) -> GameRecord:
    """Play rounds until the Tafel says the game is finished (T4/T5).

    Round ``r`` of the game is dealt with ``derive_seed(seed, r)``. When
    ``keep_going`` answers ``False`` after a round, the game stops there
    with :class:`GameStoppedError`.
    """
    options = options or RuleOptions()
    game = Game(
        seat_names(bots),
        mode=mode,
        target=target,
        agreed_rounds=agreed_rounds,
        deck=options.deck,
        row_storage=options.row_storage,
    )
    rounds: list[RoundRecord] = []
    while not game.finished:
        if len(rounds) >= MAX_GAME_ROUNDS:
            game.finish()  # T5 "Beenden" closes the game as it stands
            break
        r = len(rounds)
        record = simulate_round(bots, derive_seed(seed, r), options, index=r, limits=limits)
        rounds.append(record)
        if keep_going is not None and not keep_going(record):
            raise GameStoppedError(rounds)
        number = game.open_round(list(record.stack)).number  # T2: stacks first
        # T3: the middle; a simulated round is real play, so it is plausible by
        # construction — ``confirm`` only matters for a stalled round.
        game.complete_round(number, list(record.middle), confirm=record.stalled)
    winners = tuple(game.seat_of(name) for name in game.winners)
    return GameRecord(
        index=index,
        seed=seed,
        rounds=tuple(rounds),
        totals=game.totals,
        winners=winners,
    )
