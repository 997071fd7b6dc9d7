"""Tests named after the clauses of docs/rules.md they check (R1–R5)."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from helpers.layout import build, pile, seat
from ligretto.rules import (
    CARDS,
    Action,
    Card,
    CardPlayed,
    CardsTurned,
    Colour,
    Event,
    IllegalActionError,
    LigrettoStop,
    MalformedActionError,
    PileClosed,
    PileOpened,
    PileTakenError,
    Play,
    Recycle,
    Recycled,
    Round,
    RoundEnded,
    RoundOverError,
    RoundResult,
    RowRefilled,
    RuleError,
    RuleOptions,
    Source,
    Termination,
    Turn,
    points,
)

ROW3 = ["R9", "G9", "B9"]  # a harmless row for 4+ players


# --------------------------------------------------------------------- R1


@pytest.mark.parametrize(
    ("deck", "colours"),
    [("ligretto", "RGBY"), ("cards", "HDCS")],
)
def test_r1_each_deck_has_forty_cards_values_1_to_10_in_four_colours(
    deck: str, colours: str
) -> None:
    cards = CARDS[deck]  # type: ignore[index]
    assert len(cards) == 40 == len(set(cards))
    assert {c.colour.value for c in cards} == set(colours)
    assert {c.value for c in cards} == set(range(1, 11))


@pytest.mark.parametrize(("deck", "low", "high"), [("ligretto", 2, 12), ("cards", 2, 16)])
def test_r1_player_limits_follow_the_deck(deck: str, low: int, high: int) -> None:
    options = RuleOptions(deck=deck)  # type: ignore[arg-type]
    assert (options.min_players, options.max_players) == (low, high)
    Round.deal(low, 1, options)
    Round.deal(high, 1, options)
    for bad in (low - 1, high + 1):
        with pytest.raises(ValueError, match="players"):
            Round.deal(bad, 1, options)


@pytest.mark.parametrize(
    "bad",
    [
        {"deck": "uno"},
        {"row_refill": "sometimes"},
        {"recycle_shuffle": "yes"},
        {"deadlock": "draw"},
        {"row_storage": 1},
    ],
)
def test_rule_options_reject_unknown_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        RuleOptions(**bad)  # type: ignore[arg-type]


def test_r1_card_text_round_trips_for_both_decks() -> None:
    for deck in ("ligretto", "cards"):
        for card in CARDS[deck]:
            assert Card.parse(str(card)) is card
    assert str(Card(Colour.GREEN, 10)) == "G10"
    assert str(Card(Colour.HEARTS, 1)) == "H1"
    # Digits other than 0-9 ("²" would crash int(), "٣" is no card text either).
    for text in ("R0", "R11", "X5", "", "R", "5R", "R²", "R\u0663", "R+5"):
        with pytest.raises(MalformedActionError):
            Card.parse(text)


def test_r1_the_cards_deck_plays_with_suits() -> None:
    r = Round.deal(16, 3, RuleOptions(deck="cards"))
    colours = {c[0] for s in r.snapshot()["seats"] for c in s["hand"]}
    assert colours == set("HDCS")


# --------------------------------------------------------------------- R2


@pytest.mark.parametrize(("players", "row"), [(2, 5), (3, 4), (4, 3), (7, 3), (12, 3)])
def test_r2_row_size_depends_on_player_count(players: int, row: int) -> None:
    r = Round.deal(players, 11)
    snap = r.snapshot()
    for s in snap["seats"]:
        assert len(s["row"]) == row
        assert all(len(cell) == 1 for cell in s["row"])
        assert len(s["stack"]) == 10
        assert len(s["hand"]) == 40 - 10 - row
        assert s["discard"] == []
        assert sorted(s["stack"] + [c for cell in s["row"] for c in cell] + s["hand"]) == sorted(
            str(c) for c in CARDS["ligretto"]
        )
    assert snap["middle"] == []


def test_r2_deal_is_reproducible_from_the_seed_and_seats_are_shuffled_separately() -> None:
    a, b = Round.deal(4, 99), Round.deal(4, 99)
    assert a.snapshot() == b.snapshot()
    assert Round.deal(4, 100).snapshot() != a.snapshot()
    stacks = [tuple(s["stack"]) for s in a.snapshot()["seats"]]
    assert len(set(stacks)) == 4


# --------------------------------------------------------------------- R3


def test_r3_a_one_opens_a_new_pile_at_any_time_with_the_next_id() -> None:
    r = build(
        [seat("R6 R5", ["R1", "G1", "B9", "B8", "G8"]), seat("Y5", [*ROW3, "Y9", "Y8"])],
        middle=[pile("R", 3, owner=1)],
    )
    events = r.apply(0, play_action("R1", 0, None))
    assert events[0] == PileOpened(0, Card.parse("R1"), Source.ROW, 0, 1)
    events = r.apply(0, play_action("G1", 1, None))
    assert events[0] == PileOpened(0, Card.parse("G1"), Source.ROW, 1, 2)
    piles = r.view(None).middle
    assert [(p.id, str(p.top), p.count) for p in piles] == [
        (0, "R3", 3),
        (1, "R1", 1),
        (2, "G1", 1),
    ]
    assert [str(p.needs) for p in piles] == ["R4", "R2", "G2"]


def play_action(card: str, slot: int | None, pile: int | None, source: str = "row") -> Play:
    return Play(Card.parse(card), Source(source), slot, pile)


def test_r3_next_higher_value_of_the_same_colour_fits() -> None:
    r = build(
        [seat("B6 B5", ["R4", "G4", "R5", "B4", "Y2"]), seat("Y5", [*ROW3, "Y9", "Y8"])],
        middle=[pile("R", 3), pile("G", 2)],
    )
    assert r.is_legal(0, play_action("R4", 0, 0))
    assert not r.is_legal(0, play_action("G4", 1, 1))  # G needs a 3
    assert not r.is_legal(0, play_action("R5", 2, 0))  # skipping a value
    assert not r.is_legal(0, play_action("B4", 3, 0))  # wrong colour
    with pytest.raises(IllegalActionError):
        r.apply(0, play_action("G4", 1, 0))
    r.apply(0, play_action("R4", 0, 0))
    r.apply(0, play_action("R5", 2, 0))
    assert str(r.view(None).middle[0].top) == "R5"


def test_r3_many_piles_of_one_colour_everyone_plays_on_every_pile() -> None:
    r = build(
        [
            seat("B4 B5", ["R3", "G9", "G8", "B9", "B8"]),
            seat("Y4 Y5", ["R3", "Y9", "Y8", "B7", "B6"]),
        ],
        middle=[pile("R", 2, owner=0), pile("R", 2, owner=1)],
    )
    plays0 = {str(a) for a in r.legal_actions(0) if isinstance(a, Play)}
    assert plays0 == {"play R3 row0 p0", "play R3 row0 p1"}
    r.apply(0, play_action("R3", 0, 1))  # seat 0 plays on seat 1's pile
    r.apply(1, play_action("R3", 0, 0))
    snap = r.snapshot()
    assert [c["owner"] for c in snap["middle"][0]["cards"]] == [0, 0, 1]
    assert [c["owner"] for c in snap["middle"][1]["cards"]] == [1, 1, 0]
    assert r.result().seats[0].middle == 3 and r.result().seats[1].middle == 3


def test_r3_a_ten_closes_the_pile() -> None:
    r = build(
        [seat("B5", ["R10", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y9", "Y8"])],
        middle=[pile("R", 9)],
    )
    events = r.apply(0, play_action("R10", 0, 0))
    assert PileClosed(0, 0) in events
    (p,) = r.view(None).middle
    assert p.closed and p.count == 10 and str(p.top) == "R10" and p.needs is None
    assert not any(isinstance(a, Play) and a.pile == 0 for a in r.legal_actions(1))


def test_r3_play_from_stack_top_and_discard_top() -> None:
    r = build(
        [
            seat("B5 R4", ["G9", "G8", "B9", "B8", "Y9"], discard="Y3 R5"),
            seat("Y5", [*ROW3, "Y8", "Y7"]),
        ],
        middle=[pile("R", 3)],
    )
    r.apply(0, play_action("R4", None, 0, "stack"))
    r.apply(0, play_action("R5", None, 0, "discard"))
    me = r.view(0).me
    assert me is not None
    assert str(me.stack_top) == "B5" and str(me.discard_top) == "Y3"
    # only the top is open: B5 and Y3 fit nowhere, nothing beneath is offered
    with pytest.raises(IllegalActionError):
        r.apply(0, play_action("R4", None, 0, "stack"))


def test_r3_refill_auto_fills_the_gap_from_the_stack_in_the_same_apply() -> None:
    r = build(
        [seat("B5 G7", ["R4", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
    )
    events = r.apply(0, play_action("R4", 0, 0))
    assert isinstance(events[0], CardPlayed)
    assert events[1] == RowRefilled(0, 0, Card.parse("G7"))
    row = r.view(0).seats[0].row
    assert str(row[0].top) == "G7" and r.view(0).seats[0].stack_count == 1


def test_r3_refill_manual_leaves_a_gap_until_the_refill_action() -> None:
    options = RuleOptions(row_refill="manual")
    r = build(
        [seat("B5 G7", ["R4", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
        options=options,
    )
    events = r.apply(0, play_action("R4", 0, 0))
    assert len(events) == 1
    assert r.view(0).seats[0].row[0].top is None
    actions = {str(a) for a in r.legal_actions(0)}
    assert "refill row0" in actions
    assert "refill row1" not in actions  # not a gap
    with pytest.raises(IllegalActionError):
        r.apply(0, Action.parse("refill row1"))
    assert r.apply(0, Action.parse("refill row0")) == (RowRefilled(0, 0, Card.parse("G7")),)
    with pytest.raises(IllegalActionError):
        r.apply(0, Action.parse("refill row0"))


def test_r3_refill_action_is_refused_with_auto_refill() -> None:
    r = Round.deal(2, 5)
    with pytest.raises(IllegalActionError, match="automatically"):
        r.apply(0, Action.parse("refill row0"))


def test_r3_turn_flips_three_cards_as_one_packet_third_card_on_top() -> None:
    # hand bottom→top: ... Y6 Y7 Y8; Y8 is turned first, so Y6 ends on top.
    r = build(
        [
            seat("B5", ["G9", "G8", "B9", "B8", "Y9"], hand="Y6 Y7 Y8"),
            seat("Y5", [*ROW3, "Y2", "R7"]),
        ]
    )
    before = r.snapshot()["seats"][0]["hand"]
    events = r.apply(0, Turn())
    assert events == (CardsTurned(0, 3, Card.parse("Y6")),)
    snap = r.snapshot()["seats"][0]
    assert snap["discard"] == ["Y8", "Y7", "Y6"]
    assert snap["hand"] == before[:-3]


def test_r3_turn_takes_fewer_when_fewer_remain() -> None:
    hand = "Y4 Y5 Y6 Y7 Y8"
    snap = build(
        [seat("B5", ["G9", "G8", "B9", "B8", "Y9"], hand=hand), seat("Y5", [*ROW3, "Y2", "R7"])]
    ).snapshot()
    snap["seats"][0]["hand"] = hand.split()
    used = set(
        snap["seats"][0]["stack"]
        + [c for cell in snap["seats"][0]["row"] for c in cell]
        + hand.split()
    )
    snap["seats"][0]["discard"] = [str(c) for c in CARDS["ligretto"] if str(c) not in used]
    r = Round.from_snapshot(snap)
    r.apply(0, Turn())
    events = r.apply(0, Turn())
    assert events == (CardsTurned(0, 2, Card.parse("Y4")),)
    assert r.view(0).seats[0].hand_count == 0
    with pytest.raises(IllegalActionError, match="recycle"):
        r.apply(0, Turn())


@pytest.mark.parametrize("shuffle", [True, False])
def test_r3_recycling_the_discard_pile_becomes_the_hand(shuffle: bool) -> None:
    r = Round.deal(2, 8, RuleOptions(recycle_shuffle=shuffle))
    # play nothing, just turn through the whole hand (25 cards: 8×3 + 1)
    while r.view(0).seats[0].hand_count:
        r.apply(0, Turn())
    with pytest.raises(IllegalActionError):
        r.apply(0, Turn())
    discard = r.snapshot()["seats"][0]["discard"]
    events = r.apply(0, Recycle())
    assert events == (Recycled(0, 25, shuffle),)
    hand = r.snapshot()["seats"][0]["hand"]
    assert sorted(hand) == sorted(discard) and r.snapshot()["seats"][0]["discard"] == []
    if not shuffle:
        # R3 "ikke stokk": the first card turned before is turned first again.
        assert hand == discard[::-1]
        r.apply(0, Turn())
        assert r.snapshot()["seats"][0]["discard"] == discard[:3]


def test_r3_recycle_refused_while_the_hand_has_cards() -> None:
    r = Round.deal(2, 8)
    with pytest.raises(IllegalActionError):
        r.apply(0, Recycle())


def test_r3_others_cards_are_private_a_seat_plays_only_its_own() -> None:
    r = build([seat("B5", ["R1", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y8", "Y7"])])
    with pytest.raises(IllegalActionError):
        r.apply(1, play_action("R1", 0, None))  # seat 1's row0 is R9


def test_r3_race_second_play_on_the_same_pile_gets_pile_taken_and_changes_nothing() -> None:
    r = build(
        [
            seat("B4 B5", ["R4", "G9", "G8", "B9", "B8"]),
            seat("Y4 Y5", ["R4", "Y9", "Y8", "B7", "B6"]),
        ],
        middle=[pile("R", 3)],
    )
    assert not r.race_lost(1, play_action("R4", 0, 0))
    r.apply(0, play_action("R4", 0, 0))
    before = r.snapshot()
    # told without raising, as the simulator asks before it applies a play
    assert r.race_lost(1, play_action("R4", 0, 0))
    with pytest.raises(PileTakenError) as err:
        r.apply(1, play_action("R4", 0, 0))
    assert err.value.code == "pile_taken"
    assert r.snapshot() == before


def test_r3_wrong_pile_is_illegal_not_a_race() -> None:
    r = build(
        [seat("B5", ["R4", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("G", 3)],
    )
    with pytest.raises(IllegalActionError) as err:
        r.apply(0, play_action("R4", 0, 0))
    assert err.value.code == "illegal"
    with pytest.raises(IllegalActionError, match="no middle pile"):
        r.apply(0, play_action("R4", 0, 7))


@pytest.mark.parametrize(
    "text",
    [
        "play R1 row0 new",
        "play G7 stack p0",
        "play Y10 discard p12",
        "play B3 row4 p1",
        "turn",
        "recycle",
        "refill row2",
        "store R5 stack row2",
        "store G3 discard row0",
        "play H1 row1 new",
    ],
)
def test_r3_action_text_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action


def test_r3_action_text_is_read_case_insensitively() -> None:
    assert Action.parse("  PLAY r5 ROW2 P3 ") == Action.parse("play R5 row2 p3")
    assert Action.parse("Store g3 Discard Row0") == Action.parse("store G3 discard row0")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "play R1 row0 p3",
        "play R2 row0 new",
        "play R2 row9 p1",
        "play R2 hand p1",
        "store R5 row1 row2",
        "refill row7",
        "turn 3",
        "refill row\u00b2",
        "play R2 stack p\u00b2",
        "play R\u00b2 stack p1",
        "refill row\u0663",
    ],
)
def test_r3_malformed_action_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(MalformedActionError):
        Action.parse(text)


def test_r3_illegal_actions_change_nothing() -> None:
    r = Round.deal(3, 4)
    before = r.snapshot()
    for text in ["play R5 row0 p0", "recycle", "refill row0", "store R5 stack row0"]:
        with pytest.raises(RuleError):
            r.apply(0, Action.parse(text))
    with pytest.raises(IllegalActionError):
        r.apply(3, Turn())
    assert r.snapshot() == before


# --------------------------------------------------------------------- R4


def test_r4_stop_when_the_last_stack_card_goes_to_the_middle() -> None:
    r = build(
        [seat("R4", ["G9", "G8", "B9", "B8", "Y9"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
    )
    events = r.apply(0, play_action("R4", None, 0, "stack"))
    assert events[-2:] == (LigrettoStop(0), RoundEnded(0, False))
    assert r.is_over and r.result().caller == 0
    assert r.legal_actions(1) == []
    with pytest.raises(RoundOverError) as err:
        r.apply(1, Turn())
    assert err.value.code == "round_over"


def test_r4_stop_via_row_when_the_refill_takes_the_last_stack_card() -> None:
    r = build(
        [seat("G7", ["R4", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
    )
    events = r.apply(0, play_action("R4", 0, 0))
    assert events[1] == RowRefilled(0, 0, Card.parse("G7"))
    assert events[-2:] == (LigrettoStop(0), RoundEnded(0, False))
    assert r.result().seats[0].stack == 0


def test_r4_stop_via_row_with_manual_refill() -> None:
    r = build(
        [seat("G7", ["", "G9", "G8", "B9", "B8"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        options=RuleOptions(row_refill="manual"),
    )
    events = r.apply(0, Action.parse("refill row0"))
    assert events[-1] == RoundEnded(0, False)
    with pytest.raises(RoundOverError):
        r.apply(1, Turn())


def test_r4_ligretto_stop_ends_the_round_with_termination_stop() -> None:
    r = build(
        [seat("R4", ["G9", "G8", "B9", "B8", "Y9"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
    )
    assert r.result().termination is None and not r.result().over  # still running
    r.apply(0, play_action("R4", None, 0, "stack"))
    res = r.result()
    assert res.termination is Termination.STOP and res.over and res.caller == 0
    data = json.loads(json.dumps(res.to_dict()))
    assert (data["over"], data["termination"], data["caller"]) == (True, "stop", 0)
    again = Round.from_snapshot(r.snapshot()).result()
    assert (again.termination, again.caller) == (Termination.STOP, 0)


def test_r4_result_refuses_a_caller_without_a_ligretto_stop() -> None:
    seats = Round.deal(2, 1).result().seats
    with pytest.raises(ValueError, match="caller"):
        RoundResult(termination=Termination.DEADLOCK, caller=0, seats=seats)
    with pytest.raises(ValueError, match="caller"):
        RoundResult(termination=Termination.STOP, caller=None, seats=seats)
    with pytest.raises(ValueError, match="caller"):
        RoundResult(termination=None, caller=1, seats=seats)


@pytest.mark.parametrize(
    ("over", "caller", "deadlock"),
    [
        (True, None, False),  # over, but neither a caller nor a deadlock
        (True, 0, True),  # both
        (False, None, True),  # a deadlock in a running round
        (False, 0, False),  # a caller in a running round
        (True, 1, False),  # a caller with cards in the stack
    ],
)
def test_r4_from_snapshot_rejects_an_end_that_is_neither_stop_nor_deadlock(
    over: bool, caller: int | None, deadlock: bool
) -> None:
    # After seat 0's Ligretto Stop the one consistent end is over, caller 0,
    # no deadlock (the snapshot as written); seat 1 still has stack cards.
    r = build(
        [seat("R4", ["G9", "G8", "B9", "B8", "Y9"]), seat("Y5", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
    )
    r.apply(0, play_action("R4", None, 0, "stack"))
    snap = {**r.snapshot(), "over": over, "caller": caller, "deadlock": deadlock}
    with pytest.raises(MalformedActionError):
        Round.from_snapshot(snap)


# --------------------------------------------------------------------- R5


def test_r5_example_14_minus_6_is_8() -> None:
    assert points(14, 3) == 8
    # the same as a round: seat 0 has 14 cards in the middle and 3 in the stack
    r = build(
        [
            seat("B9 B8 R5", ["G9", "G8", "Y9", "Y8", "B7"]),
            seat("Y5 Y7", ["R10", "G10", "B10", "Y10", "B6"]),
        ],
        middle=[pile("R", 4), pile("G", 7), pile("Y", 3)],
    )
    r.apply(1, Turn())
    res = r.result()
    assert (res.seats[0].middle, res.seats[0].stack, res.seats[0].points) == (14, 3, 8)
    assert res.seats[1].points == 0 - 2 * 2


def test_r5_caller_has_no_minus_points() -> None:
    r = build(
        [seat("R4", ["G9", "G8", "B9", "B8", "Y9"]), seat("Y5 Y6", [*ROW3, "Y8", "Y7"])],
        middle=[pile("R", 3)],
    )
    r.apply(0, play_action("R4", None, 0, "stack"))
    res = r.result()
    assert res.over and res.seats[0].stack == 0 and res.seats[0].points == 4
    assert res.seats[1].points == -4
    assert json.loads(json.dumps(res.to_dict()))["caller"] == 0


# ----------------------------------------------------------- view, snapshot


def test_r3_view_hides_hand_order_and_cards_under_tops() -> None:
    r = Round.deal(4, 21)
    for _ in range(3):
        r.apply(2, Turn())
    snap = r.snapshot()
    # Rearrange everything that is hidden at seat 2: hand order, the cards
    # under the stack top and under the discard top. No view may change.
    s2 = snap["seats"][2]
    s2["hand"].reverse()
    s2["stack"][:-1] = s2["stack"][-2::-1]
    s2["discard"][:-1] = s2["discard"][-2::-1]
    other = Round.from_snapshot(snap)
    assert other.snapshot() != r.snapshot()
    for viewer in (None, 0, 1, 2, 3):
        assert other.view(viewer).to_dict() == r.view(viewer).to_dict()
    v = r.view(None)
    assert v.actions == () and v.me is None
    seat2 = v.seats[2]
    assert seat2.hand_count == 27 - 9 and seat2.discard_count == 9
    assert str(seat2.discard_top) == snap["seats"][2]["discard"][-1]
    assert '"hand":' not in json.dumps(v.to_dict())


def test_view_lists_the_seats_own_legal_actions() -> None:
    r = Round.deal(4, 5)
    v = r.view(1)
    assert list(v.actions) == r.legal_actions(1)
    assert all(isinstance(a, Play) for a in v.plays)


def test_snapshot_is_json_ready_and_rebuilds_the_same_round() -> None:
    r = Round.deal(5, 17)
    for _ in range(20):
        for s in range(5):
            if r.is_over:
                break
            acts = r.legal_actions(s)
            r.apply(s, acts[0])
    snap = r.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    again = Round.from_snapshot(snap)
    assert again.snapshot() == {**snap, "actions": 0}


def test_from_snapshot_rejects_a_card_in_two_places() -> None:
    snap = Round.deal(2, 3).snapshot()
    snap["seats"][0]["hand"].append(snap["seats"][0]["stack"][0])
    with pytest.raises(MalformedActionError, match="twice"):
        Round.from_snapshot(snap)


def test_r1_cards_deck_plays_by_suit_ace_opens() -> None:
    options = RuleOptions(deck="cards")
    r = build(
        [
            seat("S6 S7 S5", ["H1", "H2", "D9", "C9", "S9"]),
            seat("C4 C5", ["H9", "D8", "C8", "S8", "H8"]),
        ],
        options=options,
    )
    assert {str(a) for a in r.legal_actions(0) if isinstance(a, Play)} == {"play H1 row0 new"}
    events = r.apply(0, Action.parse("play H1 row0 new"))
    assert str(events[0]) == "0 opened H1 row0 p0"
    r.apply(0, Action.parse("play H2 row1 p0"))
    assert str(r.view(None).middle[0].top) == "H2"
    with pytest.raises(IllegalActionError, match="deck"):
        r.apply(0, Action.parse("play R3 row0 p0"))  # a Ligretto card in a cards round


def test_events_text_round_trips() -> None:
    texts = [
        "0 played R5 row2 p3",
        "1 opened B1 stack p4",
        "2 closed p3",
        "0 refilled row2 G7",
        "3 stored R5 stack row2",
        "0 turned 3 Y7",
        "0 recycled 27 shuffled",
        "1 recycled 4 kept",
        "5 ligretto-stop",
        "deadlock",
        "reshuffle 2",
        "round-over caller 0",
        "round-over deadlock",
    ]
    for text in texts:
        assert str(Event.parse(text)) == text
    for bad in ("", "0 jumped", "round-over", "x played R5 row2 p3"):
        with pytest.raises(MalformedActionError):
            Event.parse(bad)


def test_copy_is_independent_and_reseeding_changes_future_shuffles() -> None:
    options = RuleOptions()
    r = Round.deal(2, 4, options)
    while r.view(0).seats[0].hand_count:
        r.apply(0, Turn())
    same, other = r.copy(), r.copy(seed=12345)
    r.apply(0, Recycle())
    same.apply(0, Recycle())
    other.apply(0, Recycle())
    assert same.snapshot() == r.snapshot()
    assert other.snapshot()["seats"][0]["hand"] != r.snapshot()["seats"][0]["hand"]
    same.apply(0, Turn())
    assert same.snapshot() != r.snapshot()  # the copy moved on alone


@pytest.mark.parametrize(
    "duplicate",
    [Round.copy, copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_a_duplicate_shuffles_on_its_own(duplicate: Callable[[Round], Round]) -> None:
    """A copied round draws from a generator of its own: playing it on leaves
    the original's future shuffles (recycling, R3) as they were."""
    r = Round.deal(2, 4, RuleOptions())
    twin = r.copy()
    dup = duplicate(r)
    for game in (dup, twin):  # the duplicate recycles first, then the twin
        while game.view(0).seats[0].hand_count:
            game.apply(0, Turn())
        game.apply(0, Recycle())
    assert dup.snapshot() == twin.snapshot()
    while r.view(0).seats[0].hand_count:
        r.apply(0, Turn())
    r.apply(0, Recycle())
    assert r.snapshot() == twin.snapshot()


def test_error_codes_are_machine_readable() -> None:
    assert (
        IllegalActionError.code,
        PileTakenError.code,
        RoundOverError.code,
        MalformedActionError.code,
    ) == (
        "illegal",
        "pile_taken",
        "round_over",
        "malformed",
    )
    for cls in (IllegalActionError, PileTakenError, RoundOverError, MalformedActionError):
        assert issubclass(cls, RuleError) and issubclass(cls, ValueError)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda s: s["middle"].append({"id": 0, "cards": [{"card": "R2", "owner": 0}]}),
            "ascending",
        ),
        (lambda s: s["middle"].append({"id": 0, "cards": [{"card": "R1", "owner": 5}]}), "no seat"),
        (lambda s: s["seats"][0]["discard"].extend(s["seats"][0]["hand"][:1]), "twice"),
        (lambda s: s["seats"][0]["row"].pop(), "positions"),
        (lambda s: s["seats"][0]["hand"].pop(), "lacks"),
        (lambda s: s["seats"][0]["hand"].append("Q5"), "not a card"),
        (lambda s: s.update(players=20), "players"),
    ],
)
def test_from_snapshot_rejects_impossible_layouts(change: Any, message: str) -> None:
    snap = Round.deal(2, 3).snapshot()
    change(snap)
    with pytest.raises(ValueError, match=message):
        Round.from_snapshot(snap)


def test_from_snapshot_rejects_an_open_gap_under_auto_refill_and_a_long_stack() -> None:
    snap = Round.deal(2, 3).snapshot()
    seat0 = snap["seats"][0]
    seat0["hand"].extend(seat0["row"][0])
    seat0["row"][0] = []
    with pytest.raises(MalformedActionError, match="gap"):
        Round.from_snapshot(snap)
    snap["options"]["row_refill"] = "manual"
    assert Round.from_snapshot(snap).legal_actions(0)[-2] == Action.parse("refill row0")
    seat0["stack"].append(seat0["hand"].pop())
    with pytest.raises(MalformedActionError, match="at most 10"):
        Round.from_snapshot(snap)
