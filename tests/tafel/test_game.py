"""The Tafel domain, clause by clause (docs/rules.md, T1–T6)."""

from __future__ import annotations

import pytest

from ligretto.tafel import (
    Code,
    Deck,
    Game,
    ImplausibleRoundError,
    InvalidGameError,
    InvalidRoundError,
    Mode,
    NoSuchRoundError,
    Round,
    RoundOrderError,
    Status,
    describe,
    from_description,
)


# mypy keeps ``game.status`` narrowed by an earlier assert across the calls that
# change it; ``type: ignore[comparison-overlap]`` marks the checks after such calls.
def play(game: Game, stacks: list[int], middle: list[int], *, confirm: bool = False) -> None:
    """Enter one whole round: stacks first (T2), then the middle (T3)."""
    rnd = game.open_round(dict(zip(game.players, stacks, strict=True)))
    game.complete_round(rnd.number, dict(zip(game.players, middle, strict=True)), confirm=confirm)


# --------------------------------------------------------------------- T1
def test_t1_players_are_trimmed_and_keep_seating_order() -> None:
    game = Game(["  Anna ", "Ben", "Cleo"])
    assert game.players == ("Anna", "Ben", "Cleo")


@pytest.mark.parametrize(
    ("players", "deck", "code"),
    [
        (["Anna"], Deck.LIGRETTO, Code.TOO_FEW_PLAYERS),
        ([f"P{i}" for i in range(13)], Deck.LIGRETTO, Code.TOO_MANY_PLAYERS),
        ([f"P{i}" for i in range(17)], Deck.CARDS, Code.TOO_MANY_PLAYERS),
        (["Anna", "  "], Deck.LIGRETTO, Code.EMPTY_NAME),
        (["Anna", "x" * 41], Deck.LIGRETTO, Code.NAME_TOO_LONG),
        (["Anna", "ANNA "], Deck.LIGRETTO, Code.DUPLICATE_NAME),
        (["Anna", "B\x00b"], Deck.LIGRETTO, Code.BAD_NAME),
    ],
)
def test_t1_bad_players_refused(players: list[str], deck: Deck, code: Code) -> None:
    with pytest.raises(InvalidGameError) as caught:
        Game(players, deck=deck)
    assert caught.value.code is code
    assert caught.value.rule == "T1"


def test_t1_twelve_players_with_ligretto_cards_sixteen_with_ordinary_cards() -> None:
    assert len(Game([f"P{i}" for i in range(12)]).players) == 12
    assert len(Game([f"P{i}" for i in range(16)], deck="cards").players) == 16


def test_t1_duplicate_name_message_names_both() -> None:
    with pytest.raises(InvalidGameError, match="anna: the name is already taken by Anna"):
        Game(["Anna", "anna"])


def test_t1_target_defaults_to_99_and_accepts_50_150_and_up_to_1000() -> None:
    assert Game(["A", "B"]).target == 99
    for target in (50, 150, 1, 1000, 77):
        assert Game(["A", "B"], target=target).target == target


@pytest.mark.parametrize("target", [0, -5, 1001, 99.5, "99", True])
def test_t1_bad_target_refused(target: object) -> None:
    with pytest.raises(InvalidGameError) as caught:
        Game(["A", "B"], target=target)  # type: ignore[arg-type]
    assert caught.value.code is Code.BAD_TARGET


@pytest.mark.parametrize("rounds", [None, 0, 101, 2.5])
def test_t1_rounds_game_needs_1_to_100_agreed_rounds(rounds: object) -> None:
    with pytest.raises(InvalidGameError) as caught:
        Game(["A", "B"], mode="rounds", agreed_rounds=rounds)  # type: ignore[arg-type]
    assert caught.value.code is Code.BAD_ROUNDS


def test_t1_unknown_mode_refused() -> None:
    with pytest.raises(InvalidGameError) as caught:
        Game(["A", "B"], mode="forever")
    assert caught.value.code is Code.BAD_MODE


# --------------------------------------------------------------------- T2
def test_t2_round_saved_with_stacks_only_is_pending() -> None:
    game = Game(["Anna", "Ben"])
    rnd = game.open_round({"Anna": 0, "Ben": 3})
    assert game.pending_round == rnd
    assert rnd.caller == 0
    assert rnd.points is None
    assert game.totals == (0, 0)


def test_t2_two_empty_stacks_refused() -> None:
    game = Game(["Anna", "Ben", "Cleo"])
    with pytest.raises(InvalidRoundError) as caught:
        game.open_round({"Anna": 0, "Ben": 0, "Cleo": 4})
    assert caught.value.code is Code.TWO_CALLERS
    assert "two empty stacks: only one player can call Ligretto Stop" in caught.value.message
    assert "Anna and Ben" in caught.value.message
    assert game.rounds == []


def test_t2_round_without_caller_is_a_deadlock_round() -> None:
    game = Game(["Anna", "Ben"])
    rnd = game.open_round({"Anna": 2, "Ben": 3})
    assert rnd.caller is None


@pytest.mark.parametrize("value", [-1, 11, 2.5, "3", None, True])
def test_t2_stack_counts_are_whole_numbers_0_to_10(value: object) -> None:
    game = Game(["Anna", "Ben"])
    with pytest.raises(InvalidRoundError) as caught:
        game.open_round({"Anna": 0, "Ben": value})
    assert caught.value.player == "Ben"
    assert caught.value.code in (Code.OUT_OF_RANGE, Code.NOT_A_WHOLE_NUMBER)
    assert game.rounds == []


def test_t2_every_player_needs_a_stack_count_and_unknown_names_are_refused() -> None:
    game = Game(["Anna", "Ben"])
    with pytest.raises(InvalidRoundError) as missing:
        game.open_round({"Anna": 0})
    assert missing.value.code is Code.MISSING_PLAYER
    assert missing.value.player == "Ben"
    with pytest.raises(InvalidRoundError) as unknown:
        game.open_round({"Anna": 0, "Ben": 1, "Zoe": 3})
    assert unknown.value.code is Code.UNKNOWN_PLAYER


def test_t2_names_match_ignoring_case_and_spaces() -> None:
    game = Game(["Anna", "Ben"])
    assert game.open_round({" anna": 0, "BEN": 5}).stacks == (0, 5)


def test_t2_only_one_pending_round() -> None:
    game = Game(["Anna", "Ben"])
    game.open_round({"Anna": 0, "Ben": 3})
    with pytest.raises(RoundOrderError) as caught:
        game.open_round({"Anna": 0, "Ben": 3})
    assert caught.value.code is Code.ROUND_PENDING
    assert len(game.rounds) == 1


# --------------------------------------------------------------------- T3
def test_t3_example_14_minus_6_is_8() -> None:
    game = Game(["Anna", "Ben"])
    play(game, [0, 3], [12, 14])
    assert game.rounds[0].points == (12, 8)
    assert game.totals == (12, 8)


@pytest.mark.parametrize(("stack", "middle"), [(3, 38), (1, 40), (3, -1)])
def test_t3_middle_is_0_to_40_minus_stack(stack: int, middle: int) -> None:
    game = Game(["Anna", "Ben"])
    game.open_round({"Anna": 0, "Ben": stack})
    with pytest.raises(InvalidRoundError) as caught:
        game.complete_round(1, {"Anna": 10, "Ben": middle})
    assert caught.value.code is Code.OUT_OF_RANGE
    assert caught.value.player == "Ben"
    assert game.pending_round is not None


def test_t3_middle_of_37_with_3_in_stack_accepted() -> None:
    game = Game(["Anna", "Ben"])
    play(game, [0, 3], [10, 37])
    assert game.rounds[0].points == (10, 31)


def test_t3_implausible_round_needs_confirmation() -> None:
    game = Game(["Anna", "Ben"])
    game.open_round({"Anna": 0, "Ben": 4})
    with pytest.raises(ImplausibleRoundError) as caught:
        game.complete_round(1, {"Anna": 10, "Ben": 5})
    assert caught.value.code is Code.IMPLAUSIBLE
    assert caught.value.player == "Ben"
    assert game.pending_round is not None
    rnd = game.complete_round(1, {"Anna": 10, "Ben": 5}, confirm=True)
    assert rnd.confirmed
    assert rnd.points == (10, -3)


def test_t3_caller_with_fewer_than_10_in_middle_is_implausible() -> None:
    game = Game(["Anna", "Ben"])
    game.open_round({"Anna": 0, "Ben": 4})
    with pytest.raises(ImplausibleRoundError):
        game.complete_round(1, {"Anna": 9, "Ben": 6})


def test_t3_row_storage_games_skip_the_plausibility_check() -> None:
    game = Game(["Anna", "Ben"], row_storage=True)
    play(game, [0, 4], [3, 0])
    assert game.rounds[0].points == (3, -8)


def test_t3_complete_twice_refused() -> None:
    game = Game(["Anna", "Ben"])
    play(game, [0, 3], [12, 14])
    with pytest.raises(RoundOrderError) as caught:
        game.complete_round(1, {"Anna": 12, "Ben": 14})
    assert caught.value.code is Code.ROUND_NOT_PENDING


# --------------------------------------------------------------------- T4
def test_t4_highest_total_wins_not_first_over_the_line() -> None:
    game = Game(["Anna", "Ben"], target=50)
    play(game, [0, 5], [30, 10])  # 30, 0
    play(game, [3, 0], [20, 25])  # Anna 44, Ben 25
    assert game.status is Status.PLAYING
    play(game, [0, 2], [10, 36])  # Anna 54, Ben 57: Ben wins though Anna crossed too
    assert game.status is Status.FINISHED  # type: ignore[comparison-overlap]
    assert game.winners == ("Ben",)
    assert game.decided_after == 3


def test_t4_tie_at_99_continues_and_ends_when_one_alone_leads() -> None:
    game = Game(["Anna", "Ben", "Cleo"])
    for _ in range(3):
        play(game, [0, 0 + 1, 5], [30, 30 + 2, 5])  # Anna +30, Ben +30, Cleo -5
    play(game, [0, 1, 5], [10, 12, 5])  # Anna 100, Ben 100
    assert game.totals == (100, 100, -20)
    assert game.status is Status.TIEBREAK
    assert game.winners == ()
    assert game.accepts_new_round
    play(game, [0, 1, 5], [12, 14, 5])  # still tied: 112, 112
    assert game.status is Status.TIEBREAK
    play(game, [1, 0, 5], [20, 10, 5])  # Anna 130, Ben 122
    assert game.status is Status.FINISHED  # type: ignore[comparison-overlap]
    assert game.winners == ("Anna",)
    with pytest.raises(RoundOrderError) as caught:
        game.open_round({"Anna": 0, "Ben": 1, "Cleo": 2})
    assert caught.value.code is Code.GAME_FINISHED


def test_t4_tiebreak_continues_even_if_totals_drop_below_target() -> None:
    game = Game(["Anna", "Ben"], target=20)
    play(game, [0, 1], [20, 22])  # 20, 20: tie at target
    assert game.status is Status.TIEBREAK
    play(game, [5, 5], [5, 5], confirm=True)  # -5 each: 15, 15
    assert game.status is Status.TIEBREAK
    play(game, [0, 5], [10, 5])  # 25, 10
    assert game.winners == ("Anna",)


def test_t4_target_game_can_be_finished_early_by_the_table() -> None:
    game = Game(["Anna", "Ben"])
    play(game, [0, 3], [12, 14])
    game.finish()
    assert game.status is Status.FINISHED
    assert game.winners == ("Anna",)
    with pytest.raises(RoundOrderError):
        game.open_round({"Anna": 0, "Ben": 3})


# --------------------------------------------------------------------- T5
def test_t5_rounds_game_tied_at_the_top_has_two_winners() -> None:
    game = Game(["Anna", "Ben", "Cleo"], mode=Mode.ROUNDS, agreed_rounds=2)
    play(game, [0, 2, 4], [15, 12, 6])  # 15, 8, -2
    assert game.status is Status.PLAYING
    play(game, [2, 0, 4], [12, 15, 6])  # 23, 23, -4
    assert game.status is Status.FINISHED  # type: ignore[comparison-overlap]  # after the last agreed round (T5)
    assert game.winners == ("Anna", "Ben")
    game.finish()
    assert game.score() == ("Anna", "Ben")
    assert game.scored
    assert game.ranks == (1, 1, 3)


def test_t5_no_round_beyond_the_agreed_number() -> None:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=1)
    play(game, [0, 3], [12, 14])
    with pytest.raises(RoundOrderError) as caught:
        game.open_round({"Anna": 0, "Ben": 3})
    assert caught.value.code is Code.ALL_ROUNDS_PLAYED


def test_t5_finish_closes_for_entry_and_score_names_winner() -> None:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=5)
    play(game, [0, 3], [12, 14])
    game.finish()
    assert game.closed and not game.scored
    with pytest.raises(RoundOrderError) as caught:
        game.open_round({"Anna": 0, "Ben": 3})
    assert caught.value.code is Code.GAME_FINISHED
    assert game.score() == ("Anna",)


def test_t5_finish_refused_with_pending_round_or_without_rounds() -> None:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=5)
    with pytest.raises(RoundOrderError) as empty:
        game.finish()
    assert empty.value.code is Code.NO_ROUNDS
    game.open_round({"Anna": 0, "Ben": 3})
    with pytest.raises(RoundOrderError) as pending:
        game.score()
    assert pending.value.code is Code.ROUND_PENDING
    assert not game.closed


# --------------------------------------------------------------------- T6
def test_t6_correction_that_changes_the_winner_re_decides_the_game() -> None:
    game = Game(["Anna", "Ben"], target=50)
    play(game, [0, 3], [30, 20])  # 30, 14
    play(game, [0, 3], [30, 20])  # 60, 28 -> Anna wins
    assert game.winners == ("Anna",)
    game.correct_round(2, stacks={"Anna": 3, "Ben": 0}, middle={"Anna": 7, "Ben": 40})
    assert game.totals == (31, 54)
    assert game.winners == ("Ben",)


def test_t6_correction_reopens_a_finished_game() -> None:
    game = Game(["Anna", "Ben"], target=50)
    play(game, [0, 3], [30, 20])
    play(game, [0, 3], [30, 20])
    assert game.status is Status.FINISHED
    game.correct_round(2, middle={"Anna": 10, "Ben": 7})  # Anna 40: under the target
    assert game.status is Status.PLAYING  # type: ignore[comparison-overlap]
    assert game.accepts_new_round


def test_t6_correction_that_would_end_the_game_before_later_rounds_is_refused() -> None:
    game = Game(["Anna", "Ben"], target=30)
    play(game, [0, 3], [20, 20])  # 20, 14
    play(game, [0, 3], [20, 20])  # 40, 28: decided after round 2
    with pytest.raises(RoundOrderError) as caught:
        game.correct_round(1, middle={"Anna": 40, "Ben": 20})
    assert caught.value.code is Code.DECIDED_EARLIER
    assert game.rounds[0].middle == (20, 20)


def test_t6_correcting_stacks_rechecks_the_kept_middle() -> None:
    game = Game(["Anna", "Ben"])
    play(game, [0, 3], [12, 37])
    with pytest.raises(InvalidRoundError) as caught:
        game.correct_round(1, stacks={"Anna": 0, "Ben": 5})  # 37 > 40 - 5
    assert caught.value.code is Code.OUT_OF_RANGE
    assert game.rounds[0].stacks == (0, 3)


def test_t6_a_correction_to_the_same_counts_changes_nothing() -> None:
    game = Game(["Anna", "Ben"])
    play(game, [0, 3], [12, 30])
    before = game.rounds[0]
    again = game.correct_round(1, stacks={"Anna": 0, "Ben": 3}, middle=[12, 30])
    assert again is before and game.rounds == [before]
    assert game.correct_round(1, stacks=[0, 3]) is before  # the middle kept as it is


def test_t6_only_the_last_round_can_be_removed_and_it_reopens() -> None:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=2)
    play(game, [0, 3], [12, 14])
    play(game, [0, 3], [12, 14])
    game.score()
    with pytest.raises(RoundOrderError) as caught:
        game.remove_last_round(1)
    assert caught.value.code is Code.NOT_LAST_ROUND
    removed = game.remove_last_round(2)
    assert removed.number == 2
    assert game.status is Status.PLAYING
    assert not game.closed and not game.scored
    assert game.totals == (12, 8)


def test_t6_missing_rounds_are_reported() -> None:
    game = Game(["Anna", "Ben"])
    with pytest.raises(NoSuchRoundError):
        game.remove_last_round()
    with pytest.raises(NoSuchRoundError):
        game.correct_round(3, middle={"Anna": 1, "Ben": 1})


def test_t6_ranks_share_ties_1_1_3() -> None:
    game = Game(["Anna", "Ben", "Cleo", "Dan"])
    play(game, [0, 2, 2, 5], [12, 14, 14, 5])  # 12, 10, 10, -5
    assert game.ranks == (1, 2, 2, 4)
    assert [s.player for s in game.ranking] == ["Anna", "Ben", "Cleo", "Dan"]


def test_t6_describe_round_trips_through_from_description() -> None:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=3)
    play(game, [0, 3], [12, 14])
    play(game, [0, 4], [10, 5], confirm=True)
    game.open_round({"Anna": 2, "Ben": 0})
    data = describe(game)
    again = from_description(data)
    assert describe(again) == data
    assert data["rounds"][1]["confirmed"] is True
    assert data["rounds"][0]["caller"] == "Anna"
    assert data["rounds"][1]["totals"] == {"Anna": 22, "Ben": 5}


def test_t6_import_replays_the_checks() -> None:
    data = describe(Game(["Anna", "Ben"]))
    data["rounds"] = [{"stacks": {"Anna": 0, "Ben": 0}, "middle": None}]
    with pytest.raises(InvalidRoundError, match="round 1: two empty stacks") as caught:
        from_description(data)
    assert caught.value.code is Code.TWO_CALLERS


def test_t6_restore_round_puts_a_removed_round_back_with_beenden_and_werten() -> None:
    game = Game(["Anna", "Ben"], mode="rounds", agreed_rounds=2)
    for stacks, middle in (((0, 3), (20, 14)), ((2, 0), (11, 20))):
        game.complete_round(game.open_round(stacks).number, middle)
    game.score()
    removed = game.remove_last_round()
    assert (game.closed, game.scored, len(game.rounds)) == (False, False, 1)
    back = game.restore_round(removed, closed=True, scored=True)
    assert back == removed and game.rounds[-1] == removed
    assert (game.closed, game.scored, game.winners) == (True, True, ("Ben",))


def test_t6_restore_round_checks_what_it_puts_back() -> None:
    game = Game(["Anna", "Ben"], target=30)
    game.complete_round(game.open_round((0, 3)).number, (20, 14))
    game.complete_round(game.open_round((0, 3)).number, (20, 14))  # Anna 40: decided (T4)
    with pytest.raises(RoundOrderError) as pending:
        game.restore_round(Round(1, (0, 3)))  # a pending round before a complete one
    assert pending.value.code is Code.ROUND_PENDING
    with pytest.raises(RoundOrderError) as decided:
        game.restore_round(Round(3, (0, 3), (20, 14)))  # after the deciding round
    assert decided.value.code is Code.DECIDED_EARLIER
    with pytest.raises(ImplausibleRoundError):
        game.restore_round(Round(2, (5, 0), (1, 14)))  # unconfirmed and implausible (T3)
    with pytest.raises(NoSuchRoundError):
        game.restore_round(Round(5, (0, 3), (20, 14)))
    assert [r.number for r in game.rounds] == [1, 2] and game.totals == (40, 16)
