"""A table's state as stored data, and the state built again from it.

:func:`table_state` is what the journal writes for a table (JSON-ready,
taken on the event loop between two commands): options, end condition,
phase, seats with the hashes of their tokens only, the current round's
seed, its Tafel game and the edit token the table writes to it with, and
the group (id and token) its games join, if the host picked one, and the
races (R3) each seat won and lost in the game and in the current round,
with the round's races as its replay keeps them.
With the round's actions (stored separately, in order) that is all a
table is: the engine is deterministic, so ``Round.replay`` of the seed
and the actions is the exact round (same cards, same piles).

:func:`restore_state` builds the :class:`~ligretto.live.state.TableState`
again in a new process, as it was stored; the registry puts a table
around it and resumes it (:func:`~ligretto.live.lifecycle.resume`).
Anything that cannot be rebuilt — a state from an incompatible version, an
action log the engine refuses — raises :class:`RestoreError`, and the
table is closed with that reason instead of coming back wrong.
"""

from __future__ import annotations

from typing import Any

from ligretto.live.phase import Phase
from ligretto.live.replays import MAX_RACES, race_record
from ligretto.live.scoring.keeper import EndCondition, GroupLink
from ligretto.live.seating import Gone, Seat, Seating
from ligretto.live.state import GameState, TableRound, TableState, check_seats
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.store.live_tables import StoredTable

#: The layout of :func:`table_state`; a stored table of another format is
#: closed (``incompatible``) rather than restored wrong.
FORMAT = 1

#: Why a stored table was closed instead of restored (``closed_reason``).
INCOMPATIBLE = "incompatible"


class RestoreError(Exception):
    """A stored table cannot be rebuilt; ``reason`` is stored with it."""

    code = "cannot_restore"

    def __init__(self, message: str, reason: str = INCOMPATIBLE) -> None:
        super().__init__(message)
        self.reason = reason


def table_state(state: TableState) -> dict[str, Any]:
    """The table as JSON-ready data (no token, only token hashes)."""
    dealt, game = state.round.dealt, state.game
    return {
        "format": FORMAT,
        "code": state.code,
        "options": state.options.to_dict(),
        "end": state.end.to_dict(),
        "phase": str(state.phase),
        "host_hash": state.seating.host_hash,
        "barred": sorted(state.seating.barred),
        "seats": [_seat_state(seat) for seat in state.seating],
        "round_no": game.round_no,
        "seq": state.seq,
        "rounds": state.rounds,
        "round": None if dealt is None else {"players": dealt.players, "seed": dealt.seed},
        "recorded": game.recorded_round,
        "tafel_rounds": game.tafel_rounds,
        "tafel_game": game.tafel_game,
        "tafel_token": game.tafel_token,
        "group": None if state.group is None else state.group.to_dict(),
        "totals": game.totals,
        "last_round_over": game.last_round_over,
        "tags": sorted(state.tags),
        "bot_pace": state.bot_pace,
        "game_races": {"won": game.races_won, "lost": game.races_lost},
        # The round's races are its round_no's: restored only into that round.
        "round_races": {
            "round_no": game.round_no,
            "won": state.round.races_won,
            "lost": state.round.races_lost,
            "kept": state.round.races,
        },
    }


def _seat_state(seat: Seat) -> dict[str, Any]:
    return {
        "kind": seat.kind,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "strategy": seat.strategy,
        "level": seat.level,
        "away": seat.away,
        "hosts": seat.hosts,
        "gone": seat.gone,
        "devices": sorted(seat.devices),
    }


def restore_state(stored: StoredTable, *, bot_pace: float = 1.0) -> TableState:
    """The table's state as it was stored, its round replayed from its actions.

    ``bot_pace`` is for tables stored before their pace was.  Raises
    :class:`RestoreError` when the stored data cannot be trusted.
    """
    data = stored.state
    try:
        if data.get("format") != FORMAT:
            raise RestoreError(f"stored in format {data.get('format')!r}, not {FORMAT}")
        options = RuleOptions(**data["options"])
        seats = [_seat(i, seat) for i, seat in enumerate(data["seats"])]
        check_seats(options, len(seats))
        totals = data["totals"]
        game = GameState(
            round_no=int(data["round_no"]),
            tafel_game=data["tafel_game"],
            tafel_token=data["tafel_token"],
            tafel_rounds=int(data["tafel_rounds"]),
            recorded_round=int(data["recorded"]),
            totals=None if totals is None else [int(t) for t in totals],
            last_round_over=data["last_round_over"],
        )
        _restore_game_races(game, data.get("game_races"), len(seats))
        seating = Seating.restored(seats, str(data["host_hash"]))
        # Tables stored before removed people were kept out keep nobody out.
        seating.barred = {str(h) for h in data.get("barred", ())}
        state = TableState(
            stored.code,
            options,
            EndCondition(**data["end"]),
            seating,
            group=_group(data.get("group")),
            tags={str(t) for t in data.get("tags", ())},
            # A practice table's slower bot stays slow.
            bot_pace=float(data.get("bot_pace", bot_pace)),
            phase=Phase(data["phase"]),
            seq=max([int(data["seq"])] + [a.seq for a in stored.actions]),
            # Tables stored before rounds were counted across games.
            rounds=int(data.get("rounds", game.round_no)),
            game=game,
        )
        round_data = data["round"]
        if round_data is not None:
            kept = [a for a in stored.actions if a.round_no == game.round_no]
            log = [(a.seat, a.action) for a in kept]
            dealt = Round.replay(int(round_data["players"]), int(round_data["seed"]), options, log)
            if dealt.players != len(seats):
                raise RestoreError("the round does not seat the table's seats")
            # The play times go on from the last action's (actions stored
            # before times were have none: 0).
            times = [a.t_ms or 0 for a in kept]
            state.round = TableRound(
                dealt, actions=len(log), times=times, played_ms=max(times, default=0)
            )
            _restore_round_races(state.round, data.get("round_races"), game.round_no, len(seats))
    except RestoreError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        # ValueError covers the engine refusing a logged action
        # (IllegalActionError and its kin) and a malformed action text;
        # OverflowError a stored Infinity (JSON allows it) read as int.
        raise RestoreError(f"cannot rebuild the table: {exc}") from exc
    return state


# The race counts (R3) are the score screen's, not the game's: stored ones
# that cannot be read count from 0 again rather than close the table. Tables
# stored before races were kept have none.


def _restore_game_races(game: GameState, data: Any, seats: int) -> None:
    try:
        won, lost = _counts(data["won"], seats), _counts(data["lost"], seats)
    except (KeyError, TypeError, ValueError, OverflowError):
        return
    game.races_won, game.races_lost = won, lost


def _restore_round_races(rnd: TableRound, data: Any, round_no: int, seats: int) -> None:
    try:
        if data["round_no"] != round_no:
            return  # written before this round began: not its races
        won, lost = _counts(data["won"], seats), _counts(data["lost"], seats)
        kept = [_race(race, seats) for race in data["kept"][:MAX_RACES]]
    except (KeyError, TypeError, ValueError, OverflowError):
        return
    rnd.races_won, rnd.races_lost, rnd.races = won, lost, kept


def _counts(data: Any, seats: int) -> list[int]:
    """A stored list of per-seat race counts (``[]``: none counted yet)."""
    counts = [int(n) for n in data]
    if len(counts) > seats or any(n < 0 for n in counts):
        raise ValueError(f"race counts {counts!r} do not fit {seats} seats")
    return counts


def _race(data: Any, seats: int) -> dict[str, int | str]:
    """One race as the round's replay keeps it (``replays.race_record``)."""
    seat, winner = int(data["seat"]), int(data["refused_by_seat"])
    if not (0 <= seat < seats and 0 <= winner < seats):
        raise ValueError(f"a race of a seat the table does not have: {data!r}")
    return race_record(int(data["t_ms"]), seat, str(data["action"]), winner, int(data["margin_ms"]))


def _group(data: Any) -> GroupLink | None:
    """The stored group link (tables stored before groups have none)."""
    if data is None:
        return None
    return GroupLink(str(data["id"]), str(data["token"]))


def _seat(index: int, data: dict[str, Any]) -> Seat:
    kind = data["kind"]
    if kind not in ("empty", "human", "bot"):
        raise RestoreError(f"seat {index + 1}: unknown kind {kind!r}")
    return Seat(
        index,
        kind=kind,
        name=data["name"],
        token_hash=data["token_hash"],
        strategy=data["strategy"],
        level=data["level"],
        away=bool(data["away"]),
        hosts=bool(data["hosts"]),
        gone=_gone(data.get("gone")),
        devices={str(h) for h in data.get("devices", ())},
    )


def _gone(data: Any) -> Gone | None:
    """Why a seat's person is gone for good (tables stored before: ``None``)."""
    if data == "left":
        return "left"
    if data == "removed":
        return "removed"
    return None
