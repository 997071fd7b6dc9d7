"""A table as stored data, and a table restored from it.

:func:`table_state` is what the journal writes for a table (JSON-ready,
taken on the event loop between two commands): options, end condition,
phase, seats with the hashes of their tokens only, the current round's
seed, its Tafel game and the edit token the table writes to it with, and
the group (id and token) its games join, if the host picked one.
With the round's actions (stored separately, in order) that is all a
table is: the engine is deterministic, so ``Round.replay`` of the seed
and the actions is the exact round (same cards, same piles).

:func:`restore_table` builds the table again in a new process.  A round
that was being played resumes after a visible countdown once someone is
back (``resume`` in the countdown message); a round that ended but was
not yet on the Tafel game is recorded now; a lobby is a lobby again.
Anything that cannot be rebuilt — a state from an incompatible version, an
action log the engine refuses — raises :class:`RestoreError`, and the
table is closed with that reason instead of coming back wrong.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ligretto.live.phase import Phase
from ligretto.live.scorekeeping import EndCondition, GroupLink
from ligretto.live.seating import Seat
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round
from ligretto.store.live_tables import StoredTable

if TYPE_CHECKING:
    from ligretto.live.journal import Journal
    from ligretto.live.scorekeeping import ScoreKeeper
    from ligretto.live.table import Table, TableSettings

#: The layout of :func:`table_state`; a stored table of another format is
#: closed (``incompatible``) rather than restored wrong.
FORMAT = 1

#: Why a stored table was closed instead of restored (``closed_reason``).
INCOMPATIBLE = "incompatible"


class RestoreError(Exception):
    """A stored table cannot be rebuilt; ``reason`` is stored with it."""

    def __init__(self, message: str, reason: str = INCOMPATIBLE) -> None:
        super().__init__(message)
        self.reason = reason


def table_state(table: Table) -> dict[str, Any]:
    """The table as JSON-ready data (no token, only token hashes)."""
    rnd = table.round
    return {
        "format": FORMAT,
        "code": table.code,
        "options": table.options.to_dict(),
        "end": table.end.to_dict(),
        "phase": str(table.phase),
        "host_hash": table.seating.host_hash,
        "seats": [_seat_state(seat) for seat in table.seating],
        "round_no": table.round_no,
        "seq": table.seq,
        "round": None if rnd is None else {"players": rnd.players, "seed": rnd.seed},
        "recorded": table.recorded_round,
        "tafel_rounds": table.tafel_rounds,
        "tafel_game": table.tafel_game,
        "tafel_token": table.tafel_token,
        "group": None if table.group is None else table.group.to_dict(),
        "totals": table.totals,
        "last_round_over": table.last_round_over,
        "tags": sorted(table.tags),
        "bot_pace": table.settings.bot_pace,
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
    }


def restore_table(
    stored: StoredTable,
    *,
    scorekeeper: ScoreKeeper | None,
    settings: TableSettings,
    journal: Journal | None,
) -> Table:
    """The table as it was stored, not yet running (see the module docstring).

    Raises :class:`RestoreError` when the stored data cannot be trusted.
    """
    from ligretto.live.table import Table

    state = stored.state
    try:
        if state.get("format") != FORMAT:
            raise RestoreError(f"stored in format {state.get('format')!r}, not {FORMAT}")
        options = RuleOptions(**state["options"])
        end = EndCondition(**state["end"])
        phase = Phase(state["phase"])
        seats = [_seat(i, data) for i, data in enumerate(state["seats"])]
        # A practice table's slower bot stays slow.
        settings = replace(settings, bot_pace=float(state.get("bot_pace", settings.bot_pace)))
        table = Table(
            stored.code,
            seats=len(seats),
            options=options,
            end=end,
            host_token=None,
            host_hash=str(state["host_hash"]),
            scorekeeper=scorekeeper,
            settings=settings,
            journal=journal,
            group=_group(state.get("group")),
        )
        table.seating.seats = seats
        table.round_no = int(state["round_no"])
        table.seq = max([int(state["seq"])] + [a.seq for a in stored.actions])
        table.recorded_round = int(state["recorded"])
        table.tafel_rounds = int(state["tafel_rounds"])
        table.tafel_game = state["tafel_game"]
        table.tafel_token = state["tafel_token"]
        totals = state["totals"]
        table.totals = None if totals is None else [int(t) for t in totals]
        table.last_round_over = state["last_round_over"]
        table.tags = {str(t) for t in state.get("tags", ())}
        round_data = state["round"]
        rnd: Round | None = None
        if round_data is not None:
            log = [(a.seat, a.action) for a in stored.actions if a.round_no == table.round_no]
            rnd = Round.replay(int(round_data["players"]), int(round_data["seed"]), options, log)
            if rnd.players != len(seats):
                raise RestoreError("the round does not seat the table's seats")
            table.round_actions = len(log)
    except RestoreError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # ValueError covers the engine refusing a logged action
        # (IllegalActionError and its kin) and a malformed action text.
        raise RestoreError(f"cannot rebuild the table: {exc}") from exc
    table.resume(phase, rnd)
    return table


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
    )
