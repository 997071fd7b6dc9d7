"""R6: the row as storage (option ``row_storage``)."""

from __future__ import annotations

import pytest

from helpers.layout import build, pile, seat
from ligretto.rules import (
    Action,
    Card,
    CardStored,
    Deadlock,
    IllegalActionError,
    LigrettoStop,
    Play,
    RowRefilled,
    RuleOptions,
    Source,
    Store,
)

STORAGE = RuleOptions(row_storage=True)
OTHER = seat("Y4 Y5", ["R9", "G9", "B9", "Y9", "Y8"])


def store(card: str, source: str, slot: int) -> Store:
    return Store(Card.parse(card), Source(source), slot)


def test_r6_stack_or_discard_top_goes_onto_the_row_descending_and_other_colour() -> None:
    r = build([seat("B3 G5", ["R8", "G9", "B9", "Y9", "Y8"], discard="Y6"), OTHER], options=STORAGE)
    legal = {str(a) for a in r.legal_actions(0) if isinstance(a, Store)}
    # G5 onto R8, B9, Y9, Y8 (not G9: same colour); Y6 onto R8, G9, B9 (not Y9/Y8)
    assert legal == {
        "store G5 stack row0",
        "store G5 stack row2",
        "store G5 stack row3",
        "store G5 stack row4",
        "store Y6 discard row0",
        "store Y6 discard row1",
        "store Y6 discard row2",
    }
    events = r.apply(0, store("G5", "stack", 0))
    assert events == (CardStored(0, Card.parse("G5"), Source.STACK, 0),)
    me = r.view(0).seats[0]
    assert str(me.row[0].top) == "G5" and me.row[0].depth == 2
    assert str(me.stack_top) == "B3"


@pytest.mark.parametrize(
    ("card", "onto", "why"),
    [("R5", "R8", "same colour"), ("G8", "R8", "not lower"), ("G9", "R8", "higher")],
)
def test_r6_storage_refuses_same_colour_and_non_descending(card: str, onto: str, why: str) -> None:
    r = build([seat(f"B3 {card}", [onto, "Y2", "B2", "Y3", "B4"]), OTHER], options=STORAGE)
    before = r.snapshot()
    with pytest.raises(IllegalActionError, match="descending"):
        r.apply(0, store(card, "stack", 0))
    assert r.snapshot() == before, why


def test_r6_storage_is_refused_when_the_option_is_off() -> None:
    r = build([seat("B3 G5", ["R8", "G9", "B9", "Y9", "Y8"]), OTHER])
    assert not any(isinstance(a, Store) for a in r.legal_actions(0))
    with pytest.raises(IllegalActionError, match="row storage is off"):
        r.apply(0, store("G5", "stack", 0))


def test_r6_gaps_belong_to_the_stack_storage_never_fills_a_gap() -> None:
    r = build(
        [seat("B3 G5", ["", "G9", "B9", "Y9", "Y8"], discard="Y6"), OTHER],
        options=RuleOptions(row_storage=True, row_refill="manual"),
    )
    with pytest.raises(IllegalActionError, match="gap"):
        r.apply(0, store("Y6", "discard", 0))
    assert "refill row0" in {str(a) for a in r.legal_actions(0)}


def test_r6_only_the_top_of_a_row_position_is_playable_then_the_one_beneath() -> None:
    r = build(
        [seat("B3 G6", ["R8 G7 R6", "G9", "B9", "Y9", "Y8"]), OTHER],
        middle=[pile("R", 5, 1), pile("G", 6, 1), [*pile("R", 5, 0), ("R6", 1), ("R7", 1)]],
        options=STORAGE,
    )
    plays = {str(a) for a in r.legal_actions(0) if isinstance(a, Play)}
    assert plays == {"play R6 row0 p0"}  # G7 and R8 lie beneath
    with pytest.raises(IllegalActionError):
        r.apply(0, Action.parse("play R8 row0 p2"))
    events = r.apply(0, Action.parse("play R6 row0 p0"))
    assert not any(isinstance(e, RowRefilled) for e in events)  # no gap: nothing refilled
    r.apply(0, Action.parse("play G7 row0 p1"))
    events = r.apply(0, Action.parse("play R8 row0 p2"))
    assert events[-1] == RowRefilled(0, 0, Card.parse("G6"))  # now a gap: refilled
    assert r.view(0).seats[0].row[0].depth == 1


def test_r4_stop_via_row_storage_of_the_last_stack_card() -> None:
    r = build([seat("G5", ["R8", "G9", "B9", "Y9", "Y8"]), OTHER], options=STORAGE)
    events = r.apply(0, store("G5", "stack", 0))
    assert events[1] == LigrettoStop(0)
    assert r.is_over and r.result().caller == 0


def test_r6_a_possible_storage_move_is_not_a_deadlock() -> None:
    # Nothing fits the middle after R10 closes p0, but seat 0 can still
    # store B7 (stack top) onto Y9, which uncovers more of its stack.
    layout = [
        seat("Y1 B1 B2 B7", ["R10", "B9", "B8", "Y9", "Y8"]),
        seat("Y1 B1 B9", ["B10", "Y10", "B8", "Y9", "Y8"]),
    ]
    middle = [pile("R", 9, 0), pile("G", 10, 0), pile("R", 10, 1), pile("G", 10, 1)]
    r = build(layout, middle=middle, options=STORAGE)
    events = r.apply(0, Action.parse("play R10 row0 p0"))
    assert Deadlock() not in events and not r.is_over
    assert any(isinstance(a, Store) for a in r.legal_actions(0))
