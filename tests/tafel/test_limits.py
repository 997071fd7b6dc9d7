"""Every refusal carries the limit it enforces, so pages never recompute a rule."""

from __future__ import annotations

import pytest

from ligretto.rules import DECK_SIZE, STACK_SIZE, points
from ligretto.rules.options import PLAYER_LIMITS
from ligretto.tafel import Code, Game, InvalidGameError, InvalidRoundError, Mode, TafelError
from ligretto.tafel.limits import (
    MAX_AGREED_ROUNDS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    least_plausible_middle,
    max_players,
    middle_limit,
)


def test_t1_player_limits_come_from_r1() -> None:
    assert max_players("ligretto") == PLAYER_LIMITS["ligretto"][1] == 12
    assert max_players("cards") == PLAYER_LIMITS["cards"][1] == 16


def test_t3_bounds_follow_the_deck_and_the_stack() -> None:
    assert [middle_limit(s) for s in (0, 10)] == [DECK_SIZE, DECK_SIZE - 10]
    assert [least_plausible_middle(s) for s in (0, 4, 10)] == [STACK_SIZE, STACK_SIZE - 4, 0]


def test_r5_points_of_a_tafel_round_are_the_rules_points() -> None:
    game = Game(["Anna", "Ben"], mode=Mode.TARGET, target=50)
    game.open_round({"Anna": 0, "Ben": 7})
    rnd = game.complete_round(1, {"Anna": 13, "Ben": 9})
    assert rnd.points == (points(13, 0), points(9, 7)) == (13, -5)


def test_t1_too_many_players_names_the_limit_and_the_cards_limit() -> None:
    with pytest.raises(InvalidGameError) as err:
        Game([f"P{i}" for i in range(13)])
    assert err.value.code is Code.TOO_MANY_PLAYERS
    assert dict(err.value.params) == {"limit": 12, "with_cards": 16}


@pytest.mark.parametrize(
    ("kwargs", "code", "params"),
    [
        ({"players": ["Anna"]}, Code.TOO_FEW_PLAYERS, {"limit": 2}),
        ({"players": ["A" * 41, "Ben"]}, Code.NAME_TOO_LONG, {"limit": MAX_NAME_LENGTH}),
        (
            {"players": ["Anna", "Ben"], "target": MAX_TARGET + 1},
            Code.BAD_TARGET,
            {"low": 1, "high": MAX_TARGET},
        ),
        (
            {"players": ["Anna", "Ben"], "mode": "rounds", "agreed_rounds": 0},
            Code.BAD_ROUNDS,
            {"low": 1, "high": MAX_AGREED_ROUNDS},
        ),
    ],
)
def test_t1_refusals_carry_their_limit(
    kwargs: dict[str, object], code: Code, params: dict[str, int]
) -> None:
    players = kwargs.pop("players")
    with pytest.raises(TafelError) as err:
        Game(players, **kwargs)  # type: ignore[arg-type]
    assert err.value.code is code
    assert dict(err.value.params) == params


def test_t2_t3_refusals_carry_bounds_callers_and_implausible_seats() -> None:
    game = Game(["Anna", "Ben", "Cleo"])
    with pytest.raises(InvalidRoundError) as err:
        game.open_round({"Anna": 11, "Ben": 3, "Cleo": 2})
    assert dict(err.value.params) == {"low": 0, "high": 10}
    with pytest.raises(InvalidRoundError) as err:
        game.open_round({"Anna": 0, "Ben": 0, "Cleo": 2})
    assert err.value.params["callers"] == ("Anna", "Ben")
    game.open_round({"Anna": 0, "Ben": 4, "Cleo": 2})
    with pytest.raises(InvalidRoundError) as err:
        game.complete_round(1, {"Anna": 10, "Ben": 37, "Cleo": 8})
    assert (err.value.player, dict(err.value.params)) == ("Ben", {"low": 0, "high": 36})
    with pytest.raises(InvalidRoundError) as err:
        game.complete_round(1, {"Anna": 10, "Ben": 5, "Cleo": 3})
    assert err.value.code is Code.IMPLAUSIBLE
    assert list(err.value.params["implausible"]) == [
        {"player": "Ben", "middle": 5, "left": 6},
        {"player": "Cleo", "middle": 3, "left": 8},
    ]
    assert game.pending_round is not None  # refused entries changed nothing


def test_an_import_error_keeps_its_params() -> None:
    from ligretto.tafel import from_description

    with pytest.raises(InvalidRoundError) as err:
        from_description({"players": ["Anna", "Ben"], "rounds": [{"stacks": [12, 1]}]})
    assert err.value.message.startswith("round 1: ")
    assert dict(err.value.params) == {"low": 0, "high": 10}


def test_t1_a_game_holds_at_most_max_rounds_entered_or_imported() -> None:
    from ligretto.tafel import RoundOrderError, describe, from_description
    from ligretto.tafel.limits import MAX_ROUNDS

    game = Game(["Anna", "Ben"])  # every round below zero: the target is never reached
    for number in range(1, MAX_ROUNDS + 1):
        game.open_round([10, 10])
        game.complete_round(number, [0, 0])
    with pytest.raises(RoundOrderError) as err:
        game.open_round([10, 10])
    assert (err.value.code, dict(err.value.params)) == (Code.TOO_MANY_ROUNDS, {"limit": MAX_ROUNDS})
    assert len(game.rounds) == MAX_ROUNDS
    export = describe(game)
    assert len(from_description(export).rounds) == MAX_ROUNDS
    export["rounds"].append(export["rounds"][-1])
    with pytest.raises(InvalidGameError) as imported:
        from_description(export)
    assert imported.value.code is Code.TOO_MANY_ROUNDS
