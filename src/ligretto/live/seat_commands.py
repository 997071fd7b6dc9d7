"""Who comes and goes at an online table: joins, leaves, stand-ins, the host's seat commands.

The seating (:mod:`~ligretto.live.seating`) knows chairs, names, tokens
and connections, and :mod:`~ligretto.live.departures` how a person leaves
for good; this module decides whether a seat command is allowed
*now* (only the host, only in the lobby), answers it, and keeps the table
going when people come and go: a person away too long is played by a
stand-in, and a table nobody is connected to pauses its bots and its stall
guard (R4).
"""

from __future__ import annotations

from ligretto.live import departures, encoder
from ligretto.live.actor import TableActor
from ligretto.live.connection import CLOSE_LEFT, CLOSE_REMOVED, CLOSE_REVOKED, Connection
from ligretto.live.lifecycle import away_timer, count_down, countdown_message
from ligretto.live.phase import Phase
from ligretto.live.protocol import (
    AddBot,
    Join,
    Leave,
    Reason,
    RemoveBot,
    RemovePlayer,
    RevokeSeat,
)
from ligretto.live.seating import SeatingError


def join(table: TableActor, conn: Connection, message: Join) -> None:
    """A connection joins: with tokens (host role, a seat), a name, or to watch."""
    state = table.state
    if conn.joined:
        table.refuse(conn, Reason.ALREADY_JOINED, "this connection has joined already")
        return
    token: str | None = None
    try:
        if message.token is not None or message.host_token is not None:
            claimed, token, displaced = state.seating.claim(
                conn, message.token, message.host_token, message.device
            )
            if claimed is not None:
                for old in displaced:
                    old.send(encoder.taken_over(claimed.index))
        elif message.name is not None:
            _seat, token = state.seating.sit_down(
                conn, message.name, lobby=state.phase == Phase.LOBBY, device=message.device
            )
        if conn.seat is None:
            state.seating.watch(conn)
    except SeatingError as exc:
        table.refuse(conn, exc.code, exc.reason)
        return
    conn.joined = True
    state.idle_since = None
    if state.phase == Phase.PLAYING and not table.stall.running:
        table.stall.start()
    now = table.settings.clock.now()
    conn.send(encoder.welcome(state, table.tafel_url, conn, token, now))
    rnd = state.round
    if rnd.dealt is not None:
        conn.send(encoder.view_message(rnd.dealt, state.game.round_no, state.seq, conn.seat))
        if rnd.resuming and rnd.start_at is None:
            # The first one back after a restart: "Resuming… 3 2 1" for
            # everybody at the table, this connection included.
            count_down(table)
        elif state.phase == Phase.COUNTDOWN and rnd.start_at is not None:
            conn.send(countdown_message(table))
    last = state.game.last_round_over
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and last is not None:
        conn.send(last)
    table.broadcast_table()
    table.plan_bots()


def left(table: TableActor, conn: Connection) -> None:
    """The transport lost ``conn``."""
    state = table.state
    seat = state.seating.leave(conn)
    if state.idle_since is None and not state.seating.has_connections():
        # The last one left: bots pause (see Table.plan_bots), the stall
        # guard stops, and the registry's idle time starts.
        state.idle_since = table.settings.clock.monotonic()
        table.stall.stop()
    if seat is not None and not seat.conns and seat.kind == "human" and state.phase != Phase.LOBBY:
        away_timer(table, seat)
    if conn.joined:
        table.broadcast_table()


def away(table: TableActor, index: int, presence: int) -> None:
    """The "away" timer of seat ``index`` fired: a stand-in plays for a
    person still gone (unless they came back since: ``presence``)."""
    state = table.state
    if index >= len(state.seating):
        return
    seat = state.seating[index]
    if (
        seat.kind == "human"
        and not seat.conns
        and not seat.away
        and seat.presence == presence
        and state.phase not in (Phase.LOBBY, Phase.GAME_OVER)
    ):
        seat.go_away()
        table.broadcast_table()
        table.plan_bots()


def _host_in_lobby(table: TableActor, conn: Connection) -> bool:
    """Seats change only by the host and only before the start."""
    if not table.host_only(conn):
        return False
    if table.state.phase != Phase.LOBBY:
        table.refuse(conn, Reason.ALREADY_STARTED, "seats are fixed once the game started")
        return False
    return True


def add_bot(table: TableActor, conn: Connection, message: AddBot) -> None:
    if not _host_in_lobby(table, conn):
        return
    try:
        table.state.seating.add_bot(message.seat, message.strategy, message.level)
    except SeatingError as exc:
        table.refuse(conn, exc.code, exc.reason)
        return
    table.broadcast_table()


def remove_bot(table: TableActor, conn: Connection, message: RemoveBot) -> None:
    if not _host_in_lobby(table, conn):
        return
    try:
        table.state.seating.remove(message.seat)
    except SeatingError as exc:
        table.refuse(conn, exc.code, exc.reason)
        return
    table.broadcast_table()


def revoke_seat(table: TableActor, conn: Connection, message: RevokeSeat) -> None:
    """The host withdraws a seat link (any phase): a new token, the holder out."""
    if not table.host_only(conn):
        return
    try:
        seat, displaced = table.state.seating.revoke(message.seat)
    except SeatingError as exc:
        table.refuse(conn, exc.code, exc.reason)
        return
    for old in displaced:
        old.send(encoder.revoked(seat.index))
        old.close(CLOSE_REVOKED)
    if displaced and table.state.phase != Phase.LOBBY:
        away_timer(table, seat)
    table.broadcast_table()


def remove_player(table: TableActor, conn: Connection, message: RemovePlayer) -> None:
    """The host removes a person (any phase): told, disconnected; the seat
    freed before the start, else played by a stand-in from now on; their
    devices do not sit down here again."""
    if not table.host_only(conn):
        return
    lobby = table.state.phase == Phase.LOBBY
    try:
        seat, displaced = departures.remove_person(table.state.seating, message.seat, lobby=lobby)
    except SeatingError as exc:
        table.refuse(conn, exc.code, exc.reason)
        return
    for old in displaced:
        old.send(encoder.removed(seat.index))
        old.close(CLOSE_REMOVED)
    table.broadcast_table()
    table.plan_bots()


def leave(table: TableActor, conn: Connection, _message: Leave) -> None:
    """A person leaves the table (any phase): told, disconnected; the seat
    freed before the start, else played by a stand-in to the end.  A host
    passes the host role to the next person present, or cannot leave."""
    state = table.state
    if conn.seat is None:
        table.refuse(conn, Reason.NOT_SEATED, "only a person with a seat can leave it")
        return
    seating = state.seating
    heir = departures.heir(seating, seating[conn.seat]) if conn.host else None
    if conn.host and heir is None:
        table.refuse(
            conn,
            Reason.HOST_ALONE,
            "nobody else at the table can take the host role; close the page instead",
        )
        return
    was_host = conn.host
    seat, displaced = departures.leave(seating, conn.seat, lobby=state.phase == Phase.LOBBY)
    for old in displaced:
        old.send(encoder.left(seat.index))
        old.close(CLOSE_LEFT)
    if was_host:
        token = departures.pass_host(seating, heir)
        for new in heir.conns if heir is not None else ():
            new.send(encoder.host_now(token))
    table.broadcast_table()
    table.plan_bots()
