"""Moves at an online table: checked and applied one at a time, in arrival order (R3).

A person's move and a bot's go through :func:`apply` alike.  There is no
``await`` anywhere in here: the actor applies a move to the end before it
takes the next command, so a race for a pile is decided by who arrived
first, exactly as at a real table.
"""

from __future__ import annotations

from ligretto.live import encoder, replays
from ligretto.live.actor import TableActor
from ligretto.live.bot_driver import BotMove
from ligretto.live.connection import Connection
from ligretto.live.phase import Phase
from ligretto.live.protocol import Move, Reason
from ligretto.live.reasons import refusal_for
from ligretto.live.scoring import end_round
from ligretto.live.visibility import public_events
from ligretto.rules.actions import Action, Play
from ligretto.rules.errors import PileTakenError


def person_moves(table: TableActor, conn: Connection, message: Move) -> None:
    """A person's move: from a seat, to the seat's own cards, once the round is on."""
    phase = table.state.phase
    if conn.seat is None:
        table.refuse(conn, Reason.NOT_SEATED, "watchers cannot play", message)
        return
    if message.seat is not None and message.seat != conn.seat:
        table.refuse(conn, Reason.WRONG_SEAT, "that is not your seat", message)
        return
    if phase in (Phase.LOBBY, Phase.COUNTDOWN):
        table.refuse(conn, Reason.NOT_STARTED, "wait for “Ligretto!”", message)
        return
    if phase != Phase.PLAYING:
        table.refuse(conn, Reason.ROUND_OVER, "the round is over", message)
        return
    try:
        action = Action.parse(message.action)
    except ValueError:
        table.refuse(conn, Reason.BAD_ACTION, "not a move of this game", message)
        return
    apply(table, conn.seat, action, conn, message.ref)


def bot_moves(table: TableActor, move: BotMove) -> None:
    """A bot's planned move is due: applied if it still stands, else planned again."""
    state = table.state
    if move.round_no != state.game.round_no or move.seat >= len(state.seating):
        return
    seat = state.seating[move.seat]
    if seat.generation != move.generation:
        return
    seat.bot_pending = False
    if table.paused:
        return  # planned again when someone connects
    if state.phase == Phase.PLAYING and move.action is not None:
        apply(table, move.seat, move.action, None, None)  # plans the bots' next moves
    else:
        table.plan_bots()


def apply(
    table: TableActor, seat: int, action: Action, conn: Connection | None, ref: int | None
) -> None:
    """Check and apply one move; no await anywhere in here (R3).

    Then every idle bot plans its next move (a bot whose move was refused
    plans again, as one that lost a race would look again).
    """
    state = table.state
    dealt = state.round.dealt
    assert dealt is not None
    text = str(action)
    try:
        events = dealt.apply(seat, action)
    except Exception as exc:
        refusal = refusal_for(exc)
        if refusal is None:
            raise
        if isinstance(exc, PileTakenError) and type(action) is Play:
            # R3: someone was faster; the replay keeps who, and by how much.
            replays.race_lost(state.round, seat, action, table.play_ms())
        if conn is not None:  # a bot lost a race; it simply plans again
            conn.send(encoder.refused(refusal.code, refusal.reason(exc), ref, text))
    else:
        state.seq += 1
        table.moves_applied += 1
        t_ms = table.logged(seat, text)
        if type(action) is Play:  # a card went to the middle: not stuck (R4)
            replays.played(state.round, seat, events, t_ms)
            table.stall.card_played()
        encoder.send_events(
            dealt,
            state.game.round_no,
            state.seq,
            state.seating,
            by=seat,
            action=text,
            events=public_events(events),
            mover=conn,
            ref=ref,
        )
        if dealt.is_over:
            end_round(table)
            return
    table.plan_bots()
