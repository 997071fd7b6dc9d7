"""Hypothesis: whole rounds under every option combination keep the rules' invariants."""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.profiles import examples
from ligretto.rules import (
    CARDS,
    Action,
    Card,
    DeckKind,
    Event,
    PileTakenError,
    Play,
    Round,
    RoundOverError,
    RuleError,
    RuleOptions,
    Source,
    Store,
    Termination,
    Turn,
    row_size,
)


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, int, RuleOptions, int]:
    deck: DeckKind = draw(st.sampled_from(["ligretto", "cards"]))
    options = RuleOptions(
        deck=deck,
        row_refill=draw(st.sampled_from(["auto", "manual"])),
        recycle_shuffle=draw(st.booleans()),
        deadlock=draw(st.sampled_from(["end", "reshuffle"])),
        row_storage=draw(st.booleans()),
    )
    players = draw(st.integers(options.min_players, options.max_players))
    return players, draw(st.integers(0, 2**32)), options, draw(st.integers(0, 2**32))


def max_actions(players: int) -> int:
    """A generous bound for the driver below; random play ends far sooner."""
    return 1500 * players


def colour_value(text: str) -> tuple[str, int]:
    return text[0], int(text[1:])


def check_invariants(r: Round) -> dict[str, Any]:
    snap = r.snapshot()
    players = snap["players"]
    deck = sorted(str(c) for c in CARDS[r.options.deck])
    owned: list[list[str]] = [[] for _ in range(players)]
    middle = [0] * players
    for p in snap["middle"]:
        cards = [colour_value(e["card"]) for e in p["cards"]]
        # R3: one colour, strictly ascending from 1 by one, never above 10
        assert len({c for c, _ in cards}) == 1
        assert [v for _, v in cards] == list(range(1, len(cards) + 1))
        assert len(cards) <= 10
        for e in p["cards"]:
            owned[e["owner"]].append(e["card"])
            middle[e["owner"]] += 1
    result = r.result()
    view = r.view(None)
    for s, seat in enumerate(snap["seats"]):
        assert len(seat["stack"]) <= 10
        assert len(seat["row"]) == row_size(players)
        for cell in seat["row"]:
            if not r.options.row_storage:
                assert len(cell) <= 1
            for lower, upper in itertools.pairwise(cell):
                (lc, lv), (uc, uv) = colour_value(lower), colour_value(upper)
                assert uv < lv and uc != lc  # R6
        if r.options.row_refill == "auto" and seat["stack"]:
            assert all(seat["row"])  # R3: gaps are refilled at once
        owned[s] += seat["stack"] + [c for cell in seat["row"] for c in cell]
        owned[s] += seat["hand"] + seat["discard"]
        # every one of the seat's 40 cards in exactly one place
        assert sorted(owned[s]) == deck
        # R5 scoring
        sr = result.seats[s]
        assert (sr.middle, sr.stack) == (middle[s], len(seat["stack"]))
        assert sr.points == middle[s] - 2 * len(seat["stack"])
        # the view agrees with the state
        sv = view.seats[s]
        assert sv.stack_count == len(seat["stack"]) and sv.hand_count == len(seat["hand"])
        assert sv.discard_count == len(seat["discard"])
        assert (str(sv.discard_top) if sv.discard_top else None) == (
            seat["discard"][-1] if seat["discard"] else None
        )
        assert (str(sv.stack_top) if sv.stack_top else None) == (
            seat["stack"][-1] if seat["stack"] else None
        )
        assert [(str(p.top) if p.top else None, p.depth) for p in sv.row] == [
            (cell[-1] if cell else None, len(cell)) for cell in seat["row"]
        ]
        assert sv.middle_count == middle[s]
    assert [(p.id, str(p.top), p.count, p.closed) for p in view.middle] == [
        (m["id"], m["cards"][-1]["card"], len(m["cards"]), len(m["cards"]) == 10)
        for m in snap["middle"]
    ]
    for s in range(players):
        assert r.view(s).to_dict()["seats"] == view.to_dict()["seats"]
    if r.is_over:
        assert result.termination is (
            Termination.DEADLOCK if result.caller is None else Termination.STOP
        )
        if result.caller is not None:
            assert result.seats[result.caller].stack == 0
    return snap


def check_indexes(r: Round, snap: dict[str, Any]) -> None:
    """The incrementally kept indexes equal a rebuild from scratch."""
    # White-box on purpose: Round keeps these indexes private and offers no
    # public view of them; legal_actions below is their public effect.
    fresh = Round.from_snapshot(snap)
    for name in ("_need", "_avail", "_fit", "_open", "_open_fit", "_fitting"):
        assert getattr(r, name) == getattr(fresh, name), name
    for seat in range(r.players):
        assert fresh.legal_actions(seat) == r.legal_actions(seat)


def candidates(r: Round, seat: int, snap: dict[str, Any]) -> list[Action]:
    """Plays and stores of every open card of ``seat`` to every pile and row position."""
    s = snap["seats"][seat]
    open_cards: list[tuple[str, Source, int | None]] = []
    for position, cell in enumerate(s["row"]):
        if cell:
            open_cards.append((cell[-1], Source.ROW, position))
    if s["stack"]:
        open_cards.append((s["stack"][-1], Source.STACK, None))
    if s["discard"]:
        open_cards.append((s["discard"][-1], Source.DISCARD, None))
    out: list[Action] = []
    for text, source, slot in open_cards:
        card = Card.parse(text)
        if card.value == 1:
            out.append(Play(card, source, slot, None))
        else:
            out.extend(Play(card, source, slot, p) for p in range(len(snap["middle"]) + 1))
        if source is not Source.ROW:
            out.extend(Store(card, source, slot_) for slot_ in range(row_size(r.players)))
    return out


def drive(
    players: int,
    seed: int,
    options: RuleOptions,
    driver: int,
    deep: bool,
    lost_races: list[int] | None = None,
) -> Round:
    """Random legal play, preferring a play to the middle; checks every step.

    ``deep`` also tries every action that could be named (``candidates``) and
    appends to ``lost_races`` how many of them were lost races at each step."""
    if lost_races is None:
        lost_races = []
    rng = random.Random(driver)
    r = Round.deal(players, seed, options)
    snap = check_invariants(r)
    recent: list[Action] = []
    steps = 0
    while not r.is_over:
        seat = rng.randrange(players)
        legal = r.legal_actions(seat)
        if not legal:
            # A seat whose hand and discard are used up and whose open cards
            # fit nowhere waits; somebody else must have something to do.
            assert any(r.legal_actions(s) for s in range(players))
            continue
        legal_set = set(legal)
        # an illegal or stale action changes nothing
        for action in rng.sample(recent, min(3, len(recent))):
            if action not in legal_set:
                assert not r.is_legal(seat, action)
                try:
                    r.apply(seat, action)
                except RuleError:
                    pass
                else:
                    raise AssertionError(f"{action} was applied but is not legal")
                assert r.snapshot() == snap
        if deep:
            check_indexes(r, snap)
            races = 0
            for action in candidates(r, seat, snap):
                assert r.is_legal(seat, action) == (action in legal_set), action
                if isinstance(action, Play):
                    # race_lost says, without raising, what apply would raise (R3)
                    taken = False
                    if action not in legal_set:
                        try:
                            r.apply(seat, action)
                        except PileTakenError:
                            taken = True
                        except RuleError:
                            pass
                    assert r.race_lost(seat, action) == taken, action
                    races += taken
            assert r.snapshot() == snap
            lost_races.append(races)
        plays = [a for a in legal if isinstance(a, Play)]
        action = rng.choice(plays or legal)
        assert Action.parse(str(action)) == action
        events = r.apply(seat, action)
        assert events
        for event in events:
            assert Event.parse(str(event)) == event
        recent = [*recent[-7:], action]
        snap = check_invariants(r)
        steps += 1
        assert steps <= max_actions(players), "the round did not end"
    for seat in range(players):
        assert r.legal_actions(seat) == []
        try:
            r.apply(seat, Turn())
        except RoundOverError:
            pass
        else:
            raise AssertionError("an action was accepted after the round ended")
    return r


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_r1_to_r6_invariants_hold_through_whole_random_rounds(
    setup: tuple[int, int, RuleOptions, int],
) -> None:
    players, seed, options, driver = setup
    drive(players, seed, options, driver, deep=False)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups().filter(lambda s: s[0] <= 4))
def test_r3_legal_actions_list_exactly_what_apply_accepts(
    setup: tuple[int, int, RuleOptions, int],
) -> None:
    players, seed, options, driver = setup
    drive(players, seed, options, driver, deep=True)


def test_r3_the_deep_check_meets_lost_races() -> None:
    """``race_lost`` is checked on real lost races, not only on refusals."""
    lost_races: list[int] = []
    drive(4, 1, RuleOptions(), 3, deep=True, lost_races=lost_races)
    assert sum(lost_races) > 0


@settings(max_examples=examples(50), deadline=None)
@given(setup=setups())
def test_replay_of_the_log_rebuilds_an_identical_round(
    setup: tuple[int, int, RuleOptions, int],
) -> None:
    players, seed, options, driver = setup
    rng = random.Random(driver)
    r = Round.deal(players, seed, options)
    for _ in range(rng.randrange(1, 400)):
        if r.is_over:
            break
        seat = rng.randrange(players)
        legal = r.legal_actions(seat)
        plays = [a for a in legal if isinstance(a, Play)]
        r.apply(seat, rng.choice(plays or legal))
    again = Round.replay(players, seed, options, r.log)
    assert again.snapshot() == r.snapshot()
    as_text = Round.replay(players, seed, options, [(s, str(a)) for s, a in r.log])
    assert as_text.snapshot() == r.snapshot()
    assert again.result() == r.result()
    # the copy plays on exactly like the original (same future shuffles)
    if not r.is_over:
        twin = r.copy()
        for _ in range(30):
            if r.is_over:
                break
            seat = rng.randrange(players)
            action = r.legal_actions(seat)[-1]
            assert twin.apply(seat, action) == r.apply(seat, action)
        assert twin.snapshot() == r.snapshot()
