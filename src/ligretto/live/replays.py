"""A finished round of an online table as the replay kept of it, and its play times.

Times are the server's: milliseconds of play since "Ligretto!" (R3's
start signal), taken when the table's actor accepted an action or refused
a play that lost a race (the race itself, its winner and margin, is
decided by :func:`ligretto.live.moves.lost_race`, for the refusal, the
counts and the replay alike).  The record itself is the engine's replay
document (:mod:`ligretto.rules.replay_file`) with the table's seats and
where it was played; the journal writes it (``Journal.round``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from ligretto.live.state import TableRound, TableState
from ligretto.rules.actions import Play
from ligretto.rules.replay_file import round_record
from ligretto.store.round_replays import KeptRound

#: The most lost races one round keeps (a round of many seats racing all
#: the time must not grow the record without end).
MAX_RACES: Final = 1000


def play_ms(rnd: TableRound, monotonic: float) -> int:
    """The play time now: ms since "Ligretto!" (0 before it)."""
    if rnd.go_at is None:
        return rnd.played_ms
    return rnd.played_ms + max(0, round((monotonic - rnd.go_at) * 1000))


def race_kept(
    rnd: TableRound, seat: int, action: Play, t_ms: int, winner: int, margin: int
) -> None:
    """``seat``'s ``action`` lost a race (R3) to ``winner`` by ``margin`` ms,
    refused at play time ``t_ms``: kept for the replay.  Who won and the
    margin are decided once, by :func:`ligretto.live.moves.lost_race`; this
    only writes down what it found (each race once per loser, like the
    counts of ``round_over``)."""
    if len(rnd.races) < MAX_RACES:
        rnd.races.append(race_record(t_ms, seat, str(action), winner, margin))


def race_record(
    t_ms: int, seat: int, action: str, winner: int, margin: int
) -> dict[str, int | str]:
    """One lost race as the round's replay keeps it (and the table's stored state)."""
    return {
        "t_ms": t_ms,
        "seat": seat,
        "action": action,
        "refused_by_seat": winner,
        "margin_ms": margin,
    }


def finished_round(state: TableState, now: datetime | None = None) -> KeptRound:
    """The record kept of the table's round that just finished."""
    dealt = state.round.dealt
    assert dealt is not None and dealt.is_over
    finished_at = now or datetime.now(UTC)
    # The board's number of this round: the next one the Tafel game takes.
    tafel_round = state.game.tafel_rounds + 1 if state.game.tafel_game is not None else None
    seats: list[dict[str, Any]] = [
        {
            "name": seat.name,
            "bot": (
                {"strategy": seat.strategy, "level": seat.level} if seat.kind == "bot" else None
            ),
        }
        for seat in state.seating
    ]
    data = round_record(
        dealt,
        seats=seats,
        times=state.round.times,
        races=state.round.races,
        table=state.code,
        round=state.rounds,
        game_round=state.game.round_no,
        tafel_game=state.game.tafel_game,
        tafel_round=tafel_round,
        finished_at=finished_at.isoformat(timespec="seconds"),
    )
    return KeptRound(
        state.code, state.rounds, state.game.tafel_game, finished_at, data, tafel_round
    )
