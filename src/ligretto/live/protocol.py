"""The live-play wire protocol: typed, versioned JSON messages.

Every message is one JSON object with a protocol version ``v`` and a
``type``.  Messages from a client are validated on arrival (pydantic, with
a discriminated union on ``type``); anything that does not validate is
refused with a reason code and never reaches the table.  Messages to a
client are built from the models below, so ``docs/protocol.md`` and the
code describe the same shapes.

Reason codes travel as short strings (see :class:`Reason`), never as
tracebacks: like boardgame.io's master, errors are data.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ligretto.bots.timing import Level
from ligretto.live.phase import Phase
from ligretto.rules.actions import (
    RECYCLE,
    TURN,
    Action,
    Play,
    Recycle,
    Refill,
    Source,
    Store,
    Turn,
)
from ligretto.rules.cards import Card
from ligretto.rules.options import MAX_PLAYERS
from ligretto.rules.result import Termination
from ligretto.tafel.limits import MAX_NAME_LENGTH

PROTOCOL_VERSION = 1

# A move is a few dozen bytes; a join a name.  Anything much bigger is
# not a message of this protocol and is refused before it is parsed.
MAX_MESSAGE_BYTES = 2048


def _known_strategy(name: str) -> str:
    """A strategy's name or one of its aliases (``mine`` is ``watchful``)."""
    from ligretto.bots import STRATEGIES, strategy_names

    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy; choose one of {', '.join(strategy_names())}")
    return name


Strategy = Annotated[str, Field(min_length=1, max_length=32), AfterValidator(_known_strategy)]


class Reason(StrEnum):
    """Why a client message was refused.

    ``pile_taken`` is the R3 race: the move was legal when the player saw
    the pile, but someone faster got there first.  ``illegal`` is a move
    the rules never allowed.  The two are kept apart because the page
    shows them differently (the card flies back vs. a shake).
    """

    NO_SUCH_TABLE = "no_such_table"
    MALFORMED = "malformed"
    TOO_LARGE = "too_large"
    UNSUPPORTED_VERSION = "unsupported_version"
    RATE_LIMITED = "rate_limited"
    NOT_JOINED = "not_joined"
    ALREADY_JOINED = "already_joined"
    BAD_TOKEN = "bad_token"
    TABLE_FULL = "table_full"
    NAME_TAKEN = "name_taken"
    BAD_NAME = "bad_name"
    NOT_SEATED = "not_seated"
    WRONG_SEAT = "wrong_seat"
    NOT_HOST = "not_host"
    NOT_STARTED = "not_started"
    NOT_PLAYING = "not_playing"
    ROUND_OVER = "round_over"
    PILE_TAKEN = "pile_taken"
    ILLEGAL = "illegal"
    BAD_ACTION = "bad_action"
    SEAT_TAKEN = "seat_taken"
    NO_SUCH_SEAT = "no_such_seat"
    TOO_FEW_PLAYERS = "too_few_players"
    ALREADY_STARTED = "already_started"
    GAME_OVER = "game_over"
    GAME_NOT_OVER = "game_not_over"
    TAKEN_OVER = "taken_over"
    NOT_STUCK = "not_stuck"
    TABLE_CLOSED = "table_closed"
    TRY_AGAIN = "try_again"
    #: The host removed this person (this browser) from the table: no seat again.
    REMOVED = "removed"
    #: The host cannot leave while no other person at the table can take the host role.
    HOST_ALONE = "host_alone"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1


# --------------------------------------------------------------------------
# client -> server
# --------------------------------------------------------------------------

# The name rule itself (``ligretto.tafel.names``) is applied by the seating,
# which refuses a bad name with ``bad_name``; here only the length (T1).
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_LENGTH)]
# R1: seats are numbered from 0; no deck seats more than MAX_PLAYERS.
SeatNumber = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
Token = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]


class Join(_Message):
    """First message on a connection.

    - ``token``: take the seat that seat token belongs to (the token is
      replaced: the welcome carries the new one).  The host token is
      accepted here too and counts as ``host_token``.
    - ``host_token``: the host role, and the host's own seat unless
      ``token`` names one.
    - ``name``: sit down in a free seat under that name (before the start).
    - none of them: watch the table.
    """

    type: Literal["join"]
    name: Name | None = None
    token: Token | None = None
    host_token: Token | None = None
    #: The page's own random id for this table (kept in the browser): a
    #: person the host removed does not sit down here again from it.
    device: Token | None = None


class Move(_Message):
    """Play an action in the rules engine's text form (``Action.parse``).

    ``seat`` is optional; when given it must be the sender's own seat (a
    move for someone else's seat is refused with ``wrong_seat``).  ``ref``
    is echoed back so the page can match an answer to its move.
    """

    type: Literal["move"]
    action: Annotated[str, Field(min_length=1, max_length=64)]
    seat: SeatNumber | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] = 0


class AddBot(_Message):
    """Host only, before the start: put a bot into a free seat."""

    type: Literal["add_bot"]
    seat: SeatNumber | None = None
    strategy: Strategy = "stack-first"
    level: Level = Level.MEDIUM


class RemoveBot(_Message):
    """Host only, before the start: free a bot's seat, or the seat of a
    person who sat down and has left again."""

    type: Literal["remove_bot"]
    seat: SeatNumber


class RevokeSeat(_Message):
    """Host only: the seat link of a person's seat stops working.

    The seat gets a new token that nobody is told; whoever plays the seat
    now is disconnected (``revoked``).  The host's own seat comes back with
    the host token; any other is played by a stand-in during a game.
    """

    type: Literal["revoke_seat"]
    seat: SeatNumber


class RemovePlayer(_Message):
    """Host only, any phase: a person leaves the table at the host's word.

    Whoever plays the seat is told (``removed``) and disconnected.  Before
    the start the seat becomes free; once the game has started the seats
    are fixed (the Tafel game holds them, T1), so a stand-in bot plays the
    seat from then on, as for a person who stayed away, and nobody can
    take it back.  The host's own seat is never removed.
    """

    type: Literal["remove_player"]
    seat: SeatNumber


class Leave(_Message):
    """A seated person leaves the table for good, any phase.

    Answered like a removal (``left``, the socket closed): before the
    start the seat becomes free; once the game has started a stand-in bot
    plays it to the end.  A host who leaves passes the host role to the
    next person present (``host``); with nobody to take it the host cannot
    leave (``host_alone``).
    """

    type: Literal["leave"]


class Start(_Message):
    """Host only: start the game, or the next round after a round ended."""

    type: Literal["start"]


class PlayAgain(_Message):
    """Host only, once the game is over (T4/T5): a new game at the same
    table with the same seats, on a fresh Tafel game."""

    type: Literal["play_again"]


class Stuck(_Message):
    """A person at the table agrees that the round is stuck (R4), once
    ``stuck_offered`` says no card has gone to the middle for a while.
    When every person present agreed, the round is settled as a deadlock
    under the table's ``deadlock`` option."""

    type: Literal["stuck"]


class Ping(_Message):
    """Keep-alive; answered with ``pong`` carrying the server clock."""

    type: Literal["ping"]
    t: float | None = None


ClientMessage = Annotated[
    Join
    | Move
    | AddBot
    | RemoveBot
    | RevokeSeat
    | RemovePlayer
    | Leave
    | Start
    | PlayAgain
    | Stuck
    | Ping,
    Field(discriminator="type"),
]
_client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A client message that cannot be accepted at all."""

    def __init__(self, code: Reason, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Validate one incoming frame; raise :class:`ProtocolError` with a code."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(Reason.TOO_LARGE, f"message longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        return _client_adapter.validate_json(raw)
    except ValidationError as exc:
        errors = exc.errors()
        loc: tuple[int | str, ...] = tuple(errors[0]["loc"]) if errors else ()
        msg = errors[0]["msg"] if errors else "invalid"
        if loc[:1] == ("v",) or (len(loc) > 1 and loc[1] == "v"):
            raise ProtocolError(
                Reason.UNSUPPORTED_VERSION, f"protocol version {PROTOCOL_VERSION} expected"
            ) from None
        where = ".".join(str(part) for part in loc) or "message"
        raise ProtocolError(Reason.MALFORMED, f"{where}: {msg}") from None


# --------------------------------------------------------------------------
# server -> client
# --------------------------------------------------------------------------


class SeatInfo(BaseModel):
    """One seat as everybody at the table sees it (no token, ever)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    name: str | None
    kind: Literal["empty", "human", "bot"]
    connected: bool = False
    # A person who stayed away too long is played by a bot until they
    # come back (the table must not stall).
    away: bool = False
    # Gone for good during the game, and a bot plays to the end: the
    # person left the table, or the host removed them.
    gone: Literal["left", "removed"] | None = None
    strategy: str | None = None
    level: str | None = None


class TableInfo(BaseModel):
    """The table as a whole: seats, phase, options, scores so far."""

    model_config = ConfigDict(frozen=True)

    code: str
    phase: Phase
    seats: list[SeatInfo]
    options: dict[str, Any]
    end: dict[str, Any]
    round_no: int
    start_at: float | None = None
    tafel_game: str | None = None
    tafel_url: str | None = None
    totals: list[int] | None = None
    watchers: int = 0
    # R4 stall guard: no card went to the middle for a while; the seats
    # of the people who agreed to "We're stuck" so far.
    stuck_offered: bool = False
    stuck_agreed: list[int] = []
    # Restored after a restart: the countdown says "Resuming…".
    resuming: bool = False
    # Listed in the lobby for strangers to join (GET /api/lobby).
    public: bool = False
    # A quick match: when bots fill the empty chairs and the game starts
    # (seconds since the epoch, the server's clock; only in the lobby).
    fills_at: float | None = None


class Welcome(_Message):
    """Answer to ``join``: who you are at this table."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    # The seat's token, new with every join that takes a seat.
    token: str | None
    host: bool
    # Only to the host: the host's own key (it is not a seat token).
    host_token: str | None = None
    server_now: float
    table: TableInfo


class TableUpdate(_Message):
    """Seats or phase changed (someone joined, a bot was added, …)."""

    type: Literal["table"] = "table"
    table: TableInfo


class Countdown(_Message):
    """ "Ligretto!" at ``start_at`` (server clock, seconds since the epoch).

    Sent as a future time so that every seat starts together whatever its
    latency; ``server_now`` lets the page correct for its own clock.
    """

    type: Literal["countdown"] = "countdown"
    round_no: int
    start_at: float
    server_now: float
    # The round was dealt before a server restart and goes on where it
    # stood ("Resuming… 3 2 1") instead of starting.
    resume: bool = False


# The legal actions in a view: each one structured, with its exact text
# (what a ``move`` sends back).  The fields are the engine's ``Action``
# fields; row positions and pile ids count from 0.


class _WireAction(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: Annotated[str, Field(min_length=1, max_length=64)]


class PlayAction(_WireAction):
    """``play``: ``card`` from ``source`` (row position ``slot``, else
    ``None``) onto middle pile ``pile``; ``pile`` is ``None`` exactly for a
    1, which opens a new pile (R3)."""

    kind: Literal["play"] = "play"
    card: str
    source: Literal["row", "stack", "discard"]
    slot: int | None
    pile: int | None

    def to_action(self) -> Action:
        return Play(Card.parse(self.card), Source(self.source), self.slot, self.pile)


class StoreAction(_WireAction):
    """``store`` (R6): the stack or discard top ``card`` onto row position ``slot``."""

    kind: Literal["store"] = "store"
    card: str
    source: Literal["stack", "discard"]
    slot: int

    def to_action(self) -> Action:
        return Store(Card.parse(self.card), Source(self.source), self.slot)


class RefillAction(_WireAction):
    """``refill`` (manual refill, R3): the stack top fills the gap at ``slot``."""

    kind: Literal["refill"] = "refill"
    slot: int

    def to_action(self) -> Action:
        return Refill(self.slot)


class TurnAction(_WireAction):
    """``turn``: turn three hand cards (fewer if fewer remain, R3)."""

    kind: Literal["turn"] = "turn"

    def to_action(self) -> Action:
        return TURN


class RecycleAction(_WireAction):
    """``recycle``: the hand is used up; the discard pile becomes the hand (R3)."""

    kind: Literal["recycle"] = "recycle"

    def to_action(self) -> Action:
        return RECYCLE


WireAction = Annotated[
    PlayAction | StoreAction | RefillAction | TurnAction | RecycleAction,
    Field(discriminator="kind"),
]
wire_action_adapter: TypeAdapter[WireAction] = TypeAdapter(WireAction)


def wire_action(action: Action) -> WireAction:
    """The structured form of an engine action, read from its dataclass fields."""
    text = str(action)
    if isinstance(action, Play):
        return PlayAction(
            text=text,
            card=str(action.card),
            source=action.source.value,
            slot=action.slot,
            pile=action.pile,
        )
    if isinstance(action, Store):
        return StoreAction(
            text=text, card=str(action.card), source=action.source.value, slot=action.slot
        )
    if isinstance(action, Refill):
        return RefillAction(text=text, slot=action.slot)
    if isinstance(action, Turn):
        return TurnAction(text=text)
    if isinstance(action, Recycle):
        return RecycleAction(text=text)
    raise TypeError(f"not an action of the rules engine: {action!r}")


class ViewMessage(_Message):
    """The whole table as the recipient may see it (on join, rejoin, deal)."""

    type: Literal["view"] = "view"
    round_no: int
    seq: int
    view: dict[str, Any]


class EventsMessage(_Message):
    """A move was accepted: what happened, and the table as it is now.

    ``ref`` is set only in the copy sent to the player who made the move.
    """

    type: Literal["events"] = "events"
    round_no: int
    seq: int
    # ``None`` for what the table did itself (``stuck``, R4).
    seat: int | None
    action: str
    events: list[str]
    view: dict[str, Any]
    ref: int | None = None


class Race(BaseModel):
    """A lost race (R3), measured at the server: the card would have fitted
    the pile just before ``by``'s play, which arrived ``margin_ms`` earlier."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    by: int
    name: str | None
    margin_ms: int


class Refused(_Message):
    """A message was refused; only its sender gets this.

    ``race`` is set only for a ``pile_taken`` refusal that was a race: the
    pile moved on under the card by exactly the card that beat it.
    """

    type: Literal["refused"] = "refused"
    code: Reason
    reason: str
    ref: int | None = None
    action: str | None = None
    race: Race | None = None


class RaceWon(_Message):
    """You won a race (R3): ``loser``'s same card reached the pile
    ``margin_ms`` after yours. Only the winner's connections get this, once
    per loser and play (the loser gets ``refused`` with its ``race``)."""

    type: Literal["race_won"] = "race_won"
    round_no: int
    loser: int
    name: str | None
    margin_ms: int


class Races(BaseModel):
    """Races (R3) won and lost, one count per seat."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    won: list[int]
    lost: list[int]


class RoundOver(_Message):
    """The round ended (R4): its result (R5) and the Tafel totals."""

    type: Literal["round_over"] = "round_over"
    round_no: int
    ended_by: Termination
    caller: int | None
    stacks: list[int]
    middle: list[int]
    points: list[int]
    totals: list[int]
    game_over: bool
    winners: list[int]
    next_round_at: float | None
    # R3 races of this round and of the game so far (this round included).
    races: Races
    game_races: Races
    # The table's number of this round (counted across its games), under
    # which its replay is served; None where the table keeps no rounds.
    replay: int | None = None


class TakenOver(_Message):
    """Your seat was taken over by a connection with its seat token.

    The seat is now played on another device (or in another window); this
    connection holds nothing any more and everything it sends is refused
    (``taken_over``).  The page stops and does not reconnect on its own.
    """

    type: Literal["taken_over"] = "taken_over"
    seat: int
    reason: str


class Revoked(_Message):
    """The host revoked your seat's link: this connection holds nothing any
    more and is closed (4403) after this message."""

    type: Literal["revoked"] = "revoked"
    seat: int
    reason: str


class Removed(_Message):
    """The host removed you from the table: this connection holds nothing any
    more and is closed (4409) after this message; the page goes back to /play."""

    type: Literal["removed"] = "removed"
    seat: int
    reason: str


class YouLeft(_Message):
    """You left the table (``leave``): this connection holds nothing any more
    and is closed (4408) after this message; the page goes back to /play."""

    type: Literal["left"] = "left"
    seat: int
    reason: str


class HostNow(_Message):
    """The host left and you host the table now: ``host_token`` is the new
    host token (the old one stopped working); keep it like the one a host
    gets in ``welcome``."""

    type: Literal["host"] = "host"
    host_token: str


class Pong(_Message):
    type: Literal["pong"] = "pong"
    t: float | None
    server_now: float


ServerMessage = (
    Welcome
    | TableUpdate
    | Countdown
    | ViewMessage
    | EventsMessage
    | Refused
    | RaceWon
    | RoundOver
    | TakenOver
    | Revoked
    | Removed
    | YouLeft
    | HostNow
    | Pong
)
