"""The first-fitting queries agree with legal_actions at every step."""

from __future__ import annotations

import itertools
import random
from typing import Literal

import pytest

from ligretto.rules import (
    Action,
    Play,
    Recycle,
    Refill,
    Round,
    RuleOptions,
    Source,
    Store,
    Turn,
)

DECKS: tuple[Literal["ligretto", "cards"], ...] = ("ligretto", "cards")
REFILLS: tuple[Literal["auto", "manual"], ...] = ("auto", "manual")
OPTIONS = [
    RuleOptions(deck=deck, row_refill=refill, recycle_shuffle=shuffle, row_storage=storage)
    for deck, refill, shuffle, storage in itertools.product(
        DECKS, REFILLS, (True, False), (False, True)
    )
]


def _expected(legal: list[Action], source: Source | None) -> Play | None:
    for action in legal:
        if type(action) is Play and (source is None or action.source is source):
            return action
    return None


def _check(r: Round, seat: int) -> list[Action]:
    legal = r.legal_actions(seat)
    assert r.first_play(seat) is _expected(legal, None)
    for order in itertools.permutations((Source.ROW, Source.STACK, Source.DISCARD)):
        wanted = None
        for source in order:
            wanted = _expected(legal, source)
            if wanted is not None:
                break
        assert r.first_play(seat, order) is wanted
        if order[:1] != (Source.ROW,):
            continue
        assert r.first_play(seat, order[:1]) is _expected(legal, Source.ROW)
    refills = [a for a in legal if type(a) is Refill]
    assert r.first_refill(seat) is (refills[0] if refills else None)
    chores = [a for a in legal if type(a) is Turn or type(a) is Recycle]
    assert r.turn_or_recycle(seat) is (chores[0] if chores else None)
    plays = r.plays(seat)
    assert plays == [a for a in legal if type(a) is Play]
    assert all(p is a for p, a in zip(plays, legal, strict=False))
    no_stores = [a for a in legal if type(a) is not Store]
    assert r.first_action(seat) is (no_stores[0] if no_stores else None)
    # asked again (a seat found without a fitting card is skipped until a card moves)
    assert r.first_play(seat) is _expected(legal, None)
    _check_open_cards(r, seat)
    return legal


def _check_open_cards(r: Round, seat: int) -> None:
    """The open-card queries say what the seat's view shows (R3: the tops)."""
    view = r.view(seat)
    for shown in view.seats:
        tops = (shown.stack_top, shown.discard_top, *[p.top for p in shown.row])
        codes = [-1 if card is None else card.code for card in tops]
        assert r.open_codes(shown.seat) == codes == view.open_codes(shown.seat)
    others = {
        card.code
        for shown in view.seats
        if shown.seat != seat
        for card in (shown.stack_top, shown.discard_top, *[p.top for p in shown.row])
        if card is not None
    }
    assert r.rival_codes(seat) == others == view.rival_codes()
    everyone = {c for s in range(len(view.seats)) for c in r.open_codes(s) if c >= 0}
    assert r.rival_codes(None) == everyone == r.view(None).rival_codes()
    unclosed = {pile.top.code for pile in view.middle if pile.top.value != 10}
    assert r.open_pile_tops() == unclosed == view.open_pile_tops()


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_queries_match_legal_actions(options: RuleOptions, players: int) -> None:
    for seed in range(4):
        r = Round.deal(players, seed, options)
        choose = random.Random(seed)
        steps = 0
        while not r.is_over and steps < 2000:
            seat = steps % players
            legal = _check(r, seat)
            steps += 1
            if not legal:
                if not any(r.legal_actions(s) for s in range(players)):
                    break
                continue
            # mostly the first action (plays go on), now and then any
            r.apply(seat, legal[0] if choose.random() < 0.7 else choose.choice(legal))
        for seat in range(players):
            _check(r, seat)


def test_queries_check_the_seat() -> None:
    r = Round.deal(2, 1)
    with pytest.raises(Exception, match="no seat"):
        r.first_play(2)
    with pytest.raises(Exception, match="no seat"):
        r.turn_or_recycle(-1)
    with pytest.raises(Exception, match="no seat"):
        r.first_action(2)
    with pytest.raises(Exception, match="no seat"):
        r.plays(-1)
    with pytest.raises(Exception, match="no seat"):
        r.open_codes(2)


@pytest.mark.parametrize("options", OPTIONS[::3], ids=str)
def test_deal_indexes_as_a_full_reindex(options: RuleOptions) -> None:
    # The deal's shortcut index equals the one rebuilt from the piles.
    for players in (2, 3, 4, 8, 12):
        for seed in range(10):
            r = Round.deal(players, seed, options)
            dealt = (r._open[:], r._avail[:], r._open_fit, r._fit, r._fitting[:])
            r._reindex()
            assert dealt == (r._open, r._avail, r._open_fit, r._fit, r._fitting)
