"""The end of a round at an online table: its score (R5) onto the Tafel game (T2–T5).

The table does not decide the game: with a score keeper the Tafel adds
the round up and says whether the game is over (T4/T5); without one (tests,
a table without a board) the round's own points are added up here and the
game never ends.
"""

from __future__ import annotations

from ligretto.live import encoder
from ligretto.live.actor import TableActor
from ligretto.live.phase import Phase
from ligretto.live.protocol import Races
from ligretto.live.scoring.keeper import Standing
from ligretto.rules.result import RoundResult


def end_round(table: TableActor) -> None:
    """R4: the round is over; score it (R5) and put it on the Tafel (T2, T3)."""
    state = table.state
    assert state.round.dealt is not None
    result = state.round.dealt.result()
    state.phase = Phase.ROUND_OVER
    state.round.scoring = True
    kept = table.keep_round()  # replayable from now on (docs/online-play.md)
    if table.recorder is None:
        round_scored(table, result, None, kept=kept)
        return
    table.recorder.record(
        state.game.round_no,
        result,
        lambda standing: round_scored(table, result, standing, kept=kept),
        number=state.game.tafel_rounds + 1,
    )


def round_scored(
    table: TableActor, result: RoundResult, standing: Standing | None, *, kept: bool = False
) -> None:
    """The Tafel answered (``standing``; ``None``: no board or it failed):
    show the scores, then the next deal or the game's end; ``kept``: the
    round's replay is kept, so the score screen links it."""
    state, game = table.state, table.state.game
    state.round.scoring = False
    game.recorded_round = game.round_no
    if standing is not None:
        game.tafel_rounds += 1
        # The Tafel adds up and decides the game (T4/T5).
        game.totals = list(standing.totals)
        game_over = standing.finished
        winners = list(standing.winners)
    else:
        # No board: the round's own points (R5) added up here.
        before = game.totals or [0] * len(result.seats)
        game.totals = [t + s.points for t, s in zip(before, result.seats, strict=True)]
        game_over, winners = False, []
    state.phase = Phase.GAME_OVER if game_over else Phase.ROUND_OVER
    next_at: float | None = None
    if not game_over:
        between = table.settings.between_rounds
        next_at = table.settings.clock.now() + between
        table.set_timer("next", between)
    game.last_round_over = encoder.round_over(
        game.round_no,
        result,
        game.totals,
        game_over=game_over,
        winners=winners,
        next_round_at=next_at,
        races=_races(state.round.races_won, state.round.races_lost, len(result.seats)),
        game_races=_races(game.races_won, game.races_lost, len(result.seats)),
        replay=state.rounds if kept else None,
    )
    encoder.send_all(state.seating, game.last_round_over)
    table.broadcast_table()


def _races(won: list[int], lost: list[int], seats: int) -> Races:
    """Each seat's races (R3) won and lost; a seat without any counts 0."""
    return Races(
        won=won + [0] * (seats - len(won)),
        lost=lost + [0] * (seats - len(lost)),
    )
