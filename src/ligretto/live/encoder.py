"""The table's messages to its clients, built from the table's state.

Everything a table sends is JSON text built here: the table decides *what*
happened, this module says it in the protocol (docs/protocol.md).  Views
are the hot path (every accepted move, every seat), so they are encoded
by hand, once per move for what everybody sees, plus each seat's own
actions; the result is exactly ``ViewMessage``/``EventsMessage`` with
:func:`view_dict` inside (the tests compare it with the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import orjson

from ligretto.live.connection import Connection
from ligretto.live.phase import Phase
from ligretto.live.protocol import (
    Countdown,
    HostNow,
    Pong,
    Race,
    Races,
    RaceWon,
    Reason,
    Refused,
    Removed,
    Revoked,
    RoundOver,
    SeatInfo,
    TableInfo,
    TableUpdate,
    TakenOver,
    Welcome,
    YouLeft,
    wire_action,
)
from ligretto.live.seating import Seating
from ligretto.live.state import PUBLIC, TableState, fills_at
from ligretto.metrics.cpu_split import ENCODE, ENGINE, timed
from ligretto.rules.actions import Action
from ligretto.rules.result import RoundResult
from ligretto.rules.round import Round
from ligretto.rules.view import TableView


def _dumps(value: Any) -> str:
    """Compact JSON like pydantic's ``model_dump_json`` (no spaces, UTF-8
    text), by orjson: the standard library's encoder set itself up again for
    every part a move changed, some 5 µs a part (docs/online-play.md)."""
    return orjson.dumps(value).decode()


def _scalar(value: int | bool | None) -> str:
    """JSON of a seat number, a flag or nothing, without the encoder."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(int(value))


# --------------------------------------------------------------------------
# the table as a whole
# --------------------------------------------------------------------------


def table_info(state: TableState, tafel_url: str | None) -> TableInfo:
    """Seats, phase, options and scores as anyone at the table sees them (no
    tokens); ``tafel_url`` is where its Tafel game can be watched."""
    game, rnd = state.game, state.round
    return TableInfo(
        code=state.code,
        phase=state.phase,
        seats=[
            SeatInfo(
                seat=s.index,
                name=s.name,
                kind=s.kind,
                connected=bool(s.conns) or s.kind == "bot",
                away=s.away,
                gone=s.gone,
                strategy=s.strategy,
                level=s.level,
            )
            for s in state.seating
        ],
        options=state.options.to_dict(),
        end=state.end.to_dict(),
        round_no=game.round_no,
        start_at=rnd.start_at if state.phase == Phase.COUNTDOWN else None,
        tafel_game=game.tafel_game,
        tafel_url=tafel_url,
        totals=game.totals,
        watchers=len(state.seating.watchers),
        stuck_offered=rnd.stuck_offered,
        stuck_agreed=sorted(rnd.stuck_agreed),
        resuming=rnd.resuming,
        public=PUBLIC in state.tags,
        fills_at=fills_at(state.tags) if state.phase == Phase.LOBBY else None,
    )


@timed(ENCODE)
def table_update(state: TableState, tafel_url: str | None) -> str:
    return TableUpdate(table=table_info(state, tafel_url)).model_dump_json()


@timed(ENCODE)
def welcome(
    state: TableState, tafel_url: str | None, conn: Connection, token: str | None, now: float
) -> str:
    """Who ``conn`` is at the table: its seat and that seat's token; the host
    also gets the host token (to keep next to the seat token)."""
    return Welcome(
        seat=conn.seat,
        token=token,
        host=conn.host,
        host_token=conn.host_token if conn.host else None,
        server_now=now,
        table=table_info(state, tafel_url),
    ).model_dump_json()


def countdown(round_no: int, start_at: float, now: float, *, resume: bool = False) -> str:
    return Countdown(
        round_no=round_no, start_at=start_at, server_now=now, resume=resume
    ).model_dump_json()


@timed(ENCODE)
def pong(t: float | None, now: float) -> str:
    return Pong(t=t, server_now=now).model_dump_json()


@timed(ENCODE)
def refused(
    code: Reason,
    reason: str,
    ref: int | None = None,
    action: str | None = None,
    race: Race | None = None,
) -> str:
    return Refused(code=code, reason=reason, ref=ref, action=action, race=race).model_dump_json()


@timed(ENCODE)
def race_won(round_no: int, loser: int, name: str | None, margin_ms: int) -> str:
    """The winner's word of a race it won (R3)."""
    return RaceWon(round_no=round_no, loser=loser, name=name, margin_ms=margin_ms).model_dump_json()


def taken_over(seat: int) -> str:
    return TakenOver(
        seat=seat, reason="your seat was taken over on another device"
    ).model_dump_json()


def removed(seat: int) -> str:
    return Removed(seat=seat, reason="the host removed you from this table").model_dump_json()


def left(seat: int) -> str:
    return YouLeft(seat=seat, reason="you left the table").model_dump_json()


def host_now(host_token: str) -> str:
    return HostNow(host_token=host_token).model_dump_json()


def revoked(seat: int) -> str:
    return Revoked(seat=seat, reason="the host revoked the link of this seat").model_dump_json()


@timed(ENCODE)
def round_over(
    round_no: int,
    result: RoundResult,
    totals: list[int],
    *,
    game_over: bool,
    winners: Sequence[int],
    next_round_at: float | None,
    races: Races,
    game_races: Races,
    replay: int | None = None,
) -> str:
    """R4/R5: how the round ended, each seat's count and points, the totals,
    and the races (R3) each seat won and lost, this round and in the game."""
    assert result.termination is not None  # only a finished round is announced
    return RoundOver(
        round_no=round_no,
        ended_by=result.termination,
        caller=result.caller,
        stacks=[s.stack for s in result.seats],
        middle=[s.middle for s in result.seats],
        points=[s.points for s in result.seats],
        totals=totals,
        game_over=game_over,
        winners=list(winners),
        next_round_at=next_round_at,
        races=races,
        game_races=game_races,
        replay=replay,
    ).model_dump_json()


# --------------------------------------------------------------------------
# views (the hot path)
# --------------------------------------------------------------------------

# A person's view differs from a watcher's only in ``viewer`` and
# ``actions`` (R3: everybody at the table sees the same open cards), so the
# shared part is encoded once per move and each seat adds its own actions.


def _shared_view_json(rnd: Round) -> str:
    """The watcher's view as JSON without its closing brace and per-seat keys.

    The same text as ``rnd.view(None).to_dict()`` without ``viewer`` and
    ``actions``, put together from the JSON of its parts: the engine keeps
    a seat's and a pile's view until an action changes it, so after a move
    only the parts it changed (the mover's seat, one pile) are encoded.
    """
    view = _engine_view(rnd)
    middle = ",".join([_part_json(pile) for pile in view.middle])
    seats = ",".join([_part_json(seat) for seat in view.seats])
    return (
        f'{{"players":{view.players},"options":{_part_json(view.options)},'
        f'"middle":[{middle}],"seats":[{seats}],"is_over":{_scalar(view.is_over)},'
        f'"caller":{_scalar(view.caller)},"deadlock":{_scalar(view.deadlock)}'
    )


@timed(ENGINE)
def _engine_view(rnd: Round) -> TableView:
    return rnd.view(None)


@timed(ENGINE)
def _engine_legal(rnd: Round, seat: int) -> list[Action]:
    return rnd.legal_actions(seat)


class _Part(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


# The JSON of each view part by the part's id, holding the part itself so
# its id stays taken while the entry lives (the parts are frozen values).
# Cleared when full: the parts of the rounds being played come back in the
# next moves.
_PART_JSON: dict[int, tuple[_Part, str]] = {}
_PART_JSON_MAX = 1 << 15


def _part_json(part: _Part) -> str:
    hit = _PART_JSON.get(id(part))
    if hit is not None:
        return hit[1]
    if len(_PART_JSON) >= _PART_JSON_MAX:
        _PART_JSON.clear()
    text = _dumps(part.to_dict())
    _PART_JSON[id(part)] = (part, text)
    return text


# Each legal action is sent structured (``protocol.WireAction``).  The
# engine interns its actions (``ligretto.rules.interning``), so the JSON of
# one is built once per action object and looked up by its id: hashing the
# frozen dataclass would cost about as much as building the text.  The
# cache holds the action itself, so an id stays taken while its entry
# lives; actions made elsewhere (``Action.parse``) are not interned, hence
# the bound.
_ACTION_JSON: dict[int, tuple[Action, str]] = {}
_ACTION_JSON_MAX = 1 << 16


def _action_json(action: Action) -> str:
    if len(_ACTION_JSON) >= _ACTION_JSON_MAX:
        _ACTION_JSON.clear()
    text = wire_action(action).model_dump_json()
    _ACTION_JSON[id(action)] = (action, text)
    return text


def _actions_json(actions: Sequence[Action]) -> str:
    cache = _ACTION_JSON
    parts = []
    for action in actions:
        hit = cache.get(id(action))
        parts.append(_action_json(action) if hit is None else hit[1])
    return f"[{','.join(parts)}]"


def view_dict(view: TableView) -> dict[str, Any]:
    """``view.to_dict()`` with each action structured: the ``view`` of the protocol."""
    data = view.to_dict()
    data["actions"] = [wire_action(a).model_dump() for a in view.actions]
    return data


def _seat_view_json(rnd: Round, shared: str, seat: int | None) -> str:
    actions = "[]"
    if seat is not None and not rnd.is_over:
        actions = _actions_json(_engine_legal(rnd, seat))
    return f'{shared},"viewer":{_scalar(seat)},"actions":{actions}}}'


def view_message(
    rnd: Round, round_no: int, seq: int, seat: int | None, shared: str | None = None
) -> str:
    """The whole table as ``seat`` (``None``: a watcher) may see it."""
    view = _seat_view_json(rnd, shared or _shared_view_json(rnd), seat)
    return f'{{"v":1,"type":"view","round_no":{round_no},"seq":{seq},"view":{view}}}'


@timed(ENCODE)
def send_views(rnd: Round, round_no: int, seq: int, seating: Seating) -> None:
    """Each seat its own view, every watcher the watchers' view."""
    shared = _shared_view_json(rnd)
    for seat in seating:
        if seat.conns:
            text = view_message(rnd, round_no, seq, seat.index, shared)
            for conn in seat.conns:
                conn.send(text)
    if seating.watchers:
        text = view_message(rnd, round_no, seq, None, shared)
        for conn in seating.watchers:
            conn.send(text)


@timed(ENCODE)
def send_events(
    rnd: Round,
    round_no: int,
    seq: int,
    seating: Seating,
    *,
    by: int | None,
    action: str,
    events: list[str],
    mover: Connection | None,
    ref: int | None,
) -> None:
    """An accepted move: what happened and the table as each recipient sees it now."""
    shared = _shared_view_json(rnd)
    head = (
        f'{{"v":1,"type":"events","round_no":{round_no},"seq":{seq},'
        f'"seat":{"null" if by is None else by},"action":{_dumps(action)},'
        f'"events":{_dumps(events)},"view":'
    )
    for seat in seating:
        if not seat.conns:
            continue
        body = head + _seat_view_json(rnd, shared, seat.index)
        for conn in seat.conns:
            # Only the mover's copy carries its ref (the page matches it).
            conn.send(body + (f',"ref":{ref}}}' if conn is mover else ',"ref":null}'))
    if seating.watchers:
        text = head + _seat_view_json(rnd, shared, None) + ',"ref":null}'
        for conn in seating.watchers:
            conn.send(text)


@timed(ENCODE)
def send_all(seating: Seating, text: str) -> None:
    """The same message to everybody at the table."""
    for conn in seating.connections():
        conn.send(text)
