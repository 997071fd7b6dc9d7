"""The stall guard of an online table (R4): "We're stuck" when no card goes to the middle.

No card has gone to the middle for ``stall_after`` seconds: the people at
the table are offered "We're stuck"; once every person present agreed, the
round is settled as stuck (R4).  A table without a person present decides
it by itself, and a table nobody is connected to decides nothing (its
guard starts again when someone is back).
"""

from __future__ import annotations

from ligretto.live import encoder
from ligretto.live.actor import TableActor
from ligretto.live.clock import TimerHandle
from ligretto.live.connection import Connection
from ligretto.live.phase import Phase
from ligretto.live.protocol import Reason
from ligretto.live.scoring.round_end import end_round
from ligretto.live.state import TableState
from ligretto.live.visibility import public_events
from ligretto.rules.actions import STUCK


def present_people(state: TableState) -> set[int]:
    """Seats of the people at the table now (connected, not away)."""
    return {s.index for s in state.seating if s.kind == "human" and s.conns and not s.away}


class StallGuard:
    """The guard's one timer; what it decides is kept in ``state.round``."""

    __slots__ = ("_table", "_timer")

    def __init__(self, table: TableActor) -> None:
        self._table = table
        self._timer: TimerHandle | None = None

    @property
    def running(self) -> bool:
        """The guard's timer is set (it may be one of a round gone by)."""
        return self._timer is not None

    def start(self) -> None:
        """Start the guard (at "Ligretto!", or when someone is back)."""
        self._table.state.round.last_middle = self._table.settings.clock.monotonic()
        self._later(self._table.settings.stall_after)

    def stop(self) -> None:
        if self._timer is not None:
            self._table.cancel_timer(self._timer)
            self._timer = None

    def card_played(self) -> None:
        """A card went to the middle: the round is not stuck."""
        rnd = self._table.state.round
        rnd.last_middle = self._table.settings.clock.monotonic()
        if rnd.stuck_offered:
            rnd.stuck_offered, rnd.stuck_agreed = False, set()
            self._table.broadcast_table()

    def check(self) -> None:
        """The guard's timer fired: offer "We're stuck", or look again later."""
        table, rnd = self._table, self._table.state.round
        self._timer = None  # this timer has fired
        if table.paused:
            # Nobody connected: nothing moves and nothing is decided; the
            # guard starts again when someone is back.
            return
        stall_after = table.settings.stall_after
        quiet = table.settings.clock.monotonic() - rnd.last_middle
        if quiet < stall_after:
            self._later(stall_after - quiet)
            return
        if not present_people(table.state):
            self.settle()  # no person present: the table decides (R4)
            return
        if not rnd.stuck_offered:
            rnd.stuck_offered, rnd.stuck_agreed = True, set()
            table.broadcast_table()
        self._later(stall_after)

    def agree(self, conn: Connection) -> None:
        """A person agrees that the round is stuck (R4); all present → settled."""
        table, rnd = self._table, self._table.state.round
        if conn.seat is None:
            table.refuse(conn, Reason.NOT_SEATED, "watchers do not decide")
            return
        if table.state.phase != Phase.PLAYING or not rnd.stuck_offered:
            table.refuse(conn, Reason.NOT_STUCK, "cards still go to the middle")
            return
        rnd.stuck_agreed.add(conn.seat)
        if present_people(table.state) <= rnd.stuck_agreed:
            self.settle()
        else:
            table.broadcast_table()

    def settle(self) -> None:
        """R4: the round is stuck; the engine settles it (a move of nobody's)."""
        table, state, rnd = self._table, self._table.state, self._table.state.round
        assert rnd.dealt is not None
        events = rnd.dealt.settle_stuck()
        rnd.stuck_offered, rnd.stuck_agreed = False, set()
        state.seq += 1
        table.logged(None, str(STUCK))
        rnd.last_middle = table.settings.clock.monotonic()
        encoder.send_events(
            rnd.dealt,
            state.game.round_no,
            state.seq,
            state.seating,
            by=None,
            action=str(STUCK),
            events=public_events(events),
            mover=None,
            ref=None,
        )
        if rnd.dealt.is_over:
            end_round(table)
            return
        self._later(table.settings.stall_after)
        table.broadcast_table()
        table.plan_bots()

    def _later(self, delay: float) -> None:
        self.stop()
        self._timer = self._table.set_timer("stall", delay)
