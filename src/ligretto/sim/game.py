"""Whole games: round after round on the Tafel until its outcome ends the game.

The Tafel (``ligretto.tafel.Game``) is the one implementation of scoring
totals and of the outcome rules — T4 (target: after a round in which someone
has the target, the highest total wins; a tie at the top plays on until one
alone leads) and T5 (rounds: after the agreed rounds, most points wins, a tie
shares the victory). The simulator only enters each simulated round's counts
the way a table would (T2 stacks first, then T3 the middle) and asks the
Tafel whether the game is over. A game under house rules the Tafel cannot
hold (``ligretto.sim.house``: two sets, another stack penalty) adds its
own points up and asks the Tafel's outcome rules (``ligretto.tafel.outcome``)
instead.

Between rounds each seat's cards come back and are shuffled by the seat's
model (``ligretto.sim.decks``); with every seat shuffling uniformly (the
default) each round is dealt from its own seed, as always.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ligretto.bots import Bot
from ligretto.rules import Round, RuleOptions
from ligretto.sim.decks import ShuffleModel, round_decks
from ligretto.sim.engine import RoundLimits, play_dealt
from ligretto.sim.house import HouseRules
from ligretto.sim.report import GameRecord, RoundRecord
from ligretto.sim.seeds import derive_seed
from ligretto.tafel import Game, Mode
from ligretto.tafel.limits import DEFAULT_TARGET
from ligretto.tafel.outcome import after_round, leaders

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
    house: HouseRules | None = None,
    shuffles: Sequence[ShuffleModel] = (),
) -> GameRecord:
    """Play rounds until the Tafel says the game is finished (T4/T5).

    Round ``r`` of the game is dealt with ``derive_seed(seed, r)`` (from
    the decks of the round before when a seat's shuffle model in
    ``shuffles`` is not uniform). When ``keep_going`` answers ``False``
    after a round, the game stops there with :class:`GameStoppedError`.
    """
    options = options or RuleOptions()
    house = house or HouseRules()
    mode = Mode(mode)
    n = len(bots)
    carried = any(not model.uniform for model in shuffles)
    # Made in any case: it checks the game's target or rounds (T1).
    tafel = Game(
        seat_names(bots),
        mode=mode,
        target=target,
        agreed_rounds=agreed_rounds,
        deck=options.deck,
        row_storage=options.row_storage,
    )
    game = tafel if house.fit_the_tafel else None
    goal = (target or DEFAULT_TARGET) if mode is Mode.TARGET else None
    totals = [0] * n
    reached = decided = False
    rounds: list[RoundRecord] = []
    previous: Round | None = None
    while not (game.finished if game is not None else decided):
        if len(rounds) >= MAX_GAME_ROUNDS:
            if game is not None:
                game.finish()  # T5 "Beenden" closes the game as it stands
            break
        r = len(rounds)
        round_seed = derive_seed(seed, r)
        decks = round_decks(n, round_seed, sets=house.sets, models=shuffles, previous=previous)
        rnd = Round.deal(n, round_seed, options, decks)
        record = play_dealt(rnd, bots, round_seed, index=r, limits=limits, house=house)
        previous = rnd if carried else None
        rounds.append(record)
        if keep_going is not None and not keep_going(record):
            raise GameStoppedError(rounds)
        if game is not None:
            number = game.open_round(list(record.stack)).number  # T2: stacks first
            # T3: the middle; a simulated round is real play, so it is plausible by
            # construction — ``confirm`` only matters for a stalled round.
            game.complete_round(number, list(record.middle), confirm=record.stalled)
            continue
        for s, points in enumerate(record.points):  # the house rules' points
            totals[s] += points
        if goal is not None:
            reached, decided = after_round(totals, goal, reached)  # T4
        else:
            decided = len(rounds) >= (agreed_rounds or 0)  # T5
    if game is not None:
        winners = tuple(game.seat_of(name) for name in game.winners)
        final = game.totals
    else:
        winners = leaders(totals)  # T5; a stopped target game is ranked so too (T4)
        final = tuple(totals)
    return GameRecord(index=index, seed=seed, rounds=tuple(rounds), totals=final, winners=winners)
