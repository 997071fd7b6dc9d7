"""The authority of one online table: an actor with one queue of commands, each handled to the end.

One asyncio task per table (:meth:`Table.run`) takes commands from one
queue — moves from people, moves from bots, joins, leaves, timers — and
handles each to the end before it looks at the next.  Handlers are plain
synchronous functions: there is no ``await`` between checking a move and
applying it, so moves are applied one at a time in arrival order and a race
for a pile (R3) is decided by who arrived first, exactly as at a real table.

Nothing else touches the round.  The WebSocket route only parses messages,
hands them to :meth:`Table.submit` and forwards what the table puts into the
connection's outbox (like boardgame.io's master, the transport holds no game
logic).  Like the master, the table keeps no loose state of its own: it
reads its :class:`~ligretto.live.state.TableState`, applies the command and
leaves the result there.  The table keeps the queue and the dispatch; the
rest is delegated:

- :mod:`~ligretto.live.state` — the table's state, one typed record;
- :mod:`~ligretto.live.moves` — checking and applying moves (R3);
- :mod:`~ligretto.live.queries` — what anyone may read of the table;
- :mod:`~ligretto.live.lifecycle` — start, deal, "Ligretto!", resume, play again;
- :mod:`~ligretto.live.scoring.round_end` — the end of a round, onto the Tafel;
- :mod:`~ligretto.live.stall` — the stall guard, "We're stuck" (R4);
- :mod:`~ligretto.live.seat_commands` — joins, leaves, stand-ins, the host's
  seat commands (on :mod:`~ligretto.live.seating`);
- :mod:`~ligretto.live.encoder` — every message sent, as JSON text;
- :mod:`~ligretto.live.bot_driver` — bots' moves after their reaction time,
  through the same queue and the same checks as people's;
- :mod:`~ligretto.live.scoring.recorder` — finished rounds onto the Tafel game;
- :mod:`~ligretto.live.clock` — time and timers (tests move it by hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from ligretto.live import encoder, lifecycle, moves, replays, seat_commands
from ligretto.live.actor import TimerKind
from ligretto.live.bot_driver import BotDriver, BotMove, StandIn
from ligretto.live.clock import TimerHandle
from ligretto.live.commands import Call, Command, FromClient, Left, StopTable, Timer
from ligretto.live.connection import Connection
from ligretto.live.journal import Journal
from ligretto.live.persistence import table_state
from ligretto.live.phase import Phase
from ligretto.live.protocol import (
    AddBot,
    ClientMessage,
    Join,
    Leave,
    Move,
    Ping,
    PlayAgain,
    Reason,
    RemoveBot,
    RemovePlayer,
    RevokeSeat,
    Start,
    Stuck,
)
from ligretto.live.queries import TableQueries
from ligretto.live.scoring.keeper import EndCondition, GroupLink, ScoreKeeper
from ligretto.live.scoring.recorder import TafelRecorder
from ligretto.live.seating import BotSpec
from ligretto.live.settings import TableSettings
from ligretto.live.stall import StallGuard
from ligretto.live.state import TableState
from ligretto.metrics.cpu_split import TABLE, timed
from ligretto.metrics.moves import MOVES
from ligretto.rules.options import RuleOptions
from ligretto.store.live_tables import StoredAction

log = logging.getLogger(__name__)

# How long a stopping table waits for a round still being written to its
# Tafel game (seconds).
STOP_GRACE = 5.0


class Table(TableQueries):
    """One online table; see the module docstring.

    Seats are filled when the table opens (``host_name`` in seat 0 with
    the host token, then ``bots``); afterwards only through messages.
    A stored table comes back through :meth:`from_state`.
    """

    def __init__(
        self,
        code: str,
        *,
        seats: int,
        options: RuleOptions,
        end: EndCondition,
        host_token: str | None,
        host_hash: str | None = None,
        host_name: str | None = None,
        bots: Sequence[BotSpec] = (),
        scorekeeper: ScoreKeeper | None = None,
        settings: TableSettings | None = None,
        journal: Journal | None = None,
        group: GroupLink | None = None,
    ) -> None:
        settings = settings or TableSettings()
        state = TableState.open(
            code,
            seats=seats,
            options=options,
            end=end,
            host_token=host_token,
            host_hash=host_hash,
            host_name=host_name,
            bots=bots,
            group=group,
            bot_pace=settings.bot_pace,
            idle_since=settings.clock.monotonic(),
        )
        state.round.last_middle = settings.clock.monotonic()
        self._setup(state, settings, scorekeeper, journal)

    @classmethod
    def from_state(
        cls,
        state: TableState,
        *,
        settings: TableSettings,
        scorekeeper: ScoreKeeper | None,
        journal: Journal | None,
    ) -> Table:
        """A table around a state built elsewhere (a restored one), not yet running."""
        table = cls.__new__(cls)
        table._setup(state, settings, scorekeeper, journal)
        return table

    def _setup(
        self,
        state: TableState,
        settings: TableSettings,
        scorekeeper: ScoreKeeper | None,
        journal: Journal | None,
    ) -> None:
        self.state = state
        self.settings = settings
        self.journal = journal
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.rng = random.Random(settings.seed)
        self._bots = BotDriver(
            self.rng,
            self._later,
            stand_in=StandIn(settings.standin_strategy, settings.standin_level),
            pace=state.bot_pace,
        )
        self.recorder = (
            TafelRecorder(
                scorekeeper,
                state.code,
                self.call,
                # The round's replay is written before the board takes the
                # round, so the board's new row links it (docs/online-play.md).
                before_record=journal.flush
                if journal is not None and journal.keep_rounds
                else None,
            )
            if scorekeeper is not None
            else None
        )
        self.stall = StallGuard(self)
        self._task: asyncio.Task[None] | None = None
        self._timers: set[TimerHandle] = set()
        # Accepted moves, for the benchmark and the tests.
        self.moves_applied = 0

    # ------------------------------------------------------------------
    # public API
    # ------------------------------------------------------------------

    def note(self) -> None:
        """The table changed: the journal writes it with its next batch."""
        if self.journal is not None:
            self.journal.changed(self.state.code, self._stored)

    def _stored(self) -> dict[str, Any]:
        return table_state(self.state)

    def submit(self, conn: Connection, message: ClientMessage) -> None:
        """A validated client message (called by the transport).

        Handled at once when nothing waits in the queue and the actor runs:
        the actor would take it next, and handling a command never awaits,
        so the order is the one the queue would give (R3: the first move to
        arrive wins) and the table's task is not woken for every move.
        """
        command = FromClient(conn, message, self.settings.clock.monotonic())
        if type(message) is Move:
            MOVES.received += 1  # a plain integer (ligretto.metrics.moves)
        task = self._task
        if self.queue.empty() and task is not None and not task.done():
            self._run_command(command)
        else:
            self.queue.put_nowait(command)

    def left(self, conn: Connection) -> None:
        """The transport lost this connection."""
        self.queue.put_nowait(Left(conn))

    def call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` inside the actor, after what is queued already."""
        self.queue.put_nowait(Call(fn))

    def begin_game(self) -> None:
        """Close the seats, open the Tafel game, deal the first round (in the actor)."""
        lifecycle.begin_game(self)

    def deal(self) -> None:
        """Deal the next round and count down to "Ligretto!" (in the actor)."""
        lifecycle.deal(self)

    def resume(self) -> None:
        """Take up the stored phase after a restart (before the task runs)."""
        lifecycle.resume(self)

    # ------------------------------------------------------------------
    # the task
    # ------------------------------------------------------------------

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The table's task while it runs (None before :meth:`start_task`)."""
        return self._task

    def start_task(self) -> asyncio.Task[None]:
        name = f"table-{self.state.code}"
        self._task = asyncio.get_running_loop().create_task(self.run(), name=name)
        return self._task

    async def stop(self) -> None:
        if self.recorder is not None and self._task is not None and not self._task.done():
            # A round on its way to the Tafel is written first, and its
            # answer handled, before the table stops.
            await self.recorder.settle(STOP_GRACE)
        self.queue.put_nowait(StopTable())
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def run(self) -> None:
        """The actor loop: one command at a time, to the end."""
        try:
            while True:
                command = await self.queue.get()
                if isinstance(command, StopTable):
                    break
                self._run_command(command)
        finally:
            if self.recorder is not None:
                self.recorder.cancel()
            for handle in self._timers:
                handle.cancel()
            self._timers.clear()
            for conn in self.state.seating.connections():
                conn.close()

    @timed(TABLE)
    def _run_command(self, command: Command) -> None:
        try:
            self._handle(command)
        except Exception:  # pragma: no cover - a bug must not end the table
            log.exception("table %s: command %r failed", self.state.code, command)

    def _later(self, delay: float, command: Command) -> TimerHandle:
        handle: TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self.queue.put_nowait(command)

        handle = self.settings.clock.call_later(max(0.0, delay), fire)
        self._timers.add(handle)
        return handle

    def set_timer(
        self, kind: TimerKind, delay: float, *, seat: int = -1, generation: int = 0
    ) -> TimerHandle:
        """Queue a timer of the current round after ``delay`` seconds."""
        return self._later(delay, Timer(kind, self.state.game.round_no, seat, generation))

    def cancel_timer(self, handle: TimerHandle) -> None:
        handle.cancel()
        self._timers.discard(handle)

    # ------------------------------------------------------------------
    # dispatch
    # ------------------------------------------------------------------

    def _handle(self, command: Command) -> None:
        if isinstance(command, FromClient):
            self._on_message(command.conn, command.message, command.at)
            if type(command.message) is Move:
                # Accepted or refused, its answer is queued now (/metrics).
                MOVES.answer(self.settings.clock.monotonic() - command.at)
        elif isinstance(command, Left):
            seat_commands.left(self, command.conn)
        elif isinstance(command, BotMove):
            moves.bot_moves(self, command)
        elif isinstance(command, Timer):
            self._on_timer(command)
        elif isinstance(command, Call):
            command.fn()

    def _on_message(self, conn: Connection, message: ClientMessage, at: float) -> None:
        if isinstance(message, Ping):
            conn.send(encoder.pong(message.t, self.settings.clock.now()))
            return
        if conn.taken_over:
            self.refuse(
                conn,
                Reason.TAKEN_OVER,
                "your seat was taken over on another device",
                message if isinstance(message, Move) else None,
            )
            return
        if isinstance(message, Join):
            seat_commands.join(self, conn, message)
            return
        if not conn.joined:
            self.refuse(conn, Reason.NOT_JOINED, "send join first")
            return
        if isinstance(message, Move):
            moves.person_moves(self, conn, message, at)
        elif isinstance(message, AddBot):
            seat_commands.add_bot(self, conn, message)
        elif isinstance(message, RemoveBot):
            seat_commands.remove_bot(self, conn, message)
        elif isinstance(message, RevokeSeat):
            seat_commands.revoke_seat(self, conn, message)
        elif isinstance(message, RemovePlayer):
            seat_commands.remove_player(self, conn, message)
        elif isinstance(message, Leave):
            seat_commands.leave(self, conn, message)
        elif isinstance(message, Start):
            lifecycle.start(self, conn)
        elif isinstance(message, PlayAgain):
            lifecycle.play_again(self, conn)
        elif isinstance(message, Stuck):
            self.stall.agree(conn)

    def _on_timer(self, timer: Timer) -> None:
        # "away" outlives rounds (its presence count says if it is stale);
        # the others belong to the round they were set in.
        if timer.kind != "away" and timer.round_no != self.state.game.round_no:
            return
        if timer.kind == "go":
            lifecycle.go(self)
        elif timer.kind == "stall" and self.state.phase == Phase.PLAYING:
            self.stall.check()
        elif timer.kind == "next":
            lifecycle.next_round(self)
        elif timer.kind == "away":
            seat_commands.away(self, timer.seat, timer.generation)

    # ------------------------------------------------------------------
    # what the table's parts use (actor.TableActor)
    # ------------------------------------------------------------------

    def plan_bots(self) -> None:
        # Nobody connected: no bot moves (an abandoned table must cost
        # nothing); they go on when someone joins.
        state = self.state
        if state.phase != Phase.PLAYING or state.round.dealt is None or self.paused:
            return
        self._bots.plan(state.round.dealt, state.game.round_no, state.seating)

    def broadcast_table(self) -> None:
        # Every change of the table is broadcast, so this is where it is noted.
        self.note()
        encoder.send_all(self.state.seating, encoder.table_update(self.state, self.tafel_url))

    def logged(self, seat: int | None, text: str) -> int:
        """An action entered the round's log: the journal keeps it, in order,
        with its play time (returned, in ms since "Ligretto!")."""
        state = self.state
        t_ms = self.play_ms()
        state.round.times.append(t_ms)
        if self.journal is not None:
            self.journal.action(
                StoredAction(
                    state.code,
                    state.game.round_no,
                    state.round.actions,
                    seat,
                    text,
                    state.seq,
                    t_ms,
                )
            )
        state.round.actions += 1
        return t_ms

    def play_ms(self) -> int:
        return replays.play_ms(self.state.round, self.settings.clock.monotonic())

    def keep_round(self) -> bool:
        # Built here, between two commands, while the round is the one that
        # finished; the journal writes it with its next batch.
        if self.journal is None or not self.journal.keep_rounds:
            return False  # LIGRETTO_REPLAYS=off: nothing kept, nothing linked
        self.journal.round(replays.finished_round(self.state))
        return True

    def host_only(self, conn: Connection) -> bool:
        if not conn.host:
            self.refuse(conn, Reason.NOT_HOST, "only the host may do that")
            return False
        return True

    def refuse(self, conn: Connection, code: Reason, reason: str, move: Move | None = None) -> None:
        conn.send(
            encoder.refused(
                code,
                reason,
                move.ref if move is not None else None,
                move.action if move is not None else None,
            )
        )
