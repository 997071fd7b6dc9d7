"""R4: a stall the table agrees on ("We're stuck") is settled like a deadlock.

``Round.settle_stuck`` is the engine's side of it: R4's ``deadlock`` option
applies as for a detected deadlock, it is refused once the round is over,
and the log (``(None, STUCK)``) replays it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.layout import build, pile, seat
from helpers.profiles import examples
from ligretto.rules import (
    CARDS,
    STUCK,
    Action,
    Deadlock,
    Event,
    IllegalActionError,
    Play,
    Reshuffled,
    Round,
    RoundEnded,
    RoundOverError,
    RuleOptions,
    Store,
    Termination,
)

STORAGE = RuleOptions(row_storage=True)


def greedy_without_storage(r: Round, actions: int) -> None:
    """The first legal play, else a refill, turn or recycle — never a store."""
    for step in range(actions):
        if r.is_over:
            return
        s = step % r.players
        legal = [a for a in r.legal_actions(s) if not isinstance(a, Store)]
        if legal:
            r.apply(s, legal[0])


def cards_of_each_seat(r: Round) -> list[Counter[str]]:
    """Every seat's cards over its places and the middle (by owner)."""
    snap = r.snapshot()
    owned = [Counter[str]() for _ in range(r.players)]
    for s, places in enumerate(snap["seats"]):
        owned[s].update(places["stack"] + places["hand"] + places["discard"])
        owned[s].update(c for cell in places["row"] for c in cell)
    for heap in snap["middle"]:
        for entry in heap["cards"]:
            owned[entry["owner"]][entry["card"]] += 1
    return owned


def assert_every_card_once(r: Round) -> None:
    deck = Counter(str(c) for c in CARDS[r.options.deck])
    for s, owned in enumerate(cards_of_each_seat(r)):
        assert owned == deck, s


def test_r4_greedy_play_without_storing_stalls_under_r6_yet_is_no_deadlock() -> None:
    # The example: nobody stores, so nothing goes to the middle any
    # more, but a store would move a card on, so R4 rightly sees no deadlock.
    r = Round.deal(2, 25, STORAGE)
    greedy_without_storage(r, 3000)
    assert not r.is_over and not r.is_deadlocked()
    middle = sum(s.middle for s in r.result().seats)
    greedy_without_storage(r, 600)
    assert sum(s.middle for s in r.result().seats) == middle  # stalled
    events = r.settle_stuck()
    assert events == (Deadlock(), RoundEnded(None, True))
    assert r.is_over and r.legal_actions(0) == [] and r.legal_actions(1) == []
    assert_every_card_once(r)


def test_r4_stuck_under_end_ends_without_caller_scored_as_it_lies() -> None:
    r = Round.deal(4, 11)
    greedy_without_storage(r, 40)
    before = r.result()
    assert not before.over
    assert [str(e) for e in r.settle_stuck()] == ["deadlock", "round-over deadlock"]
    after = r.result()
    assert after.termination is Termination.DEADLOCK and after.caller is None
    assert after.seats == before.seats  # R5: scored as it lies
    snap = r.snapshot()
    assert snap["over"] and snap["deadlock"] and snap["caller"] is None
    assert r.view(0).deadlock and r.view(None).is_over


def test_r4_stuck_under_reshuffle_reshuffles_every_hand_and_play_goes_on() -> None:
    options = RuleOptions(deadlock="reshuffle")
    r = Round.deal(3, 4, options)
    greedy_without_storage(r, 60)
    before = r.snapshot()
    events = r.settle_stuck()
    assert events == (Deadlock(), Reshuffled(1))
    assert not r.is_over and r.reshuffles == 1
    after = r.snapshot()
    for old, new in zip(before["seats"], after["seats"], strict=True):
        # hand and discard together, shuffled into the hand; nothing else moves
        assert sorted(new["hand"]) == sorted(old["hand"] + old["discard"])
        assert new["discard"] == []
        assert (new["stack"], new["row"]) == (old["stack"], old["row"])
    assert after["middle"] == before["middle"]
    assert after["reshuffle_mark"] == after["moves"]
    assert any(r.legal_actions(s) for s in range(3))
    assert_every_card_once(r)


def test_r4_stuck_reshuffle_is_the_same_shuffle_as_for_a_detected_deadlock() -> None:
    # Both go through one resolution: the same seed and state give the same hands.
    options = RuleOptions(deadlock="reshuffle")
    r = Round.deal(2, 9, options)
    greedy_without_storage(r, 30)
    twin = r.copy()
    r.settle_stuck()
    events: list[Event] = []
    twin._resolve_deadlock(events)  # what a detected deadlock runs after its Deadlock event
    assert events == [Reshuffled(1)]
    assert [s["hand"] for s in r.snapshot()["seats"]] == [
        s["hand"] for s in twin.snapshot()["seats"]
    ]


def test_r4_stuck_again_without_a_card_moved_ends_the_round() -> None:
    # No endless reshuffling: a reshuffle needs a card moved since the last one.
    r = Round.deal(2, 3, RuleOptions(deadlock="reshuffle"))
    assert r.settle_stuck() == (Deadlock(), Reshuffled(1))
    assert r.settle_stuck() == (Deadlock(), RoundEnded(None, True))
    assert r.result().termination is Termination.DEADLOCK


def test_r4_stuck_under_reshuffle_ends_when_reshuffling_cannot_help() -> None:
    # Only seat 0's row R10 fits (pile 0); no hand or discard card fits the
    # middle, so reshuffling cannot help (R4) and the round ends.
    r = build(
        [
            seat("Y1 B1 B2 B7", ["R10", "B9", "B8", "Y9", "Y8"]),
            seat("Y1 B1 B9", ["B10", "Y10", "B8", "Y9", "Y8"]),
        ],
        middle=[pile("R", 9, 0), pile("G", 10, 0), pile("R", 10, 1), pile("G", 10, 1)],
        options=RuleOptions(deadlock="reshuffle"),
    )
    assert not r.is_deadlocked()
    assert r.settle_stuck() == (Deadlock(), RoundEnded(None, True))
    assert r.reshuffles == 0 and r.result().termination is Termination.DEADLOCK


def test_r4_stuck_is_refused_once_the_round_is_over_and_changes_nothing() -> None:
    r = Round.deal(2, 5)
    r.settle_stuck()
    snap, log = r.snapshot(), r.log
    with pytest.raises(RoundOverError):
        r.settle_stuck()
    assert r.snapshot() == snap and r.log == log


def test_r4_stuck_is_no_seats_move() -> None:
    r = Round.deal(2, 5)
    assert Action.parse("stuck") is STUCK and str(STUCK) == "stuck"
    assert STUCK not in r.legal_actions(0)
    assert not r.is_legal(0, STUCK)
    snap = r.snapshot()
    with pytest.raises(IllegalActionError, match="settle_stuck"):
        r.apply(0, STUCK)
    assert r.snapshot() == snap and r.log == ()


def test_r4_stuck_replays_from_the_log_and_its_text() -> None:
    options = RuleOptions(deadlock="reshuffle", row_storage=True)
    r = Round.deal(3, 21, options)
    greedy_without_storage(r, 50)
    r.settle_stuck()
    greedy_without_storage(r, 50)
    assert (None, STUCK) in r.log
    again = Round.replay(3, 21, options, r.log)
    assert again.snapshot() == r.snapshot()
    text = [(s, str(a)) for s, a in r.log]
    assert Round.replay(3, 21, options, text).snapshot() == r.snapshot()
    with pytest.raises(IllegalActionError):
        Round.replay(3, 21, options, [(None, "turn")])
    with pytest.raises(IllegalActionError):
        Round.replay(3, 21, options, [(0, "stuck")])


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    driver=st.integers(0, 2**32),
    deadlock=st.sampled_from(["end", "reshuffle"]),
    row_storage=st.booleans(),
    recycle_shuffle=st.booleans(),
    steps=st.integers(0, 300),
)
def test_r4_every_card_stays_exactly_once_through_stuck_settlements(
    players: int,
    seed: int,
    driver: int,
    deadlock: str,
    row_storage: bool,
    recycle_shuffle: bool,
    steps: int,
) -> None:
    options = RuleOptions(
        deadlock=deadlock,  # type: ignore[arg-type]
        row_storage=row_storage,
        recycle_shuffle=recycle_shuffle,
    )
    rng = random.Random(driver)
    r = Round.deal(players, seed, options)
    for step in range(steps + 200):
        if r.is_over:
            break
        if step == steps or (step > steps and rng.random() < 0.02):
            r.settle_stuck()
        else:
            s = rng.randrange(players)
            legal = r.legal_actions(s)
            if legal:
                plays = [a for a in legal if isinstance(a, Play)]
                r.apply(s, rng.choice(plays or legal))
        assert_every_card_once(r)
    assert Round.replay(players, seed, options, r.log).snapshot() == r.snapshot()
