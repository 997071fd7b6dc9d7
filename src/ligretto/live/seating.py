"""Who sits where at an online table, and who watches.

Every operation here is synchronous and either does all it says or raises
:class:`SeatingError` with a protocol reason and changes nothing; the
table turns that into a ``refused`` message.  Whether an operation is
allowed *now* (only the host, only in the lobby) is the table's call; the
seating only knows chairs, names, tokens and connections.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ligretto.live.botseat import BotBrain
from ligretto.live.connection import Connection
from ligretto.live.protocol import Reason
from ligretto.store.tokens import TABLE_TOKEN_BYTES, hash_token, new_token, token_matches
from ligretto.tafel.limits import MAX_NAME_LENGTH
from ligretto.tafel.names import InvalidNameError, clean_name, name_key

#: Why a person's seat is played by a bot to the end (live.departures).
Gone = Literal["left", "removed"]

# "Bot 3 (watchful)", as a bot is named when it sits down (put_bot).
_BOT_NAME = re.compile(r"^(Bot \d+) \([a-z-]+\)$")

# Each watcher costs a message per move; a table is not a broadcast studio.
MAX_WATCHERS = 100
# The devices kept per seat, and the devices a table keeps out (removed).
MAX_DEVICES = 4
MAX_BARRED = 200


class SeatingError(Exception):
    """A seating operation was refused; ``code`` says why (``Reason``)."""

    def __init__(self, code: Reason, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(slots=True)
class Seat:
    """One chair at the table."""

    index: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str | None = None
    # Only the hash of the seat's token is kept (and stored): the token
    # itself is handed out once, to whoever takes the seat.
    token_hash: str | None = None
    strategy: str | None = None
    level: str | None = None
    conns: set[Connection] = field(default_factory=set, repr=False)
    away: bool = False
    # Bumped whenever who plays this seat changes, so that a bot move
    # planned before the change is dropped when it arrives.
    generation: int = 0
    brain: BotBrain | None = field(default=None, repr=False)
    bot_pending: bool = False
    # Bumped when a person (re)joins this seat: an "away" timer set before
    # that is stale.
    presence: int = 0
    # The host sat down here when the table opened: the host token also
    # claims this seat, and the host's chair is never emptied.
    hosts: bool = False
    # The person left the table for good during the game, or the host
    # removed them: a stand-in plays the seat to the end (live.departures).
    gone: Gone | None = None
    # Hashes of the devices (the page's own id for this table) the seat
    # was taken from: a person removed does not sit down again from them.
    devices: set[str] = field(default_factory=set)

    def seen_on(self, device: str | None) -> None:
        """The seat was taken from ``device`` (a few are kept)."""
        if device is not None and len(self.devices) < MAX_DEVICES:
            self.devices.add(hash_token(device))

    @property
    def bot_plays(self) -> bool:
        """A bot moves for this seat: a bot's, or an away person's stand-in."""
        return self.kind == "bot" or (self.kind == "human" and self.away)

    def issue_token(self) -> str:
        """A fresh token for this seat (the one before stops working)."""
        token = new_token(TABLE_TOKEN_BYTES)
        self.token_hash = hash_token(token)
        return token

    def replan(self) -> None:
        """Who plays or what is dealt changed: a bot move on its way is stale."""
        self.generation += 1
        self.bot_pending = False

    def go_away(self) -> None:
        """The person stayed away too long: a stand-in bot plays for them."""
        self.away = True
        self.replan()

    def come_back(self) -> None:
        """The person is back: the stand-in stops, the person plays on."""
        self.away = False
        self.replan()
        self.brain = None


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot to seat when a table opens; ``seat`` ``None`` means any free one."""

    seat: int | None
    strategy: str
    level: str


def seat_name(raw: str) -> str:
    """A person's name under the one name rule (T1), or ``bad_name``.

    The same rule as the Tafel's (``ligretto.tafel.names``): a name the
    table accepts is one its Tafel game accepts too.
    """
    try:
        return clean_name(raw)
    except InvalidNameError as exc:
        raise SeatingError(Reason.BAD_NAME, exc.message) from None


class Seating:
    """The chairs of one table and the connections at it."""

    def __init__(self, count: int, host_token: str | None, *, host_hash: str | None = None) -> None:
        self.seats = [Seat(i) for i in range(count)]
        # The host token itself is known only to the process that opened
        # the table (to hand it to the host once); a restored table knows
        # its hash only.
        self.host_token = host_token
        self.host_hash = host_hash if host_hash is not None else hash_token(host_token or "")
        self.watchers: set[Connection] = set()
        # The hashes of the devices of people the host removed: they do not
        # sit down at this table again (live.departures).
        self.barred: set[str] = set()

    @classmethod
    def restored(cls, seats: list[Seat], host_hash: str) -> Seating:
        """The chairs as they were stored (a restored table knows only the
        hash of its host token)."""
        seating = cls(len(seats), None, host_hash=host_hash)
        seating.seats = seats
        return seating

    def __repr__(self) -> str:
        return f"Seating(seats={self.seats!r}, watchers={len(self.watchers)})"

    def __len__(self) -> int:
        return len(self.seats)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def __getitem__(self, index: int) -> Seat:
        return self.seats[index]

    # ------------------------------------------------------------------
    # connections
    # ------------------------------------------------------------------

    def connections(self) -> list[Connection]:
        """Everybody at the table: watchers, then each seat's connections."""
        conns = list(self.watchers)
        for seat in self.seats:
            conns.extend(seat.conns)
        return conns

    def has_connections(self) -> bool:
        return bool(self.watchers) or any(s.conns for s in self.seats)

    def is_host_token(self, token: str) -> bool:
        return token_matches(self.host_hash, token)

    def by_token(self, token: str) -> Seat | None:
        for seat in self.seats:
            if seat.token_hash is not None and token_matches(seat.token_hash, token):
                return seat
        return None

    def host_seat(self) -> Seat | None:
        """The chair the host sat down in when the table opened, if any."""
        return next((s for s in self.seats if s.hosts), None)

    def claim(
        self,
        conn: Connection,
        token: str | None,
        host_token: str | None = None,
        device: str | None = None,
    ) -> tuple[Seat | None, str | None, list[Connection]]:
        """Join with tokens: the host role and/or a seat.

        ``token`` is a seat token (or, as protocol version 1 always allowed,
        the host token); ``host_token`` the host's key.  The host token
        gives the host role and, unless a seat token names another seat,
        the host's own chair.  Every token must be valid, or nothing
        changes (``bad_token``).

        A claimed seat gets a fresh token (:meth:`take_over`): the one just
        used stops working.  Returns the seat (``None``: a host without
        one), its new token, and the connections that held it until now;
        they hold nothing any more and must be told so.
        """
        host = False
        seat: Seat | None = None
        if host_token is not None:
            if not self.is_host_token(host_token):
                raise SeatingError(Reason.BAD_TOKEN, "this is not the host token of this table")
            host = True
        if token is not None:
            if self.is_host_token(token):
                host = True
            else:
                seat = self.by_token(token)
                if seat is None:
                    raise SeatingError(Reason.BAD_TOKEN, "no seat or table belongs to this token")
        if host and seat is None:
            seat = self.host_seat()
        if host:
            conn.host = True
            conn.host_token = host_token if host_token is not None else token
        if seat is None:
            return None, None, []
        fresh, displaced = self.take_over(seat)
        conn.seat = seat.index
        seat.conns.add(conn)
        seat.seen_on(device)
        seat.presence += 1
        if seat.away:
            seat.come_back()
        return seat, fresh, displaced

    def take_over(self, seat: Seat) -> tuple[str, list[Connection]]:
        """The seat was claimed on a new connection: it plays the seat now.

        One seat, one player: the connections that held the seat until now
        (another device, another window, or a reload whose old socket has
        not closed yet) hold nothing any more — no seat, no host role, no
        further messages from the table.  Whatever they send is refused
        (``taken_over``).  The seat gets a fresh token, so the link just
        used (and any copy of it) no longer takes the seat.  Returns the
        new token and the displaced connections.
        """
        return self.displace(seat)

    def revoke(self, index: int) -> tuple[Seat, list[Connection]]:
        """The host withdraws a person's seat link: a new token nobody holds.

        Whoever plays the seat now loses it (the returned connections hold
        nothing any more).  The host's own chair comes back with the host
        token; any other one is played by a stand-in during a game and can
        be emptied by the host in the lobby.
        """
        seat = self.seats[index] if index < len(self.seats) else None
        if seat is None or seat.kind != "human":
            raise SeatingError(Reason.NO_SUCH_SEAT, "no person sits there")
        return seat, self.displace(seat)[1]

    def displace(self, seat: Seat) -> tuple[str, list[Connection]]:
        """A fresh token for ``seat``; the connections that held it hold
        nothing any more (returned with it)."""
        fresh = seat.issue_token()
        displaced = list(seat.conns)
        for old in displaced:
            seat.conns.discard(old)
            old.seat = None
            old.host = False
            old.taken_over = True
        return fresh, displaced

    def sit_down(
        self, conn: Connection, name: str, *, lobby: bool, device: str | None = None
    ) -> tuple[Seat, str]:
        """A person takes the first free chair under ``name`` (before the
        start), from ``device``; returns the seat and its token."""
        name = seat_name(name)
        if not lobby:
            raise SeatingError(Reason.ALREADY_STARTED, "the game has started; watch instead")
        if device is not None and hash_token(device) in self.barred:
            raise SeatingError(Reason.REMOVED, "the host removed you from this table")
        key = name_key(name)
        if any(s.name is not None and name_key(s.name) == key for s in self.seats):
            raise SeatingError(Reason.NAME_TAKEN, f"someone at this table is called {name}")
        free = self._free()
        if free is None:
            raise SeatingError(Reason.TABLE_FULL, "every seat is taken; watch instead")
        free.kind, free.name = "human", name
        free.seen_on(device)
        token = free.issue_token()
        free.conns.add(conn)
        conn.seat = free.index
        return free, token

    def watch(self, conn: Connection) -> None:
        """Join as a watcher; the host always gets in."""
        if len(self.watchers) >= MAX_WATCHERS and not conn.host:
            raise SeatingError(Reason.TABLE_FULL, "this table has as many watchers as it takes")
        self.watchers.add(conn)

    def leave(self, conn: Connection) -> Seat | None:
        """The connection is gone; the seat it held, if any."""
        self.watchers.discard(conn)
        if conn.seat is None or conn.seat >= len(self.seats):
            return None
        seat = self.seats[conn.seat]
        seat.conns.discard(conn)
        return seat

    # ------------------------------------------------------------------
    # chairs
    # ------------------------------------------------------------------

    def seat_host(self, index: int, name: str) -> str:
        """Seat the host (when the table opens); return their seat token.

        The seat token is not the host token: a seat link moves the seat to
        another device, never the host role.
        """
        seat = self.seats[index]
        seat.kind, seat.name = "human", self._unique_name(seat_name(name))
        seat.hosts = True
        return seat.issue_token()

    def put_bot(self, index: int, strategy: str, level: str) -> Seat:
        """Seat a bot in chair ``index``."""
        seat = self.seats[index]
        seat.kind, seat.strategy, seat.level = "bot", strategy, level
        seat.name = self._unique_name(seat_name(f"Bot {index + 1} ({strategy})"))
        seat.generation += 1
        return seat

    def place_bots(self, bots: Iterable[BotSpec]) -> None:
        """Seat bots when the table opens; a bot whose chair is gone or taken
        sits in the first free one."""
        for bot in bots:
            index = bot.seat
            if index is None or index >= len(self.seats) or self.seats[index].kind != "empty":
                free = self._free()
                if free is None:
                    raise SeatingError(Reason.TABLE_FULL, "more bots than free seats")
                index = free.index
            self.put_bot(index, bot.strategy, bot.level)

    def add_bot(self, index: int | None, strategy: str, level: str) -> Seat:
        """The host adds a bot: to chair ``index``, or else the first free one."""
        if index is None:
            seat = self._free()
            if seat is None:
                raise SeatingError(Reason.TABLE_FULL, "every seat is taken")
        else:
            if index >= len(self.seats):
                raise SeatingError(Reason.NO_SUCH_SEAT, f"this table has {len(self.seats)} seats")
            seat = self.seats[index]
            if seat.kind != "empty":
                raise SeatingError(Reason.SEAT_TAKEN, f"seat {seat.index + 1} is taken")
        return self.put_bot(seat.index, strategy, level)

    def remove(self, index: int) -> None:
        """Empty a bot's chair, or that of a person who sat down and left.

        An empty chair nobody is coming back to must not block the table;
        the host's own chair is never emptied.
        """
        seat = self.seats[index] if index < len(self.seats) else None
        gone = seat is not None and seat.kind == "human" and not seat.conns and not seat.hosts
        if seat is None or not (seat.kind == "bot" or gone):
            raise SeatingError(Reason.NO_SUCH_SEAT, "no bot and nobody who left sits there")
        self.seats[index] = Seat(index, generation=seat.generation + 1)

    def tafel_names(self) -> list[str]:
        """The seats' names on the table's Tafel game (T1).

        A bot is "Bot 3" there — the same word in German, English and
        Norwegian, and without the strategy's jargon ("watchful"), which the
        table page puts in plain words itself — unless a person's name at
        the table makes that ambiguous; then the bot keeps its full name.
        """
        names = [s.name or f"Seat {s.index + 1}" for s in self.seats]
        short = [
            match.group(1) if s.kind == "bot" and (match := _BOT_NAME.match(name)) else name
            for s, name in zip(self.seats, names, strict=True)
        ]
        keys = [name_key(n) for n in short]
        return [
            plain if keys.count(name_key(plain)) == 1 else full
            for plain, full in zip(short, names, strict=True)
        ]

    def taken(self) -> Sequence[Seat]:
        return [s for s in self.seats if s.kind != "empty"]

    def close(self) -> None:
        """The game starts: empty chairs go, the round is dealt for those seated."""
        kept = list(self.taken())
        for index, seat in enumerate(kept):
            seat.index = index
            for c in seat.conns:
                c.seat = index
        self.seats = kept

    def _free(self) -> Seat | None:
        return next((s for s in self.seats if s.kind == "empty"), None)

    def _unique_name(self, name: str) -> str:
        """``name``, or with a number added if it is taken (compared by ``name_key``)."""
        taken = {name_key(s.name) for s in self.seats if s.name is not None}
        candidate, n = name[:MAX_NAME_LENGTH], 2
        while name_key(candidate) in taken:
            suffix = f" {n}"
            candidate, n = name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix, n + 1
        return candidate
