"""Moves at an online table: checked and applied one at a time, in arrival order (R3).

A person's move and a bot's go through :func:`apply` alike.  There is no
``await`` anywhere in here: the actor applies a move to the end before it
takes the next command, so a race for a pile is decided by who arrived
first, exactly as at a real table.

A lost race is told as one: the table keeps the last play accepted on each
middle pile with the time it arrived, and a refused card that would have
fitted the pile just before that play learns who beat it and by how much
(server clock, so every seat is measured alike).
"""

from __future__ import annotations

from ligretto.live import encoder, replays
from ligretto.live.actor import TableActor
from ligretto.live.bot_driver import BotMove
from ligretto.live.connection import Connection
from ligretto.live.phase import Phase
from ligretto.live.protocol import Move, Race, Reason
from ligretto.live.reasons import refusal_for
from ligretto.live.scoring.round_end import end_round
from ligretto.live.state import PilePlay, TableRound
from ligretto.live.visibility import public_events
from ligretto.metrics.cpu_split import ENGINE, timed
from ligretto.rules.actions import Action, Play
from ligretto.rules.errors import PileTakenError
from ligretto.rules.events import CardPlayed, Event, PileOpened
from ligretto.rules.round import Round


def person_moves(
    table: TableActor, conn: Connection, message: Move, at: float | None = None
) -> None:
    """A person's move: from a seat, to the seat's own cards, once the round is on.

    ``at``: when the move arrived (the table's monotonic clock, seconds);
    ``None``: now.
    """
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
    apply(table, conn.seat, action, conn, message.ref, at)


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
    table: TableActor,
    seat: int,
    action: Action,
    conn: Connection | None,
    ref: int | None,
    at: float | None = None,
) -> None:
    """Check and apply one move; no await anywhere in here (R3).

    Then every idle bot plans its next move (a bot whose move was refused
    plans again, as one that lost a race would look again).
    """
    state = table.state
    dealt = state.round.dealt
    assert dealt is not None
    text = str(action)
    at_ms = (table.settings.clock.monotonic() if at is None else at) * 1000.0
    try:
        events = _engine_apply(dealt, seat, action)
    except Exception as exc:
        refusal = refusal_for(exc)
        if refusal is None:
            raise
        race = None
        if isinstance(exc, PileTakenError):
            race = lost_race(table, seat, action, at_ms)
        if conn is not None:  # a bot lost a race; it simply plans again
            conn.send(encoder.refused(refusal.code, refusal.reason(exc), ref, text, race))
    else:
        note_plays(state.round, seat, events, at_ms)
        state.seq += 1
        table.moves_applied += 1
        table.logged(seat, text)
        if type(action) is Play:  # a card went to the middle: not stuck (R4)
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


@timed(ENGINE)
def _engine_apply(dealt: Round, seat: int, action: Action) -> tuple[Event, ...]:
    """The rules engine applies the move (its own stage when the CPU is split)."""
    return dealt.apply(seat, action)


def note_plays(rnd: TableRound, seat: int, events: tuple[Event, ...], at_ms: float) -> None:
    """Remember the card each accepted play put on a middle pile, and when."""
    for event in events:
        if type(event) is CardPlayed or type(event) is PileOpened:
            rnd.piles[event.pile] = PilePlay(seat, event.card, at_ms)


def lost_race(table: TableActor, seat: int, action: Action, at_ms: float) -> Race | None:
    """R3: who beat ``seat``'s refused play to its pile, and by how much.

    A race only when the card would have fitted the pile just before the
    last play on it, that is when that play put down the very card (colour
    and number) this one is; a card refused after the pile moved on by
    several cards was simply late.  Each race is counted once per loser and
    play, for the round and the game, and kept once for the round's replay
    (:func:`ligretto.live.replays.race_kept`): the one place that decides
    who won a race and by how many ms. The winner is told then, once
    (``race_won``); the loser by the refusal this returns its race for.
    """
    if type(action) is not Play or action.pile is None:
        return None
    state = table.state
    last = state.round.piles.get(action.pile)
    if last is None or last.seat == seat or last.card != action.card:
        return None
    margin = max(0, round(at_ms - last.at_ms))
    if seat not in last.losers:
        last.losers.add(seat)
        replays.race_kept(state.round, seat, action, table.play_ms(), last.seat, margin)
        players = len(state.seating)
        for counts, who in (
            (state.round.races_won, last.seat),
            (state.round.races_lost, seat),
            (state.game.races_won, last.seat),
            (state.game.races_lost, seat),
        ):
            if len(counts) < players:
                counts.extend([0] * (players - len(counts)))
            counts[who] += 1
        table.note()  # the counts outlive a restart (written with the next batch)
        winner = state.seating[last.seat]
        if winner.conns:
            won = encoder.race_won(state.game.round_no, seat, state.seating[seat].name, margin)
            for conn in winner.conns:
                conn.send(won)
    return Race(by=last.seat, name=state.seating[last.seat].name, margin_ms=margin)
