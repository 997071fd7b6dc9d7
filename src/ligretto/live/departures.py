"""People who leave a table for good: removed by the host, or leaving of their own accord.

Both go the same way.  Before the start the chair is emptied for someone
else.  Once the game has started the seats are fixed — the Tafel game
holds each name (T1) — so the seat keeps its name, says why a bot plays it
(``gone``: ``"left"`` or ``"removed"``) and a stand-in plays it to the end,
as for a person away; its token is renewed and told to nobody, so nobody
takes it back.

A person the host removed stays out: the devices their seat was taken from
(each page's own random id for the table, kept as a hash) may not sit down
at this table again (``removed``).  A host who leaves passes the host role
to the next person present (:func:`heir`, :func:`pass_host`); the host's
own chair is never removed by the host.
"""

from __future__ import annotations

from ligretto.live.connection import Connection
from ligretto.live.protocol import Reason
from ligretto.live.seating import MAX_BARRED, Gone, Seat, Seating, SeatingError
from ligretto.store.tokens import TABLE_TOKEN_BYTES, hash_token, new_token


def _person(seating: Seating, index: int) -> Seat:
    seat = seating.seats[index] if 0 <= index < len(seating) else None
    if seat is None or seat.kind != "human":
        raise SeatingError(Reason.NO_SUCH_SEAT, "no person sits there")
    return seat


def remove_person(seating: Seating, index: int, *, lobby: bool) -> tuple[Seat, list[Connection]]:
    """The host removes the person in chair ``index``; returns the seat and
    the connections that played it (they hold nothing any more).  The
    host's own chair is refused (``no_such_seat``), and nothing changes."""
    seat = _person(seating, index)
    if seat.hosts:
        raise SeatingError(Reason.NO_SUCH_SEAT, "the host's own seat is not removed")
    room = MAX_BARRED - len(seating.barred)
    seating.barred.update(sorted(seat.devices)[: max(0, room)])
    return seat, _send_away(seating, seat, "removed", lobby=lobby)


def leave(seating: Seating, index: int, *, lobby: bool) -> tuple[Seat, list[Connection]]:
    """The person in chair ``index`` leaves the table; returns the seat and
    the connections that played it (they hold nothing any more)."""
    seat = _person(seating, index)
    return seat, _send_away(seating, seat, "left", lobby=lobby)


def _send_away(seating: Seating, seat: Seat, gone: Gone, *, lobby: bool) -> list[Connection]:
    displaced = seating.displace(seat)[1]
    if lobby:
        seating.seats[seat.index] = Seat(seat.index, generation=seat.generation + 1)
        return displaced
    seat.gone = gone
    seat.hosts = False  # the host token claims it no more
    if not seat.away:
        seat.go_away()
    return displaced


def heir(seating: Seating, leaving: Seat) -> Seat | None:
    """Who hosts the table when the host in ``leaving`` goes: the first
    other person at the table who is connected and plays their own seat."""
    return next(
        (s for s in seating if s is not leaving and s.kind == "human" and s.conns and not s.away),
        None,
    )


def pass_host(seating: Seating, to: Seat | None) -> str:
    """The host role goes to ``to`` (``None``: to nobody) with a new host
    token, returned; the old one stops working, and every connection that
    held the role holds it no more."""
    token = new_token(TABLE_TOKEN_BYTES)
    seating.host_hash = hash_token(token)
    seating.host_token = None
    for seat in seating:
        seat.hosts = False
    for conn in seating.connections():
        conn.host, conn.host_token = False, None
    if to is not None:
        to.hosts = True
        for conn in to.conns:
            conn.host, conn.host_token = True, token
    return token
