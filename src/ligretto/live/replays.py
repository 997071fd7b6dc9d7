"""A finished round of an online table as the replay kept of it, and its play times.

Times are the server's: milliseconds of play since "Ligretto!" (R3's
start signal), taken when the table's actor accepted an action or refused
a play that lost a race.  The record itself is the engine's replay
document (:mod:`ligretto.rules.replay_file`) with the table's seats and
where it was played; the journal writes it (``Journal.round``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from ligretto.live.state import RoundState, TableState
from ligretto.rules.actions import Play
from ligretto.rules.events import CardPlayed, Event, PileOpened
from ligretto.rules.replay_file import round_record
from ligretto.store.round_replays import KeptRound

#: A refused play counts as a lost race (R3) when it came at most this
#: long after the play that took its place on the pile; a later one is a
#: card played on a pile that had long moved on, not a race.
RACE_WINDOW_MS: Final = 2000
#: The most lost races one round keeps (a client sending the same stale
#: play again and again must not grow the record).
MAX_RACES: Final = 1000


def play_ms(rnd: RoundState, monotonic: float) -> int:
    """The play time now: ms since "Ligretto!" (0 before it)."""
    if rnd.go_at is None:
        return rnd.played_ms
    return rnd.played_ms + max(0, round((monotonic - rnd.go_at) * 1000))


def played(rnd: RoundState, seat: int, events: tuple[Event, ...], t_ms: int) -> None:
    """An accepted play put ``seat``'s card on a pile at ``t_ms``: noted as
    the winner of any race for that card."""
    for event in events:
        if isinstance(event, CardPlayed | PileOpened):
            while len(rnd.pile_plays) <= event.pile:
                rnd.pile_plays.append({})
            rnd.pile_plays[event.pile][event.card.value] = (seat, t_ms)
            return


def race_lost(rnd: RoundState, seat: int, action: Play, t_ms: int) -> None:
    """``seat``'s play was refused because the pile moved on (R3): kept
    with the seat that was faster and by how much, if within the window."""
    pile = action.pile
    if pile is None or pile >= len(rnd.pile_plays) or len(rnd.races) >= MAX_RACES:
        return
    won = rnd.pile_plays[pile].get(action.card.value)
    if won is None:
        return  # played there before a restart: the winner is not known here
    winner, won_at = won
    margin = t_ms - won_at
    if margin <= RACE_WINDOW_MS:
        rnd.races.append(
            {
                "t_ms": t_ms,
                "seat": seat,
                "action": str(action),
                "refused_by_seat": winner,
                "margin_ms": margin,
            }
        )


def finished_round(state: TableState, now: datetime | None = None) -> KeptRound:
    """The record kept of the table's round that just finished."""
    dealt = state.round.dealt
    assert dealt is not None and dealt.is_over
    finished_at = now or datetime.now(UTC)
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
        finished_at=finished_at.isoformat(timespec="seconds"),
    )
    return KeptRound(state.code, state.rounds, state.game.tafel_game, finished_at, data)
