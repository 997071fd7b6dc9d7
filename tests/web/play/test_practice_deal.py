"""The practice round's deals (issue 27): the newcomer plays from the first move.

Each seed of ``PRACTICE_SEEDS`` is dealt by the engine and played for seat 0
the way the page's hints say (``static/play/input.js``: a 1 first, the
stack's before the row's; then the stack, the row, the discard pile; else
turn three or pick up the discard pile).  The first card to the middle must
come within the first five of those actions, and the practice table deals
only these seeds.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from helpers.live_wire import code_of, tables_of
from ligretto.rules.actions import Action, Play, Recycle, Source, Turn
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.web.play.quick_games import PRACTICE_SEEDS, practice_deal

FIRST_PLAY_WITHIN = 5


def hinted(actions: list[Action]) -> Action | None:
    """The action the practice hint points at (input.js ``hintFor``)."""
    plays = [a for a in actions if isinstance(a, Play)]
    # A 1 opens a new pile (R3), the stack's first; then the stack, the
    # row, the discard pile.
    ones = sorted((a for a in plays if a.pile is None), key=lambda a: a.source is not Source.STACK)
    if ones:
        return ones[0]
    for source in (Source.STACK, Source.ROW, Source.DISCARD):
        for play in plays:
            if play.source is source:
                return play
    return next((a for a in actions if isinstance(a, Turn | Recycle)), None)


def newcomer_actions(seed: int, count: int) -> list[Action]:
    """Seat 0's first ``count`` actions in a two-player deal, following the hints."""
    rnd = Round.deal(2, seed, RuleOptions())
    done: list[Action] = []
    for _ in range(count):
        action = hinted(rnd.legal_actions(0))
        if action is None:
            break
        rnd.apply(0, action)
        done.append(action)
    return done


@pytest.mark.parametrize("seed", PRACTICE_SEEDS)
def test_the_first_play_to_the_middle_comes_within_five_actions(seed: int) -> None:
    actions = newcomer_actions(seed, FIRST_PLAY_WITHIN)
    plays = [i for i, a in enumerate(actions) if isinstance(a, Play)]
    assert plays and plays[0] < FIRST_PLAY_WITHIN, [str(a) for a in actions]
    # A 1 from the first move: it opens its own pile, so no bot can take it.
    assert isinstance(actions[0], Play) and actions[0].pile is None


@pytest.mark.parametrize("seed", PRACTICE_SEEDS)
def test_the_deal_teaches_playing_and_turning(seed: int) -> None:
    actions = newcomer_actions(seed, 12)
    plays = sum(isinstance(a, Play) for a in actions)
    assert plays >= 8, [str(a) for a in actions]  # it keeps going
    assert any(isinstance(a, Turn) for a in actions)  # and "turn three" is met early


def test_the_practice_dealer_deals_only_the_chosen_seeds() -> None:
    dealt = {practice_deal(2, n, RuleOptions()).seed for n in range(100)}
    assert dealt == set(PRACTICE_SEEDS)


def test_the_practice_table_uses_the_practice_dealer(app_client: TestClient) -> None:
    response = app_client.post("/play/practice", data={"name": "Anna"}, follow_redirects=False)
    assert response.status_code == 303
    table = tables_of(app_client).get(code_of(response))
    assert table is not None
    assert table.settings.dealer is practice_deal
