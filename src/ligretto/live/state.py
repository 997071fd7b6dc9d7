"""The state of one online table as a typed record: what its actor reads and writes.

Like boardgame.io's master, the table's actor keeps no loose state of its
own: it reads this record, applies a command to it and leaves the result
in it.  The encoder shows it (:func:`~ligretto.live.encoder.table_info`),
persistence stores it with one call and builds it again with one
(:func:`~ligretto.live.persistence.table_state`,
:func:`~ligretto.live.persistence.restore_state`), and the registry reads
its phase and idle time.  It has three parts, each of one life span:

- :class:`TableState` — the table itself, from its opening to its close:
  code, rules, seats, phase, message count, labels, group;
- :class:`GameState` — the game being played: its rounds so far and its
  Tafel game (a new one for "play again");
- :class:`TableRound` — the round being played: the engine's round, the
  countdown, the stall guard's offer (R4) (a new one for every deal).

Only the actor changes it, between two commands; everybody else reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ligretto.live.phase import Phase
from ligretto.live.scoring.keeper import EndCondition, GroupLink
from ligretto.live.seating import BotSpec, Seating
from ligretto.rules.cards import Card
from ligretto.rules.options import RuleOptions
from ligretto.rules.round import Round


@dataclass(slots=True)
class PilePlay:
    """The last play accepted on one middle pile: whose card, which, and when
    it arrived (server clock, ms), to tell a lost race (R3) from a late card."""

    seat: int
    card: Card
    at_ms: float
    #: Seats already told they lost to this play (a race is counted once).
    losers: set[int] = field(default_factory=set)


@dataclass(slots=True)
class TableRound:
    """The round being played (a fresh one at every deal)."""

    #: The engine's round: every card and pile (``None`` before the first deal).
    dealt: Round | None = None
    #: Actions accepted in this round (the next one's index in the log).
    actions: int = 0
    #: When "Ligretto!" is called (R3 start signal), on the wall clock.
    start_at: float | None = None
    #: Restored mid-round: the countdown to go on starts when someone is back.
    resuming: bool = False
    #: The finished round is on its way to the Tafel (its answer is due).
    scoring: bool = False
    #: R4 stall guard: when a card last went to the middle (monotonic clock),
    #: whether "We're stuck" is offered, and which people present agreed.
    last_middle: float = 0.0
    stuck_offered: bool = False
    stuck_agreed: set[int] = field(default_factory=set)
    #: Play time (ms since "Ligretto!") before play last (re)started — the
    #: last action's time of a round restored after a restart — and when
    #: it (re)started (monotonic clock; ``None`` until "Ligretto!").
    played_ms: int = 0
    go_at: float | None = None
    #: The play time of each action in the round's log, in order.
    times: list[int] = field(default_factory=list)
    #: Plays refused because another seat was faster, for the replay (R3),
    #: as ``moves.lost_race`` found them.
    races: list[dict[str, int | str]] = field(default_factory=list)
    #: R3 races: the last play on each middle pile (by pile id), and each
    #: seat's races won and lost in this round.
    piles: dict[int, PilePlay] = field(default_factory=dict)
    races_won: list[int] = field(default_factory=list)
    races_lost: list[int] = field(default_factory=list)


@dataclass(slots=True)
class GameState:
    """The game being played at the table (a fresh one for "play again")."""

    #: Rounds dealt in this game (the current one's number).
    round_no: int = 0
    #: The Tafel game that keeps the score (T1–T5), once it is open, and
    #: its edit token: the table alone writes to its game.
    tafel_game: str | None = None
    tafel_token: str | None = field(default=None, repr=False)
    #: Rounds the Tafel game holds from this table (its next round's number - 1).
    tafel_rounds: int = 0
    #: The last round whose score the Tafel has answered (or failed).
    recorded_round: int = 0
    #: Each seat's points so far (R5), as the Tafel added them up (T4).
    totals: list[int] | None = None
    #: The ``round_over`` message of the last round, for whoever joins now.
    last_round_over: str | None = None
    #: Each seat's races (R3) won and lost in this game's rounds so far.
    races_won: list[int] = field(default_factory=list)
    races_lost: list[int] = field(default_factory=list)


#: The tag of a table its host opened to strangers: the lobby lists it
#: (ligretto.live.lobby) while it waits with a free seat.
PUBLIC = "public"
#: The tag of a quick match's table, and the prefix of the tag that says
#: when bots fill its empty chairs (``fills:<seconds since the epoch>``).
MATCH = "match"
FILLS_TAG = "fills:"


def fills_at(tags: set[str]) -> float | None:
    """When a quick match's bots fill the table (the server's wall clock)."""
    for tag in tags:
        if tag.startswith(FILLS_TAG):
            try:
                return float(tag[len(FILLS_TAG) :])
            except ValueError:
                return None
    return None


@dataclass(slots=True)
class TableState:
    """One online table as its actor keeps it (see the module docstring)."""

    code: str
    options: RuleOptions
    end: EndCondition
    seating: Seating
    #: The group each of the table's games joins (the host picked it).
    group: GroupLink | None = None
    #: Labels the web pages keep with a table ("practice", "autostart",
    #: ``PUBLIC`` and its language "lang:de").
    tags: set[str] = field(default_factory=set)
    #: Multiplies every bot delay; stored, so a practice table's slow bots stay slow.
    bot_pace: float = 1.0
    phase: Phase = Phase.LOBBY
    #: Accepted actions of the table, counted across rounds and games.
    seq: int = 0
    #: Rounds dealt at the table, counted across its games: the number
    #: under which a finished round is kept (its replay's address).
    rounds: int = 0
    game: GameState = field(default_factory=GameState)
    round: TableRound = field(default_factory=TableRound)
    #: Since when nobody is connected (monotonic clock; ``None`` while
    #: someone is).  Not stored: a restored table starts counting anew.
    idle_since: float | None = None

    @classmethod
    def open(
        cls,
        code: str,
        *,
        seats: int,
        options: RuleOptions,
        end: EndCondition,
        host_token: str | None,
        host_hash: str | None = None,
        host_name: str | None = None,
        bots: Sequence[BotSpec] = (),
        group: GroupLink | None = None,
        bot_pace: float = 1.0,
        idle_since: float | None = None,
    ) -> TableState:
        """A new table in the lobby: ``host_name`` in seat 0, then ``bots``."""
        check_seats(options, seats)
        seating = Seating(seats, host_token, host_hash=host_hash)
        if host_name is not None:
            seating.seat_host(0, host_name)
        seating.place_bots(bots)
        return cls(
            code, options, end, seating, group=group, bot_pace=bot_pace, idle_since=idle_since
        )


def check_seats(options: RuleOptions, seats: int) -> None:
    """R1: a table seats as many players as its deck takes (``ValueError``)."""
    if not options.min_players <= seats <= options.max_players:
        raise ValueError(
            f"a table has {options.min_players} to {options.max_players} seats"
            f" with deck {options.deck!r}"
        )
