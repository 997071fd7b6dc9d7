"""Bots never choose an illegal action; the only refusals are lost races (R3).

10,000 short random rounds (a quarter in the ``fast`` profile and the pure
pass: ``examples``) across every rule option, player count, strategy
and level. At each decision the chosen action is checked against the round
*at that moment* with ``Round.is_legal``; afterwards every refusal the
simulator met must have been ``PileTakenError`` — a race lost to a faster seat
between choosing and acting.
"""

from __future__ import annotations

import random

import pytest

from helpers.profiles import examples
from ligretto.bots import Bot, BotView, Decision, make_bot
from ligretto.bots.strategies import STRATEGIES
from ligretto.bots.timing import Level
from ligretto.rules import Round, RuleOptions
from ligretto.sim.engine import RoundLimits, simulate_round

ROUNDS = examples(10_000)
PARTS = 4
# Short rounds keep thousands of them quick; the opening of a round has as many
# decisions and races as its end.
LIMITS = RoundLimits(max_actions=90)


def _random_setup(rng: random.Random) -> tuple[list[Bot], RuleOptions]:
    options = RuleOptions(
        deck=rng.choice(["ligretto", "cards"]),
        row_refill=rng.choice(["auto", "manual"]),
        recycle_shuffle=rng.random() < 0.5,
        deadlock=rng.choice(["end", "reshuffle"]),
        row_storage=rng.random() < 0.5,
    )
    players = rng.choice([2, 2, 3, 3, 4, 4, 5, 6, 8, 12 if options.deck == "ligretto" else 16])
    names = sorted(STRATEGIES)
    bots = [make_bot(rng.choice(names), rng.choice(list(Level))) for _ in range(players)]
    return bots, options


@pytest.mark.parametrize("part", range(PARTS))
def test_bots_choose_only_actions_legal_when_chosen(part: int) -> None:
    checked = 0
    illegal: list[str] = []

    def check(now: float, seat: int, rnd: Round, view: BotView, decision: Decision) -> None:
        nonlocal checked
        action = decision.action
        if action is not None:
            checked += 1
            if not rnd.is_legal(seat, action):
                illegal.append(f"seat {seat} chose {action} at {now:.2f}s")

    races = 0
    for index in range(part, ROUNDS, PARTS):
        rng = random.Random(index)
        bots, options = _random_setup(rng)
        record = simulate_round(bots, index, options, limits=LIMITS, observer=check)
        assert not illegal, (index, illegal[:3])
        assert sum(record.refused) == 0, (index, record)
        races += sum(record.races_lost)
    assert checked > 50 * (ROUNDS // PARTS)
    assert races > 0  # races did happen, and every one of them was a PileTakenError
