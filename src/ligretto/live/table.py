"""The authority of one online table: an actor that owns the round.

One asyncio task per table (:meth:`Table.run`) takes commands from one
queue — moves from people, moves from bots, joins, leaves, timers — and
handles each to the end before it looks at the next.  Handlers are plain
synchronous methods: there is no ``await`` between checking a move and
applying it, so moves are applied one at a time in arrival order and a race
for a pile (R3) is decided by who arrived first, exactly as at a real table.

Nothing else touches the round.  The WebSocket route only parses messages,
hands them to :meth:`Table.submit` and forwards what the table puts into the
connection's outbox (like boardgame.io's master, the transport holds no game
logic).  The table keeps the queue, the dispatch and the applying of moves;
the rest is delegated:

- :mod:`~ligretto.live.seating` — chairs, joins, take-overs, bots in seats;
- :mod:`~ligretto.live.encoder` — every message sent, as JSON text;
- :mod:`~ligretto.live.bot_driver` — bots' moves after their reaction time,
  through the same queue and the same checks as people's;
- :mod:`~ligretto.live.recorder` — finished rounds onto the Tafel game;
- :mod:`~ligretto.live.clock` — time and timers (tests move it by hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ligretto.live import encoder
from ligretto.live.bot_driver import BotDriver, BotMove, StandIn
from ligretto.live.clock import REAL_CLOCK, Clock, TimerHandle
from ligretto.live.connection import CLOSE_REVOKED, Connection
from ligretto.live.journal import Journal
from ligretto.live.phase import Phase
from ligretto.live.protocol import (
    AddBot,
    ClientMessage,
    Join,
    Move,
    Ping,
    PlayAgain,
    Reason,
    RemoveBot,
    RevokeSeat,
    Start,
    Stuck,
    TableInfo,
)
from ligretto.live.reasons import refusal_for
from ligretto.live.recorder import TafelRecorder
from ligretto.live.scorekeeping import EndCondition, GroupLink, ScoreKeeper, Standing
from ligretto.live.seating import BotSpec, Seat, Seating, SeatingError
from ligretto.live.visibility import public_events
from ligretto.rules.actions import STUCK, Action, Play
from ligretto.rules.options import RuleOptions
from ligretto.rules.result import RoundResult
from ligretto.rules.round import Round
from ligretto.store.live_tables import StoredAction

log = logging.getLogger(__name__)

# How long a stopping table waits for a round still being written to its
# Tafel game (seconds).
STOP_GRACE = 5.0


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Timing of a table.  Tests shorten these; players get the defaults."""

    countdown: float = 3.0
    between_rounds: float = 15.0
    # A person whose connection is gone this long is played by a bot (the
    # table must not stall) until they come back with their seat token.
    away_after: float = 20.0
    # Multiplies every bot delay; below 1 makes bots faster (tests).
    bot_pace: float = 1.0
    # The bot that stands in for an absent person.
    standin_strategy: str = "stack-first"
    standin_level: str = "medium"
    seed: int | None = None
    # Deals a round (players, seed, options); tests put set positions here.
    dealer: Callable[[int, int, RuleOptions], Round] = Round.deal
    # Time and timers; tests pass a ``ManualClock`` and move it themselves.
    clock: Clock = REAL_CLOCK
    # A table nobody has been connected to for this long is removed (its
    # Tafel game keeps every round played).  While nobody is connected its
    # bots and stand-ins pause, so an abandoned table costs nothing.
    idle_after: float = 3600.0
    # A table whose game is over is closed once nobody has been connected
    # to it for this long (nobody plays it again).
    closed_after_game: float = 600.0
    # With tables kept in the database: a table nobody has been connected
    # to for this long is handed back (stopped here, its lease released), so
    # whichever process its people reach next takes it over (docs/deploy.md).
    handover_after: float = 30.0
    # R4 stall guard: no card has gone to the middle for this long, so the
    # people at the table are offered "We're stuck" (a table without a
    # person present decides it by itself).
    stall_after: float = 45.0


# --------------------------------------------------------------------------
# commands in the table's queue
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _FromClient:
    conn: Connection
    message: ClientMessage


@dataclass(frozen=True, slots=True)
class _Left:
    conn: Connection


@dataclass(frozen=True, slots=True)
class _Timer:
    kind: Literal["go", "next", "away", "stall"]
    round_no: int
    seat: int = -1
    generation: int = 0  # for "away": the seat's presence count when set


@dataclass(frozen=True, slots=True)
class _Call:
    """Run a function inside the actor (tests and the HTTP layer use it)."""

    fn: Callable[[], None]


class _StopTable:
    pass


_Command = _FromClient | _Left | BotMove | _Timer | _Call | _StopTable


class Table:
    """One online table; see the module docstring.

    Seats are filled when the table opens (``host_name`` in seat 0 with
    the host token, then ``bots``); afterwards only through messages.
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
        if not options.min_players <= seats <= options.max_players:  # R1
            raise ValueError(
                f"a table has {options.min_players} to {options.max_players} seats"
                f" with deck {options.deck!r}"
            )
        self.code = code
        self.options = options
        self.end = end
        self.settings = settings or TableSettings()
        self.clock = self.settings.clock
        self.seating = Seating(seats, host_token, host_hash=host_hash)
        if host_name is not None:
            self.seating.seat_host(0, host_name)
        self.seating.place_bots(bots)
        self.phase = Phase.LOBBY
        self.round: Round | None = None
        self.round_no = 0
        self.seq = 0
        self.start_at: float | None = None
        self.tafel_game: str | None = None
        # The game's edit token: the table alone writes to its game.
        self.tafel_token: str | None = None
        # The group each of the table's games joins (the host picked it).
        self.group = group
        # The last round whose score the Tafel has answered (or failed).
        self.recorded_round = 0
        # Rounds the Tafel game holds from this table (its next round's number - 1).
        self.tafel_rounds = 0
        self.totals: list[int] | None = None
        self.last_round_over: str | None = None
        # Labels the web pages keep with a table ("practice", "autostart").
        self.tags: set[str] = set()
        # Actions accepted in the current round (the next one's log index).
        self.round_actions = 0
        # Restored mid-round: the countdown to go on starts when someone is back.
        self.resuming = False
        # R4 stall guard: when a card last went to the middle, and who of
        # the people present agreed to "We're stuck" once it was offered.
        self._last_middle = self.clock.monotonic()
        self.stuck_offered = False
        self.stuck_agreed: set[int] = set()
        self._stall_guard: TimerHandle | None = None
        self.journal = journal
        self.queue: asyncio.Queue[_Command] = asyncio.Queue()
        # Since when nobody is connected (``None`` while someone is).
        self.idle_since: float | None = self.clock.monotonic()
        self._rng = random.Random(self.settings.seed)
        self._bots = BotDriver(
            self._rng,
            self._later,
            stand_in=StandIn(self.settings.standin_strategy, self.settings.standin_level),
            pace=self.settings.bot_pace,
        )
        self._recorder = (
            TafelRecorder(scorekeeper, code, self.call) if scorekeeper is not None else None
        )
        self._task: asyncio.Task[None] | None = None
        self._timers: set[TimerHandle] = set()
        self._scoring = False
        # Accepted moves, for the benchmark and the tests.
        self.moves_applied = 0

    # ------------------------------------------------------------------
    # public API
    # ------------------------------------------------------------------

    @property
    def host_token(self) -> str:
        """The host's key, for the process that opened the table to hand to
        the host once; a restored table keeps only its hash (LookupError)."""
        token = self.seating.host_token
        if token is None:
            raise LookupError("a restored table keeps only the hash of its host token")
        return token

    @property
    def seats(self) -> Sequence[Seat]:
        """The chairs, read-only outside the actor."""
        return self.seating.seats

    @property
    def watchers(self) -> set[Connection]:
        return self.seating.watchers

    @property
    def tafel_url(self) -> str | None:
        """Where the table's Tafel game can be watched, once it is open."""
        if self._recorder is None or self.tafel_game is None:
            return None
        return self._recorder.board_url(self.tafel_game)

    def info(self) -> TableInfo:
        return encoder.table_info(self)

    def has_connections(self) -> bool:
        return self.seating.has_connections()

    @property
    def paused(self) -> bool:
        """Nobody is connected: bots and stand-ins make no moves."""
        return not self.seating.has_connections()

    def idle_for(self) -> float:
        """Seconds since the last connection left (0 while someone is here)."""
        if self.idle_since is None:
            return 0.0
        return self.clock.monotonic() - self.idle_since

    def seat_of_token(self, token: str) -> int | None:
        """The seat this token holds, if any (for the seat link)."""
        seat = self.seating.by_token(token)
        return seat.index if seat is not None else None

    def note(self) -> None:
        """The table changed: the journal writes it with its next batch."""
        if self.journal is not None:
            self.journal.changed(self.code, self._state)

    def _state(self) -> dict[str, Any]:
        from ligretto.live.persistence import table_state

        return table_state(self)

    def submit(self, conn: Connection, message: ClientMessage) -> None:
        """A validated client message (called by the transport).

        Handled at once when nothing waits in the queue and the actor runs:
        the actor would take it next, and handling a command never awaits,
        so the order is the one the queue would give (R3: the first move to
        arrive wins) and the table's task is not woken for every move.
        """
        command = _FromClient(conn, message)
        task = self._task
        if self.queue.empty() and task is not None and not task.done():
            self._run_command(command)
        else:
            self.queue.put_nowait(command)

    def left(self, conn: Connection) -> None:
        """The transport lost this connection."""
        self.queue.put_nowait(_Left(conn))

    def call(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` inside the actor, after what is queued already."""
        self.queue.put_nowait(_Call(fn))

    # ------------------------------------------------------------------
    # life cycle
    # ------------------------------------------------------------------

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The table's task while it runs (None before :meth:`start_task`)."""
        return self._task

    def start_task(self) -> asyncio.Task[None]:
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.code}")
        return self._task

    async def stop(self) -> None:
        if self._recorder is not None and self._task is not None and not self._task.done():
            # A round on its way to the Tafel is written first, and its
            # answer handled, before the table stops.
            await self._recorder.settle(STOP_GRACE)
        self.queue.put_nowait(_StopTable())
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def run(self) -> None:
        """The actor loop: one command at a time, to the end."""
        try:
            while True:
                command = await self.queue.get()
                if isinstance(command, _StopTable):
                    break
                self._run_command(command)
        finally:
            if self._recorder is not None:
                self._recorder.cancel()
            for handle in self._timers:
                handle.cancel()
            self._timers.clear()
            for conn in self.seating.connections():
                conn.close()

    def _run_command(self, command: _Command) -> None:
        try:
            self._handle(command)
        except Exception:  # pragma: no cover - a bug must not end the table
            log.exception("table %s: command %r failed", self.code, command)

    def _later(self, delay: float, command: _Command) -> TimerHandle:
        handle: TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self.queue.put_nowait(command)

        handle = self.clock.call_later(max(0.0, delay), fire)
        self._timers.add(handle)
        return handle

    # ------------------------------------------------------------------
    # dispatch
    # ------------------------------------------------------------------

    def _handle(self, command: _Command) -> None:
        if isinstance(command, _FromClient):
            self._on_message(command.conn, command.message)
        elif isinstance(command, _Left):
            self._on_left(command.conn)
        elif isinstance(command, BotMove):
            self._on_bot_move(command)
        elif isinstance(command, _Timer):
            self._on_timer(command)
        elif isinstance(command, _Call):
            command.fn()

    def _on_message(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, Ping):
            conn.send(encoder.pong(message.t, self.clock.now()))
            return
        if conn.taken_over:
            self._refuse(
                conn,
                Reason.TAKEN_OVER,
                "your seat was taken over on another device",
                message if isinstance(message, Move) else None,
            )
            return
        if isinstance(message, Join):
            self._on_join(conn, message)
            return
        if not conn.joined:
            self._refuse(conn, Reason.NOT_JOINED, "send join first")
            return
        if isinstance(message, Move):
            self._on_move(conn, message)
        elif isinstance(message, AddBot):
            self._on_add_bot(conn, message)
        elif isinstance(message, RemoveBot):
            self._on_remove_bot(conn, message)
        elif isinstance(message, RevokeSeat):
            self._on_revoke_seat(conn, message)
        elif isinstance(message, Start):
            self._on_start(conn)
        elif isinstance(message, PlayAgain):
            self._on_play_again(conn)
        elif isinstance(message, Stuck):
            self._on_stuck(conn)

    # ------------------------------------------------------------------
    # seats
    # ------------------------------------------------------------------

    def _on_join(self, conn: Connection, message: Join) -> None:
        if conn.joined:
            self._refuse(conn, Reason.ALREADY_JOINED, "this connection has joined already")
            return
        token: str | None = None
        try:
            if message.token is not None or message.host_token is not None:
                claimed, token, displaced = self.seating.claim(
                    conn, message.token, message.host_token
                )
                if claimed is not None:
                    for old in displaced:
                        old.send(encoder.taken_over(claimed.index))
            elif message.name is not None:
                _seat, token = self.seating.sit_down(
                    conn, message.name, lobby=self.phase == Phase.LOBBY
                )
            if conn.seat is None:
                self.seating.watch(conn)
        except SeatingError as exc:
            self._refuse(conn, exc.code, exc.reason)
            return
        conn.joined = True
        self.idle_since = None
        if self.phase == Phase.PLAYING and self._stall_guard is None:
            self._guard_stall()
        conn.send(encoder.welcome(self, conn, token, self.clock.now()))
        if self.round is not None:
            conn.send(encoder.view_message(self.round, self.round_no, self.seq, conn.seat))
            if self.resuming and self.start_at is None:
                # The first one back after a restart: "Resuming… 3 2 1" for
                # everybody at the table, this connection included.
                self._count_down()
            elif self.phase == Phase.COUNTDOWN and self.start_at is not None:
                conn.send(self._countdown_message())
        if self.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and self.last_round_over is not None:
            conn.send(self.last_round_over)
        self._broadcast_table()
        self._plan_bots()

    def _on_left(self, conn: Connection) -> None:
        seat = self.seating.leave(conn)
        if self.idle_since is None and not self.seating.has_connections():
            # The last one left: bots pause (see _plan_bots), the stall
            # guard stops, and the registry's idle time starts.
            self.idle_since = self.clock.monotonic()
            self._stop_stall_guard()
        if (
            seat is not None
            and not seat.conns
            and seat.kind == "human"
            and self.phase != Phase.LOBBY
        ):
            self._away_timer(seat)
        if conn.joined:
            self._broadcast_table()

    def _away_timer(self, seat: Seat) -> None:
        """A stand-in takes over if the person stays away (the table must not stall)."""
        self._later(
            self.settings.away_after, _Timer("away", self.round_no, seat.index, seat.presence)
        )

    def _host_only(self, conn: Connection) -> bool:
        if not conn.host:
            self._refuse(conn, Reason.NOT_HOST, "only the host may do that")
            return False
        return True

    def _host_in_lobby(self, conn: Connection) -> bool:
        """Seats change only by the host and only before the start."""
        if not self._host_only(conn):
            return False
        if self.phase != Phase.LOBBY:
            self._refuse(conn, Reason.ALREADY_STARTED, "seats are fixed once the game started")
            return False
        return True

    def _on_add_bot(self, conn: Connection, message: AddBot) -> None:
        if not self._host_in_lobby(conn):
            return
        try:
            self.seating.add_bot(message.seat, message.strategy, message.level)
        except SeatingError as exc:
            self._refuse(conn, exc.code, exc.reason)
            return
        self._broadcast_table()

    def _on_remove_bot(self, conn: Connection, message: RemoveBot) -> None:
        if not self._host_in_lobby(conn):
            return
        try:
            self.seating.remove(message.seat)
        except SeatingError as exc:
            self._refuse(conn, exc.code, exc.reason)
            return
        self._broadcast_table()

    def _on_revoke_seat(self, conn: Connection, message: RevokeSeat) -> None:
        """The host withdraws a seat link (any phase): a new token, the holder out."""
        if not self._host_only(conn):
            return
        try:
            seat, displaced = self.seating.revoke(message.seat)
        except SeatingError as exc:
            self._refuse(conn, exc.code, exc.reason)
            return
        for old in displaced:
            old.send(encoder.revoked(seat.index))
            old.close(CLOSE_REVOKED)
        if displaced and self.phase != Phase.LOBBY:
            self._away_timer(seat)
        self._broadcast_table()

    # ------------------------------------------------------------------
    # rounds
    # ------------------------------------------------------------------

    def _on_start(self, conn: Connection) -> None:
        if not self._host_only(conn):
            return
        if self.phase == Phase.LOBBY:
            least = self.options.min_players
            if len(self.seating.taken()) < least:  # R1
                self._refuse(
                    conn, Reason.TOO_FEW_PLAYERS, f"at least {least} seats must be taken (R1)"
                )
                return
            self.begin_game()
        elif self.phase == Phase.ROUND_OVER and not self._scoring:
            self.deal()
        elif self.phase == Phase.GAME_OVER:
            self._refuse(conn, Reason.GAME_OVER, "the game is over")
        else:
            self._refuse(conn, Reason.ALREADY_STARTED, "the round is on")

    def _on_play_again(self, conn: Connection) -> None:
        """A new game at the same table: same seats, fresh Tafel game.

        Only once the Tafel has decided the game (T4/T5): a game in
        progress is never thrown away.  People keep their seats and
        tokens, bots stay, stand-ins keep playing for those still away.
        """
        if not self._host_only(conn):
            return
        if self.phase != Phase.GAME_OVER:
            self._refuse(conn, Reason.GAME_NOT_OVER, "the game is not over yet")
            return
        self.round = None
        self.round_no = 0
        self.recorded_round = 0
        self.tafel_rounds = 0
        self.totals = None
        self.tafel_game = None
        self.tafel_token = None
        self.last_round_over = None
        self.begin_game()

    def begin_game(self) -> None:
        """Close the seats, open the Tafel game, deal the first round (in the actor)."""
        self.seating.close()
        for seat in self.seating:
            if seat.kind == "human" and not seat.conns:
                # Gone before the start: a stand-in takes over if they stay away.
                self._away_timer(seat)
        if self._recorder is not None:
            self.totals = [0] * len(self.seating)
            names = self.seating.tafel_names()
            self._recorder.open_game(
                names, self.end, self.options, self._tafel_opened, group=self.group
            )
        self.deal()

    def _tafel_opened(self, game_id: str, token: str) -> None:
        self.tafel_game, self.tafel_token = game_id, token
        self._broadcast_table()

    def deal(self) -> None:
        """Deal the next round and count down to "Ligretto!" (in the actor)."""
        self.round_no += 1
        self.round = self.settings.dealer(
            len(self.seating), self._rng.getrandbits(63), self.options
        )
        self.round_actions = 0
        self.stuck_offered, self.stuck_agreed = False, set()
        self.phase = Phase.COUNTDOWN
        self.last_round_over = None
        self.resuming = False
        for seat in self.seating:
            seat.replan()
        encoder.send_views(self.round, self.round_no, self.seq, self.seating)
        self._count_down()

    def _count_down(self) -> None:
        """ "Ligretto!" at a future time: every seat starts together whatever
        its latency (R3 start signal); after a restore, "Resuming…"."""
        self.start_at = self.clock.now() + self.settings.countdown
        encoder.send_all(self.seating, self._countdown_message())
        self._broadcast_table()
        self._later(self.settings.countdown, _Timer("go", self.round_no))

    def resume(self, phase: Phase, rnd: Round | None) -> None:
        """Take up the stored ``phase`` after a restart (before the task runs).

        A round being played waits for someone to come back and then counts
        down again; people are away until they reconnect (their stand-ins
        play only while someone is connected); a finished round that the
        Tafel has not answered yet is recorded now.
        """
        self.round = rnd
        self.phase = phase
        self.idle_since = self.clock.monotonic()
        if phase in (Phase.COUNTDOWN, Phase.PLAYING) and rnd is not None:
            if rnd.is_over:
                self.phase = Phase.PLAYING
                self.call(self._end_round)
            else:
                self.phase, self.resuming, self.start_at = Phase.COUNTDOWN, True, None
        elif phase == Phase.ROUND_OVER and rnd is not None and self.recorded_round < self.round_no:
            self.call(self._end_round)
        elif phase == Phase.ROUND_OVER:
            self._later(self.settings.between_rounds, _Timer("next", self.round_no))
        if phase != Phase.LOBBY and self._recorder is not None:
            if self.tafel_game is not None and self.tafel_token is not None:
                self._recorder.reopen(self.tafel_game, self.tafel_token)
            elif phase != Phase.GAME_OVER:
                names = self.seating.tafel_names()
                self._recorder.open_game(
                    names, self.end, self.options, self._tafel_opened, group=self.group
                )
        if phase not in (Phase.LOBBY, Phase.GAME_OVER):
            for seat in self.seating:
                if seat.kind == "human":
                    self._away_timer(seat)

    def _on_timer(self, timer: _Timer) -> None:
        # "away" outlives rounds (its presence count says if it is stale);
        # the others belong to the round they were set in.
        if timer.kind != "away" and timer.round_no != self.round_no:
            return
        if timer.kind == "go" and self.phase == Phase.COUNTDOWN:
            self.phase = Phase.PLAYING
            self.resuming = False
            self._guard_stall()
            self._broadcast_table()
            self._plan_bots()
        elif timer.kind == "stall" and self.phase == Phase.PLAYING:
            self._check_stall()
        elif timer.kind == "next" and self.phase == Phase.ROUND_OVER and not self._scoring:
            self.deal()
        elif timer.kind == "away":
            if timer.seat >= len(self.seating):
                return
            seat = self.seating[timer.seat]
            if (
                seat.kind == "human"
                and not seat.conns
                and not seat.away
                and seat.presence == timer.generation
                and self.phase not in (Phase.LOBBY, Phase.GAME_OVER)
            ):
                seat.go_away()
                self._broadcast_table()
                self._plan_bots()

    def _on_move(self, conn: Connection, message: Move) -> None:
        if conn.seat is None:
            self._refuse(conn, Reason.NOT_SEATED, "watchers cannot play", message)
            return
        if message.seat is not None and message.seat != conn.seat:
            self._refuse(conn, Reason.WRONG_SEAT, "that is not your seat", message)
            return
        if self.phase in (Phase.LOBBY, Phase.COUNTDOWN):
            self._refuse(conn, Reason.NOT_STARTED, "wait for “Ligretto!”", message)
            return
        if self.phase != Phase.PLAYING:
            self._refuse(conn, Reason.ROUND_OVER, "the round is over", message)
            return
        try:
            action = Action.parse(message.action)
        except ValueError:
            self._refuse(conn, Reason.BAD_ACTION, "not a move of this game", message)
            return
        self._apply(conn.seat, action, conn, message.ref)

    def _on_bot_move(self, move: BotMove) -> None:
        if move.round_no != self.round_no or move.seat >= len(self.seating):
            return
        seat = self.seating[move.seat]
        if seat.generation != move.generation:
            return
        seat.bot_pending = False
        if self.paused:
            return  # planned again when someone connects
        if self.phase == Phase.PLAYING and move.action is not None:
            self._apply(move.seat, move.action, None, None)  # plans the bots' next moves
        else:
            self._plan_bots()

    def _apply(self, seat: int, action: Action, conn: Connection | None, ref: int | None) -> None:
        """Check and apply one move; no await anywhere in here (R3).

        Then every idle bot plans its next move (a bot whose move was refused
        plans again, as one that lost a race would look again).
        """
        assert self.round is not None
        text = str(action)
        try:
            events = self.round.apply(seat, action)
        except Exception as exc:
            refusal = refusal_for(exc)
            if refusal is None:
                raise
            if conn is not None:  # a bot lost a race; it simply plans again
                conn.send(encoder.refused(refusal.code, refusal.reason(exc), ref, text))
        else:
            self.seq += 1
            self.moves_applied += 1
            self._logged(seat, text)
            if type(action) is Play:  # a card went to the middle: not stuck
                self._last_middle = self.clock.monotonic()
                if self.stuck_offered:
                    self._withdraw_stuck()
            encoder.send_events(
                self.round,
                self.round_no,
                self.seq,
                self.seating,
                by=seat,
                action=text,
                events=public_events(events),
                mover=conn,
                ref=ref,
            )
            if self.round.is_over:
                self._end_round()
                return
        self._plan_bots()

    def _end_round(self) -> None:
        """R4: the round is over; score it (R5) and put it on the Tafel (T2, T3)."""
        assert self.round is not None
        result = self.round.result()
        self.phase = Phase.ROUND_OVER
        self._scoring = True
        if self._recorder is None:
            self._round_scored(result, None)
            return
        self._recorder.record(
            self.round_no,
            result,
            lambda standing: self._round_scored(result, standing),
            number=self.tafel_rounds + 1,
        )

    def _round_scored(self, result: RoundResult, standing: Standing | None) -> None:
        self._scoring = False
        self.recorded_round = self.round_no
        if standing is not None:
            self.tafel_rounds += 1
        if standing is not None:
            # The Tafel adds up and decides the game (T4/T5).
            self.totals = list(standing.totals)
            game_over = standing.finished
            winners = list(standing.winners)
        else:
            # No board: the round's own points (R5) added up here.
            before = self.totals or [0] * len(result.seats)
            self.totals = [t + s.points for t, s in zip(before, result.seats, strict=True)]
            game_over, winners = False, []
        self.phase = Phase.GAME_OVER if game_over else Phase.ROUND_OVER
        next_at: float | None = None
        if not game_over:
            next_at = self.clock.now() + self.settings.between_rounds
            self._later(self.settings.between_rounds, _Timer("next", self.round_no))
        self.last_round_over = encoder.round_over(
            self.round_no,
            result,
            self.totals,
            game_over=game_over,
            winners=winners,
            next_round_at=next_at,
        )
        encoder.send_all(self.seating, self.last_round_over)
        self._broadcast_table()

    # ------------------------------------------------------------------
    # bots and messages out
    # ------------------------------------------------------------------

    def _plan_bots(self) -> None:
        # Nobody connected: no bot moves (an abandoned table must cost
        # nothing); they go on when someone joins.
        if self.phase != Phase.PLAYING or self.round is None or self.paused:
            return
        self._bots.plan(self.round, self.round_no, self.seating)

    def _broadcast_table(self) -> None:
        # Every change of the table is broadcast, so this is where it is noted.
        self.note()
        encoder.send_all(self.seating, encoder.table_update(self))

    def _countdown_message(self) -> str:
        assert self.start_at is not None
        return encoder.countdown(
            self.round_no, self.start_at, self.clock.now(), resume=self.resuming
        )

    def _logged(self, seat: int | None, text: str) -> None:
        """An action entered the round's log: the journal keeps it, in order."""
        if self.journal is not None:
            self.journal.action(
                StoredAction(self.code, self.round_no, self.round_actions, seat, text, self.seq)
            )
        self.round_actions += 1

    # ------------------------------------------------------------------
    # R4 stall guard: "We're stuck"
    # ------------------------------------------------------------------

    def present_people(self) -> set[int]:
        """Seats of the people at the table now (connected, not away)."""
        return {s.index for s in self.seating if s.kind == "human" and s.conns and not s.away}

    def _guard_stall(self) -> None:
        """Start the stall guard (at "Ligretto!", or when someone is back)."""
        self._last_middle = self.clock.monotonic()
        self._stall_later(self.settings.stall_after)

    def _stall_later(self, delay: float) -> None:
        self._stop_stall_guard()
        self._stall_guard = self._later(delay, _Timer("stall", self.round_no))

    def _stop_stall_guard(self) -> None:
        if self._stall_guard is not None:
            self._stall_guard.cancel()
            self._timers.discard(self._stall_guard)
            self._stall_guard = None

    def _check_stall(self) -> None:
        self._stall_guard = None  # this timer has fired
        if self.paused:
            # Nobody connected: nothing moves and nothing is decided; the
            # guard starts again when someone is back.
            return
        quiet = self.clock.monotonic() - self._last_middle
        if quiet < self.settings.stall_after:
            self._stall_later(self.settings.stall_after - quiet)
            return
        if not self.present_people():
            self._settle_stuck()  # no person present: the table decides (R4)
            return
        if not self.stuck_offered:
            self.stuck_offered, self.stuck_agreed = True, set()
            self._broadcast_table()
        self._stall_later(self.settings.stall_after)

    def _withdraw_stuck(self) -> None:
        self.stuck_offered, self.stuck_agreed = False, set()
        self._broadcast_table()

    def _on_stuck(self, conn: Connection) -> None:
        """A person agrees that the round is stuck (R4); all present → settled."""
        if conn.seat is None:
            self._refuse(conn, Reason.NOT_SEATED, "watchers do not decide")
            return
        if self.phase != Phase.PLAYING or not self.stuck_offered:
            self._refuse(conn, Reason.NOT_STUCK, "cards still go to the middle")
            return
        self.stuck_agreed.add(conn.seat)
        if self.present_people() <= self.stuck_agreed:
            self._settle_stuck()
        else:
            self._broadcast_table()

    def _settle_stuck(self) -> None:
        assert self.round is not None
        events = self.round.settle_stuck()
        self.stuck_offered, self.stuck_agreed = False, set()
        self.seq += 1
        self._logged(None, str(STUCK))
        self._last_middle = self.clock.monotonic()
        encoder.send_events(
            self.round,
            self.round_no,
            self.seq,
            self.seating,
            by=None,
            action=str(STUCK),
            events=public_events(events),
            mover=None,
            ref=None,
        )
        if self.round.is_over:
            self._end_round()
            return
        self._stall_later(self.settings.stall_after)
        self._broadcast_table()
        self._plan_bots()

    def _refuse(
        self, conn: Connection, code: Reason, reason: str, move: Move | None = None
    ) -> None:
        conn.send(
            encoder.refused(
                code,
                reason,
                move.ref if move is not None else None,
                move.action if move is not None else None,
            )
        )
