"""A seat's own speed and attentiveness: a bot faster than its level, a bot that overlooks cards."""

from __future__ import annotations

import random

import pytest

from ligretto.bots import LEVELS, Bot, Level, make_bot
from ligretto.bots.bot import Inattentive
from ligretto.rules import Play, Round, Turn


def test_a_faster_bot_takes_its_levels_times_divided_by_its_speed() -> None:
    medium = LEVELS[Level.MEDIUM]
    quick = medium.scaled(1.5)
    assert quick.level is Level.MEDIUM and quick.sigma == medium.sigma
    assert quick.notice_median == pytest.approx(medium.notice_median / 1.5)
    assert quick.turn_median == pytest.approx(medium.turn_median / 1.5)
    rnd = Round.deal(4, 5)
    plain, fast = make_bot("stack-first:medium"), make_bot("stack-first:medium", speed=1.5)
    for seed in range(20):
        a, slow_delay = plain.timed(rnd.view(0), random.Random(seed))
        b, fast_delay = fast.timed(rnd.view(0), random.Random(seed))
        assert a == b and fast_delay == pytest.approx(slow_delay / 1.5)


@pytest.mark.parametrize("speed", [0, -1, 11, float("nan")])
def test_a_speed_out_of_range_is_refused(speed: float) -> None:
    with pytest.raises(ValueError, match="speed factor"):
        make_bot("greedy", speed=speed)


def test_a_bot_that_never_overlooks_is_the_plain_bot() -> None:
    assert type(make_bot("greedy:hard")) is Bot
    assert type(make_bot("greedy:hard", overlook=0.2)) is Inattentive
    with pytest.raises(ValueError, match="overlooking is 0 to 1"):
        make_bot("greedy", overlook=1.5)


def test_r3_an_overlooked_card_leaves_the_seat_turning() -> None:
    rnd = Round.deal(2, 3)
    seat = next(s for s in range(2) if any(type(a) is Play for a in rnd.legal_actions(s)))
    blind = make_bot("stack-first:medium", overlook=1.0)
    sharp = make_bot("stack-first:medium", overlook=0.0)
    action, delay = blind.timed(rnd.view(seat), random.Random(1))
    assert type(action) is Turn and delay > 0  # it saw nothing to play
    assert type(sharp.timed(rnd.view(seat), random.Random(1))[0]) is Play
