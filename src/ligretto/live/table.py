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
logic).  Bots are driven from here but go through the same move path as
people: their move is queued with a delay drawn from their reaction-time
model and judged against the round as it is when it arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ligretto.live.botseat import BotBrain
from ligretto.live.connection import Connection
from ligretto.live.protocol import (
    AddBot,
    ClientMessage,
    Countdown,
    Join,
    Move,
    Ping,
    PlayAgain,
    Pong,
    Reason,
    Refused,
    RemoveBot,
    RoundOver,
    SeatInfo,
    Start,
    TableInfo,
    TableUpdate,
    TakenOver,
    Welcome,
)
from ligretto.live.scorekeeping import EndCondition, ScoreKeeper, Standing
from ligretto.live.visibility import public_events
from ligretto.rules.actions import Action
from ligretto.rules.errors import IllegalActionError, PileTakenError, RoundOverError
from ligretto.rules.options import RuleOptions
from ligretto.rules.result import RoundResult
from ligretto.rules.round import Round

log = logging.getLogger(__name__)

Phase = Literal["lobby", "countdown", "playing", "round_over", "game_over"]

# Each watcher costs a message per move; a table is not a broadcast studio.
MAX_WATCHERS = 100


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


@dataclass(slots=True)
class Seat:
    """One chair at the table."""

    index: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str | None = None
    token: str | None = None
    strategy: str | None = None
    level: str | None = None
    conns: set[Connection] = field(default_factory=set)
    away: bool = False
    # Bumped whenever who plays this seat changes, so that a bot move
    # planned before the change is dropped when it arrives.
    generation: int = 0
    brain: BotBrain | None = None
    bot_pending: bool = False
    # Bumped when a person (re)joins this seat: an "away" timer set before
    # that is stale.
    presence: int = 0

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and self.away)


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
class _BotMove:
    seat: int
    generation: int
    round_no: int
    action: Action | None  # None: the bot waited and looks again


@dataclass(frozen=True, slots=True)
class _Timer:
    kind: Literal["go", "next", "away"]
    round_no: int
    seat: int = -1
    generation: int = 0  # for "away": the seat's presence count when set


@dataclass(frozen=True, slots=True)
class _Call:
    """Run a function inside the actor (tests and the HTTP layer use it)."""

    fn: Callable[[], None]


class _StopTable:
    pass


_Command = _FromClient | _Left | _BotMove | _Timer | _Call | _StopTable


def _now() -> float:
    return time.time()


# Compact JSON like pydantic's ``model_dump_json`` (no spaces, UTF-8 text).
_dumps = functools.partial(json.dumps, separators=(",", ":"), ensure_ascii=False)


class Table:
    """One online table; see the module docstring."""

    def __init__(
        self,
        code: str,
        *,
        seats: int,
        options: RuleOptions,
        end: EndCondition,
        host_token: str,
        scorekeeper: ScoreKeeper | None = None,
        settings: TableSettings | None = None,
    ) -> None:
        limit = 16 if options.deck == "cards" else 12
        if not 2 <= seats <= limit:
            raise ValueError(f"a table has 2 to {limit} seats with deck {options.deck!r}")
        self.code = code
        self.options = options
        self.end = end
        self.settings = settings or TableSettings()
        self.scorekeeper = scorekeeper
        self.seats = [Seat(i) for i in range(seats)]
        self.host_token = host_token
        self.phase: Phase = "lobby"
        self.round: Round | None = None
        self.round_no = 0
        self.seq = 0
        self.start_at: float | None = None
        self.tafel_game: str | None = None
        self.totals: list[int] | None = None
        self.last_round_over: str | None = None
        self.watchers: set[Connection] = set()
        self.queue: asyncio.Queue[_Command] = asyncio.Queue()
        self.last_activity = time.monotonic()
        self._rng = random.Random(self.settings.seed)
        self._task: asyncio.Task[None] | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self._tafel: asyncio.Task[str | None] | None = None
        self._recording: asyncio.Task[None] | None = None
        self._scoring = False
        # Accepted moves and refusals, for the benchmark and the tests.
        self.moves_applied = 0

    # ------------------------------------------------------------------
    # life cycle
    # ------------------------------------------------------------------

    def start_task(self) -> asyncio.Task[None]:
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.code}")
        return self._task

    async def stop(self) -> None:
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
                try:
                    self._handle(command)
                except Exception:  # pragma: no cover - a bug must not end the table
                    log.exception("table %s: command %r failed", self.code, command)
        finally:
            for task in (self._tafel, self._recording):
                if task is not None and not task.done():
                    task.cancel()
            for handle in self._timers:
                handle.cancel()
            self._timers.clear()
            for conn in self._all_connections():
                conn.close()

    def submit(self, conn: Connection, message: ClientMessage) -> None:
        """Queue a validated client message (called by the transport)."""
        self.queue.put_nowait(_FromClient(conn, message))

    def left(self, conn: Connection) -> None:
        """The transport lost this connection."""
        self.queue.put_nowait(_Left(conn))

    def call(self, fn: Callable[[], None]) -> None:
        self.queue.put_nowait(_Call(fn))

    def _later(self, delay: float, command: _Command) -> None:
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self.queue.put_nowait(command)

        handle = loop.call_later(max(0.0, delay), fire)
        self._timers.add(handle)

    # ------------------------------------------------------------------
    # dispatch
    # ------------------------------------------------------------------

    def _handle(self, command: _Command) -> None:
        self.last_activity = time.monotonic()
        if isinstance(command, _FromClient):
            self._on_message(command.conn, command.message)
        elif isinstance(command, _Left):
            self._on_left(command.conn)
        elif isinstance(command, _BotMove):
            self._on_bot_move(command)
        elif isinstance(command, _Timer):
            self._on_timer(command)
        elif isinstance(command, _Call):
            command.fn()

    def _on_message(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, Ping):
            conn.send(Pong(t=message.t, server_now=_now()).model_dump_json())
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
        elif isinstance(message, Start):
            self._on_start(conn)
        elif isinstance(message, PlayAgain):
            self._on_play_again(conn)

    # ------------------------------------------------------------------
    # seats
    # ------------------------------------------------------------------

    def _on_join(self, conn: Connection, message: Join) -> None:
        if conn.joined:
            self._refuse(conn, Reason.ALREADY_JOINED, "this connection has joined already")
            return
        token: str | None = None
        if message.token is not None:
            if secrets.compare_digest(message.token, self.host_token):
                conn.host = True
                token = message.token
            seat = self._seat_by_token(message.token)
            if seat is not None:
                token = message.token
                self._take_over(seat)
                conn.seat = seat.index
                seat.conns.add(conn)
                seat.presence += 1
                if seat.away:
                    # Reclaimed: the stand-in bot stops, the person plays on.
                    seat.away = False
                    seat.generation += 1
                    seat.bot_pending = False
                    seat.brain = None
            if token is None:
                self._refuse(conn, Reason.BAD_TOKEN, "no seat or table belongs to this token")
                return
        elif message.name is not None:
            name = " ".join(message.name.split())
            if not name:
                self._refuse(conn, Reason.BAD_NAME, "a name must not be blank")
                return
            if self.phase != "lobby":
                self._refuse(conn, Reason.ALREADY_STARTED, "the game has started; watch instead")
                return
            if any(s.name is not None and s.name.casefold() == name.casefold() for s in self.seats):
                self._refuse(conn, Reason.NAME_TAKEN, f"someone at this table is called {name}")
                return
            free = next((s for s in self.seats if s.kind == "empty"), None)
            if free is None:
                self._refuse(conn, Reason.TABLE_FULL, "every seat is taken; watch instead")
                return
            free.kind, free.name = "human", name
            free.token = token = secrets.token_urlsafe(18)
            free.conns.add(conn)
            conn.seat = free.index
        if conn.seat is None:
            if len(self.watchers) >= MAX_WATCHERS and not conn.host:
                self._refuse(conn, Reason.TABLE_FULL, "this table has as many watchers as it takes")
                return
            self.watchers.add(conn)
        conn.joined = True
        conn.send(
            Welcome(
                seat=conn.seat,
                token=token,
                host=conn.host,
                server_now=_now(),
                table=self.info(),
            ).model_dump_json()
        )
        if self.round is not None:
            conn.send(self._view_message(conn.seat))
            if self.phase == "countdown" and self.start_at is not None:
                conn.send(self._countdown_message())
        if self.phase in ("round_over", "game_over") and self.last_round_over is not None:
            conn.send(self.last_round_over)
        self._broadcast_table()
        self._schedule_bots()

    def _take_over(self, seat: Seat) -> None:
        """The seat's token arrived on a new connection: it plays the seat now.

        One seat, one player: the connections that held the seat until now
        (another device, another window, or a reload whose old socket has
        not closed yet) are told so and hold nothing any more — no seat, no
        host role, no further messages from the table.  Whatever they send
        is refused (``taken_over``).
        """
        for old in list(seat.conns):
            seat.conns.discard(old)
            old.seat = None
            old.host = False
            old.taken_over = True
            old.send(
                TakenOver(
                    seat=seat.index, reason="your seat was taken over on another device"
                ).model_dump_json()
            )

    def seat_of_token(self, token: str) -> int | None:
        """The seat this token holds, if any (for the seat link)."""
        seat = self._seat_by_token(token)
        return seat.index if seat is not None else None

    def _seat_by_token(self, token: str) -> Seat | None:
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat
        return None

    def _on_left(self, conn: Connection) -> None:
        self.watchers.discard(conn)
        if conn.seat is not None and conn.seat < len(self.seats):
            seat = self.seats[conn.seat]
            seat.conns.discard(conn)
            if not seat.conns and seat.kind == "human" and self.phase != "lobby":
                self._later(
                    self.settings.away_after,
                    _Timer("away", self.round_no, seat.index, seat.presence),
                )
        if conn.joined:
            self._broadcast_table()

    def _host_only(self, conn: Connection) -> bool:
        if not conn.host:
            self._refuse(conn, Reason.NOT_HOST, "only the host may do that")
            return False
        return True

    def _host_in_lobby(self, conn: Connection) -> bool:
        """Seats change only by the host and only before the start."""
        if not self._host_only(conn):
            return False
        if self.phase != "lobby":
            self._refuse(conn, Reason.ALREADY_STARTED, "seats are fixed once the game started")
            return False
        return True

    def _on_add_bot(self, conn: Connection, message: AddBot) -> None:
        if not self._host_in_lobby(conn):
            return
        if message.seat is None:
            seat = next((s for s in self.seats if s.kind == "empty"), None)
            if seat is None:
                self._refuse(conn, Reason.TABLE_FULL, "every seat is taken")
                return
        else:
            if message.seat >= len(self.seats):
                self._refuse(conn, Reason.NO_SUCH_SEAT, f"this table has {len(self.seats)} seats")
                return
            seat = self.seats[message.seat]
            if seat.kind != "empty":
                self._refuse(conn, Reason.SEAT_TAKEN, f"seat {seat.index + 1} is taken")
                return
        self.put_bot(seat.index, message.strategy, message.level)
        self._broadcast_table()

    def put_bot(self, index: int, strategy: str, level: str) -> None:
        """Seat a bot (used by table creation and by ``add_bot``)."""
        seat = self.seats[index]
        seat.kind, seat.strategy, seat.level = "bot", strategy, level
        seat.name = self._unique_name(f"Bot {index + 1} ({strategy})")
        seat.generation += 1

    def seat_human(self, index: int, name: str) -> str:
        """Seat a person (the host at creation); return their seat token."""
        seat = self.seats[index]
        seat.kind, seat.name = "human", self._unique_name(name)
        seat.token = self.host_token
        return seat.token

    def _unique_name(self, name: str) -> str:
        taken = {s.name.casefold() for s in self.seats if s.name is not None}
        candidate, n = name[:40], 2
        while candidate.casefold() in taken:
            suffix = f" {n}"
            candidate, n = name[: 40 - len(suffix)] + suffix, n + 1
        return candidate

    def _on_remove_bot(self, conn: Connection, message: RemoveBot) -> None:
        if not self._host_in_lobby(conn):
            return
        seat = self.seats[message.seat] if message.seat < len(self.seats) else None
        # A bot, or a person who sat down and left again: an empty chair
        # nobody is coming back to must not block the table.
        gone = (
            seat is not None
            and seat.kind == "human"
            and not seat.conns
            and not (seat.token and secrets.compare_digest(seat.token, self.host_token))
        )
        if seat is None or not (seat.kind == "bot" or gone):
            self._refuse(conn, Reason.NO_SUCH_SEAT, "no bot and nobody who left sits there")
            return
        self.seats[message.seat] = Seat(
            message.seat, generation=self.seats[message.seat].generation + 1
        )
        self._broadcast_table()

    # ------------------------------------------------------------------
    # rounds
    # ------------------------------------------------------------------

    def _on_start(self, conn: Connection) -> None:
        if not self._host_only(conn):
            return
        if self.phase == "lobby":
            taken = [s for s in self.seats if s.kind != "empty"]
            if len(taken) < 2:
                self._refuse(conn, Reason.TOO_FEW_PLAYERS, "at least two seats must be taken")
                return
            self.begin_game()
        elif self.phase == "round_over" and not self._scoring:
            self._deal()
        elif self.phase == "game_over":
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
        if self.phase != "game_over":
            self._refuse(conn, Reason.GAME_NOT_OVER, "the game is not over yet")
            return
        self.round = None
        self.round_no = 0
        self.totals = None
        self.tafel_game = None
        self._tafel = None
        self.last_round_over = None
        self.begin_game()

    def begin_game(self) -> None:
        """Close the seats, open the Tafel game, deal the first round."""
        # Empty chairs are taken away: the round is dealt for those seated.
        kept = [s for s in self.seats if s.kind != "empty"]
        for index, seat in enumerate(kept):
            seat.index = index
            for c in seat.conns:
                c.seat = index
        self.seats = kept
        for seat in self.seats:
            if seat.kind == "human" and not seat.conns:
                # Gone before the start: a stand-in takes over if they stay away.
                self._later(
                    self.settings.away_after,
                    _Timer("away", self.round_no, seat.index, seat.presence),
                )
        if self.scorekeeper is not None:
            # The board is written in a worker thread: a database write
            # must never hold up the moves of this or any other table.
            self.totals = [0] * len(self.seats)
            self._tafel = asyncio.get_running_loop().create_task(self._open_tafel_game())
        self._deal()

    def _deal(self) -> None:
        self.round_no += 1
        self.round = self.settings.dealer(len(self.seats), self._rng.getrandbits(63), self.options)
        self.phase = "countdown"
        self.start_at = _now() + self.settings.countdown
        self.last_round_over = None
        for seat in self.seats:
            seat.generation += 1
            seat.bot_pending = False
        # "Ligretto!" at a future time: every seat starts together whatever
        # its latency (R3 start signal).
        self._broadcast_views()
        countdown = self._countdown_message()
        for conn in self._all_connections():
            conn.send(countdown)
        self._broadcast_table()
        self._later(self.settings.countdown, _Timer("go", self.round_no))

    def _on_timer(self, timer: _Timer) -> None:
        # "away" outlives rounds (its seat generation says if it is stale);
        # the others belong to the round they were set in.
        if timer.kind != "away" and timer.round_no != self.round_no:
            return
        if timer.kind == "go" and self.phase == "countdown":
            self.phase = "playing"
            self._broadcast_table()
            self._schedule_bots()
        elif timer.kind == "next" and self.phase == "round_over" and not self._scoring:
            self._deal()
        elif timer.kind == "away":
            if timer.seat >= len(self.seats):
                return
            seat = self.seats[timer.seat]
            if (
                seat.kind == "human"
                and not seat.conns
                and not seat.away
                and seat.presence == timer.generation
                and self.phase not in ("lobby", "game_over")
            ):
                seat.away = True
                seat.generation += 1
                seat.bot_pending = False
                self._broadcast_table()
                self._schedule_bots()

    def _on_move(self, conn: Connection, message: Move) -> None:
        if conn.seat is None:
            self._refuse(conn, Reason.NOT_SEATED, "watchers cannot play", message)
            return
        if message.seat is not None and message.seat != conn.seat:
            self._refuse(conn, Reason.WRONG_SEAT, "that is not your seat", message)
            return
        if self.phase in ("lobby", "countdown"):
            self._refuse(conn, Reason.NOT_STARTED, "wait for “Ligretto!”", message)
            return
        if self.phase != "playing":
            self._refuse(conn, Reason.ROUND_OVER, "the round is over", message)
            return
        try:
            action = Action.parse(message.action)
        except ValueError:
            self._refuse(conn, Reason.BAD_ACTION, "not a move of this game", message)
            return
        self._apply(conn.seat, action, conn, message.ref)

    def _on_bot_move(self, move: _BotMove) -> None:
        if move.round_no != self.round_no or move.seat >= len(self.seats):
            return
        seat = self.seats[move.seat]
        if seat.generation != move.generation:
            return
        seat.bot_pending = False
        if self.phase == "playing" and move.action is not None:
            self._apply(move.seat, move.action, None, None)  # plans the bots' next moves
        else:
            self._schedule_bots()

    def _apply(self, seat: int, action: Action, conn: Connection | None, ref: int | None) -> None:
        """Check and apply one move; no await anywhere in here (R3).

        Then every idle bot plans its next move (a bot whose move was refused
        plans again, as one that lost a race would look again).
        """
        assert self.round is not None
        text = str(action)
        try:
            events = self.round.apply(seat, action)
        except PileTakenError as exc:
            self._refuse_move(conn, Reason.PILE_TAKEN, str(exc) or "too slow", ref, text)
        except RoundOverError:
            self._refuse_move(conn, Reason.ROUND_OVER, "the round is over", ref, text)
        except (IllegalActionError, ValueError) as exc:
            self._refuse_move(conn, Reason.ILLEGAL, str(exc) or "not allowed", ref, text)
        else:
            self.seq += 1
            self.moves_applied += 1
            self._broadcast_events(seat, text, public_events(events), conn, ref)
            if self.round.is_over:
                self._end_round()
                return
        self._schedule_bots()

    async def _open_tafel_game(self) -> str | None:
        assert self.scorekeeper is not None
        names = [s.name or f"Seat {s.index + 1}" for s in self.seats]
        try:
            game_id = await asyncio.to_thread(
                self.scorekeeper.create_game,
                names,
                self.end,
                deck=self.options.deck,
                row_storage=self.options.row_storage,
            )
        except Exception:
            log.exception("table %s: opening its Tafel game failed", self.code)
            return None

        def opened() -> None:
            self.tafel_game = game_id
            self._broadcast_table()

        self.call(opened)
        return game_id

    def _end_round(self) -> None:
        """R4: the round is over; score it (R5) and put it on the Tafel (T2, T3)."""
        assert self.round is not None
        result = self.round.result()
        self.phase = "round_over"
        self._scoring = True
        stacks = [s.stack for s in result.seats]
        middle = [s.middle for s in result.seats]
        if self._tafel is None:
            self._round_scored(result, None)
            return
        tafel = self._tafel
        round_no = self.round_no

        async def record() -> None:
            standing: Standing | None = None
            game_id = await tafel
            if game_id is not None and self.scorekeeper is not None:
                try:
                    standing = await asyncio.to_thread(
                        self.scorekeeper.record_round, game_id, stacks, middle
                    )
                except Exception:  # the round is still shown if the board failed
                    log.exception("table %s: recording round %d failed", self.code, round_no)
            self.call(lambda: self._round_scored(result, standing))

        self._recording = asyncio.get_running_loop().create_task(record())

    def _round_scored(self, result: RoundResult, standing: Standing | None) -> None:
        self._scoring = False
        stacks = [s.stack for s in result.seats]
        middle = [s.middle for s in result.seats]
        points = [s.points for s in result.seats]
        if standing is not None:
            self.totals = list(standing.totals)
            game_over = standing.finished
            winners = list(standing.winners)
        else:
            before = self.totals or [0] * len(points)
            self.totals = [t + p for t, p in zip(before, points, strict=True)]
            game_over, winners = False, []
        self.phase = "game_over" if game_over else "round_over"
        next_at: float | None = None
        if not game_over:
            next_at = _now() + self.settings.between_rounds
            self._later(self.settings.between_rounds, _Timer("next", self.round_no))
        self.last_round_over = RoundOver(
            round_no=self.round_no,
            ended_by=result.termination,
            caller=result.caller,
            stacks=stacks,
            middle=middle,
            points=points,
            totals=self.totals,
            game_over=game_over,
            winners=winners,
            next_round_at=next_at,
        ).model_dump_json()
        for conn in self._all_connections():
            conn.send(self.last_round_over)
        self._broadcast_table()

    # ------------------------------------------------------------------
    # bots
    # ------------------------------------------------------------------

    def _schedule_bots(self) -> None:
        """Give every idle bot seat its next move, due after its reaction time."""
        if self.phase != "playing" or self.round is None:
            return
        for seat in self.seats:
            if not seat.bot_plays or seat.bot_pending:
                continue
            if seat.brain is None:
                strategy = seat.strategy if seat.kind == "bot" else self.settings.standin_strategy
                level = seat.level if seat.kind == "bot" else self.settings.standin_level
                seat.brain = BotBrain(
                    strategy or "stack-first", level or "medium", self._rng.getrandbits(63)
                )
            action, delay = seat.brain.plan(self.round.view(seat.index))
            seat.bot_pending = True
            self._later(
                delay * self.settings.bot_pace,
                _BotMove(seat.index, seat.generation, self.round_no, action),
            )

    # ------------------------------------------------------------------
    # messages out
    # ------------------------------------------------------------------

    def has_connections(self) -> bool:
        return bool(self.watchers) or any(s.conns for s in self.seats)

    def _all_connections(self) -> list[Connection]:
        conns = list(self.watchers)
        for seat in self.seats:
            conns.extend(seat.conns)
        return conns

    def info(self) -> TableInfo:
        return TableInfo(
            code=self.code,
            phase=self.phase,
            seats=[
                SeatInfo(
                    seat=s.index,
                    name=s.name,
                    kind=s.kind,
                    connected=bool(s.conns) or s.kind == "bot",
                    away=s.away,
                    strategy=s.strategy,
                    level=s.level,
                )
                for s in self.seats
            ],
            options=self.options.to_dict(),
            end=self.end.to_dict(),
            round_no=self.round_no,
            start_at=self.start_at if self.phase == "countdown" else None,
            tafel_game=self.tafel_game,
            tafel_url=(
                self.scorekeeper.board_url(self.tafel_game)
                if self.scorekeeper is not None and self.tafel_game is not None
                else None
            ),
            totals=self.totals,
            watchers=len(self.watchers),
        )

    def _broadcast_table(self) -> None:
        text = TableUpdate(table=self.info()).model_dump_json()
        for conn in self._all_connections():
            conn.send(text)

    def _countdown_message(self) -> str:
        assert self.start_at is not None
        return Countdown(
            round_no=self.round_no, start_at=self.start_at, server_now=_now()
        ).model_dump_json()

    # Views are the hot path (every accepted move, every seat).  A person's
    # view differs from a watcher's only in ``viewer`` and ``actions``
    # (R3: everybody at the table sees the same open cards), so the shared
    # part is encoded once per move and each seat adds its own actions.
    # The JSON is exactly ``ViewMessage``/``EventsMessage`` with
    # ``TableView.to_dict()`` inside (tests compare it with the engine).

    def _shared_view_json(self) -> str:
        """The watcher's view as JSON without its closing brace and per-seat keys."""
        assert self.round is not None
        shared = self.round.view(None).to_dict()
        del shared["viewer"], shared["actions"]
        return _dumps(shared)[:-1]

    def _seat_view_json(self, shared: str, seat: int | None) -> str:
        assert self.round is not None
        actions: list[str] = []
        if seat is not None and not self.round.is_over:
            actions = [str(a) for a in self.round.legal_actions(seat)]
        return f'{shared},"viewer":{_dumps(seat)},"actions":{_dumps(actions)}}}'

    def _view_message(self, seat: int | None, shared: str | None = None) -> str:
        view = self._seat_view_json(shared or self._shared_view_json(), seat)
        return f'{{"v":1,"type":"view","round_no":{self.round_no},"seq":{self.seq},"view":{view}}}'

    def _broadcast_views(self) -> None:
        shared = self._shared_view_json()
        for seat in self.seats:
            if seat.conns:
                text = self._view_message(seat.index, shared)
                for conn in seat.conns:
                    conn.send(text)
        if self.watchers:
            text = self._view_message(None, shared)
            for conn in self.watchers:
                conn.send(text)

    def _broadcast_events(
        self,
        by: int,
        action: str,
        events: list[str],
        mover: Connection | None,
        ref: int | None,
    ) -> None:
        shared = self._shared_view_json()
        head = (
            f'{{"v":1,"type":"events","round_no":{self.round_no},"seq":{self.seq},'
            f'"seat":{by},"action":{_dumps(action)},"events":{_dumps(events)},"view":'
        )
        for seat in self.seats:
            if not seat.conns:
                continue
            body = head + self._seat_view_json(shared, seat.index)
            for conn in seat.conns:
                # Only the mover's copy carries its ref (the page matches it).
                conn.send(body + (f',"ref":{ref}}}' if conn is mover else ',"ref":null}'))
        if self.watchers:
            text = head + self._seat_view_json(shared, None) + ',"ref":null}'
            for conn in self.watchers:
                conn.send(text)

    def _refuse(
        self, conn: Connection, code: Reason, reason: str, move: Move | None = None
    ) -> None:
        conn.send(
            Refused(
                code=code,
                reason=reason,
                ref=move.ref if move is not None else None,
                action=move.action if move is not None else None,
            ).model_dump_json()
        )

    def _refuse_move(
        self, conn: Connection | None, code: Reason, reason: str, ref: int | None, action: str
    ) -> None:
        if conn is None:
            return  # a bot lost a race; it simply plans again
        conn.send(Refused(code=code, reason=reason, ref=ref, action=action).model_dump_json())
