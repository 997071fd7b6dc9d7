"""The round that decided a game and the line of a group's history (T4–T6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from ligretto.tafel import Game
from ligretto.tafel.ending import (
    BestRound,
    FamilyNote,
    YearWin,
    deciding_round,
    family_note,
    top_seats,
)
from ligretto.tafel.stats import PlayedGame

START = datetime(2026, 3, 1, 20, tzinfo=UTC)


def played(game: Game, middles: list[list[int]], stacks: list[list[int]] | None = None) -> Game:
    """*game* with complete rounds of these middles (stacks 1 each unless given)."""
    for index, middle in enumerate(middles):
        stack = stacks[index] if stacks else [1] * len(game.players)
        n = game.open_round(stack).number
        game.complete_round(n, middle, confirm=True)  # small numbers, plain to check
    return game


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game of two to four players, target or rounds, played on while it accepts rounds."""
    players = ["Anna", "Ben", "Cleo", "Dora"][: draw(st.integers(2, 4))]
    if draw(st.booleans()):
        game = Game(players, mode="target", target=draw(st.integers(10, 60)))
    else:
        game = Game(players, mode="rounds", agreed_rounds=draw(st.integers(1, 6)))
    for _ in range(draw(st.integers(0, 12))):
        if not game.accepts_new_round:
            break
        caller = draw(st.one_of(st.none(), st.integers(0, len(players) - 1)))
        stacks = [0 if seat == caller else draw(st.integers(1, 3)) for seat in range(len(players))]
        n = game.open_round(stacks).number
        if draw(st.integers(0, 8)) == 0:
            break  # a pending round
        # Narrow ranges: ties at the top, the interesting case, come often.
        game.complete_round(n, [draw(st.integers(10 - s, 13 - s)) for s in stacks])
    if game.complete_rounds and game.pending_round is None and draw(st.booleans()):
        game.finish()  # Beenden (T5), also early
    return game


@given(games())
def test_the_deciding_round_is_the_first_after_which_the_outcome_holds(game: Game) -> None:
    found = deciding_round(game)
    if not game.winners:
        assert found is None
        return
    seats = {game.players.index(w) for w in game.winners}
    after = {r.number: t for r, t in zip(game.rounds, game.running_totals(), strict=True) if t}
    assert found is not None and found in after
    # From the deciding round on the winners alone are at the top ...
    assert all(top_seats(t) == seats for n, t in after.items() if n >= found)
    # ... and not after the complete round before it (the first round has none).
    before = [t for n, t in after.items() if n < found]
    assert not before or top_seats(before[-1]) != seats


def test_a_lead_held_from_the_start_was_decided_in_round_one() -> None:
    game = played(Game(["Anna", "Ben"], mode="rounds", agreed_rounds=3), [[10, 2], [5, 5], [4, 6]])
    assert game.winners == ("Anna",)
    assert deciding_round(game) == 1


def test_a_tie_break_is_decided_by_the_round_that_broke_the_tie() -> None:
    # T4: 30 reached in round 2 with a shared top (32 each); round 3 puts Ben alone ahead.
    game = played(Game(["Anna", "Ben"], mode="target", target=30), [[18, 8], [18, 28], [3, 5]])
    assert game.winners == ("Ben",)
    assert deciding_round(game) == 3


def test_a_shared_victory_is_decided_when_the_tie_last_formed() -> None:
    game = played(
        Game(["Anna", "Ben", "Cleo"], mode="rounds", agreed_rounds=3),
        [[9, 3, 1], [2, 8, 1], [5, 5, 1]],
    )
    assert game.winners == ("Anna", "Ben")
    assert deciding_round(game) == 2


def test_an_undecided_game_has_no_deciding_round() -> None:
    game = played(Game(["Anna", "Ben"], mode="rounds", agreed_rounds=3), [[10, 2]])
    assert deciding_round(game) is None


def group_game(game_id: str, days: int, players: list[str], middles: list[list[int]]) -> PlayedGame:
    """A finished rounds game of the group, played *days* after START."""
    game = played(Game(players, mode="rounds", agreed_rounds=len(middles)), middles)
    return PlayedGame(game_id, START + timedelta(days=days), game)


def test_the_line_counts_the_winners_wins_of_the_year_up_to_this_game() -> None:
    history = [
        group_game("a", 0, ["Anna", "Ben"], [[20, 5]]),
        group_game("b", 1, ["Anna", "Ben"], [[6, 5]]),
        group_game("c", 2, ["ANNA", "Ben"], [[3, 9]]),  # Ben's; the same Anna (T1)
        group_game("d", 3, ["Ben", "Anna"], [[2, 12]]),
        group_game("e", 4, ["Anna", "Ben"], [[30, 1]]),  # later: not counted for "d"
    ]
    note = family_note(history, "d")
    assert note == FamilyNote((YearWin("Anna", 3, 2026),), None)
    assert family_note(history, "e") == FamilyNote(
        (YearWin("Anna", 4, 2026),), BestRound("Anna", 28, 1)
    )


def test_a_new_year_starts_the_count_again() -> None:
    history = [
        group_game("old", -100, ["Anna", "Ben"], [[9, 1]]),
        group_game("new", 0, ["Anna", "Ben"], [[8, 1]]),
    ]
    assert START.year - 1 == history[0].played_at.year
    note = family_note(history, "new")
    assert note is not None and note.wins == (YearWin("Anna", 1, 2026),)


def test_a_shared_victory_counts_for_each_winner_in_seating_order() -> None:
    history = [
        group_game("a", 0, ["Ben", "Anna"], [[9, 1]]),
        group_game("b", 1, ["Anna", "Ben", "Cleo"], [[7, 7, 1]]),
    ]
    note = family_note(history, "b")
    assert note is not None
    assert note.wins == (YearWin("Anna", 1, 2026), YearWin("Ben", 2, 2026))


def test_the_best_round_must_beat_every_earlier_round() -> None:
    history = [
        group_game("a", 0, ["Anna", "Ben"], [[20, 5]]),
        group_game("b", 1, ["Anna", "Ben"], [[20, 5], [2, 1]]),  # as good: not a record
        group_game("c", 2, ["Anna", "Ben"], [[1, 19], [3, 21]]),  # 17, then 19 (R5)
    ]
    first, second, third = (family_note(history, g) for g in "abc")
    assert first is not None and first.best is None  # nothing to beat yet
    assert second is not None and second.best is None
    assert third is not None and third.best == BestRound("Ben", 19, 2)
    history.append(group_game("d", 3, ["Anna", "Ben"], [[1, 23], [4, 2]]))
    fourth = family_note(history, "d")
    assert fourth is not None and fourth.best == BestRound("Ben", 21, 1)


def test_no_line_for_a_game_not_won_or_not_in_the_group() -> None:
    open_game = PlayedGame(
        "open", START, played(Game(["Anna", "Ben"], mode="rounds", agreed_rounds=3), [[5, 1]])
    )
    assert family_note([open_game], "open") is None
    assert family_note([open_game], "elsewhere") is None
