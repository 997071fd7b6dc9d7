"""A group's reads for the API and the pages alike: statistics, league, history, members.

Every number is derived from the games' rounds (:mod:`ligretto.tafel.stats`,
:mod:`ligretto.tafel.ratings`); this module reads them and keeps the
results. :meth:`GroupQueries.computed` keeps the last results per group
for as long as the group's fingerprint (its version, its games and their
versions) stays the same, so a page read after a page read costs one small
query; the games themselves are kept per version, so after one correction
only that game's rounds are read again. The ratings continue from their
last result (:class:`~ligretto.tafel.ratings.RatingMemo`), one memo per
group and season, used under its lock.

A large group's first reading takes seconds (every round is read and
counted). :meth:`GroupQueries.ready` tells whether an answer is at hand —
kept, or the group small enough to compute it at once — and otherwise
computes it in the background (:meth:`GroupQueries.prepare`, at most
:data:`PREPARING_AT_ONCE` at a time), so that the API can answer 202 and
the client asks again, instead of a request holding a worker for that long.

The JSON API (:mod:`ligretto.web.api.groups`) and the pages
(:mod:`ligretto.web.pages.group_view`, :mod:`ligretto.web.pages.group_members`)
ask the same questions here and share one cache entry per answer.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import Row

from ligretto.store import group_repository as sql
from ligretto.store.database import busy_guard
from ligretto.store.results import StoredGroup
from ligretto.tafel.ending import FamilyNote, family_note
from ligretto.tafel.errors import Code, GroupError
from ligretto.tafel.family import FamilyTable, family_table
from ligretto.tafel.group_exchange import group_to_json
from ligretto.tafel.names import name_key
from ligretto.tafel.ratings import League, Rating, RatingMemo, league, rate
from ligretto.tafel.stats import (
    HeadToHead,
    HistoryItem,
    MemberStats,
    PlayedGame,
    Season,
    head_to_head,
    history,
    member_stats,
    round_points,
)

__all__ = [
    "PREPARING_RETRY_AFTER",
    "GroupLeague",
    "GroupQueries",
    "GroupStats",
    "MemberData",
    "kept_bytes",
    "league_key",
    "league_season",
]

T = TypeVar("T")

SeasonPick = Callable[[StoredGroup], Season | None]
"""Chooses a league's season from the group as it is now (see :func:`league_season`)."""


@dataclass(frozen=True, slots=True)
class GroupStats:
    """Every member's statistics and the head-to-head table of the group."""

    group: StoredGroup
    members: list[MemberStats]
    pairs: list[HeadToHead]


@dataclass(frozen=True, slots=True)
class GroupLeague:
    """The league of one season, its family table, and what the pages drew from it.

    ``drawn`` is kept with this league until the group changes: the pages
    put the chart they draw from it there (one per language).
    """

    group: StoredGroup
    table: League
    drawn: dict[str, Any]
    family: FamilyTable
    """The same season by wins (:func:`~ligretto.tafel.family.family_table`), the page's order."""


@dataclass(frozen=True, slots=True)
class MemberData:
    """One member: statistics, head-to-head, rating over time, points of every round."""

    group: StoredGroup
    stats: MemberStats
    pairs: list[HeadToHead]
    """The member's rows of the head-to-head table."""
    rating: Rating | None
    """After the last rated game (every game so far); None before any."""
    ratings: list[tuple[str, Rating]]
    """(game id, rating right after it) for every rated game the member played."""
    round_points: list[int]


def league_season(
    stored: StoredGroup,
    year: int | None,
    start: date | None,
    end: date | None,
    everything: bool,
    today: date | None = None,
) -> Season | None:
    """The season asked for: all games, a year, two dates, the group's, or this year (T6)."""
    if everything:
        return None
    if start is not None or end is not None:
        if start is None or end is None:
            raise GroupError(Code.BAD_SEASON, "a season needs both start and end", rule="T6")
        return Season(start, end)
    if year is not None:
        return Season.year(year)
    if stored.season is not None:
        return stored.season
    return Season.year((today or datetime.now(UTC).date()).year)


log = logging.getLogger(__name__)

PREPARE_ABOVE_ROUNDS = 10_000
"""A group of more rounds than this has its statistics prepared in the background.

Reading and counting 10,000 rounds takes about two seconds on one core (the
statistics of 40,000 rounds about eight); a smaller group is answered at once.
"""

PREPARING_AT_ONCE = 1
"""Large groups' answers computed in the background at the same time (threads).

One: every thread that runs Python competes with the event loop for the
interpreter lock, so the loop waits longer with each such thread."""

HEAVY_WORK = threading.Semaphore(1)
"""Held by a large group's import, by the background preparation of its answers and
by each piece of its streamed export: one of them at a time per process (the others
wait), for the same reason. With two such threads the event loop waited for the
interpreter lock twice as long each time it woke."""

PREPARING_QUEUED = 16
"""Answers waiting to be prepared; past that a request is told to come back later."""

PREPARING_RETRY_AFTER = 5
"""Seconds a client waits before asking again for a large group's answer."""

ROUND_BYTES = 300
"""Bytes a kept round takes besides its players' counts (measured with tracemalloc)."""

SEAT_BYTES = 150
"""Bytes each player's counts and points add to a kept round."""


def kept_bytes(played: PlayedGame) -> int:
    """An estimate of the memory a kept game takes: about 1.2 kB a round of six players."""
    game = played.game
    return 1024 + len(game.rounds) * (ROUND_BYTES + SEAT_BYTES * len(game.players))


def league_key(season: Season | None) -> str:
    """What a league of *season* is kept as (see :meth:`GroupQueries.ready`)."""
    return "league:" + ("all" if season is None else f"{season.start}:{season.end}")


class GroupQueries:
    """A group's reads and their results, kept per group. Thread-safe."""

    cache_size = 64
    """How many groups' computed statistics are kept in memory."""

    games_cache_bytes = 128 * 1024 * 1024
    """Memory the games kept for the next read (with their rounds, at one version) may
    take, by :func:`kept_bytes`'s estimate: about 100,000 rounds of six players, so the
    largest group (``MAX_GROUP_ROUNDS``) stays kept. A count of games bounded nothing:
    20,000 games of 1,000 rounds are gigabytes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._computed: OrderedDict[str, tuple[tuple[int, int, int], dict[str, Any]]] = (
            OrderedDict()
        )
        self._games: OrderedDict[tuple[str, int, datetime], PlayedGame] = OrderedDict()
        self._games_bytes = 0
        self._memos: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._preparing: set[tuple[str, tuple[str, ...]]] = set()
        self._executor: ThreadPoolExecutor | None = None

    # ------------------------------------------------------ large groups' answers
    def ready(self, group_id: str, whats: tuple[str, ...]) -> bool:
        """Whether the answers *whats* name can be given now.

        True when each is kept for the group as it is, or when the group
        has at most :data:`PREPARE_ABOVE_ROUNDS` rounds; raises
        :class:`~ligretto.store.errors.GroupNotFoundError`.
        """
        with busy_guard(), self.engine.connect() as conn:
            mark = sql.fingerprint(conn, group_id)
            with self._lock:
                entry = self._computed.get(group_id)
                kept = entry is not None and entry[0] == mark and all(w in entry[1] for w in whats)
            small = kept or sql.count_rounds(conn, group_id) <= PREPARE_ABOVE_ROUNDS
            conn.rollback()
        return small

    def large(self, group_id: str) -> bool:
        """Whether the group has more than :data:`PREPARE_ABOVE_ROUNDS` rounds.

        Raises :class:`~ligretto.store.errors.GroupNotFoundError`.
        """
        with busy_guard(), self.engine.connect() as conn:
            sql.read_group_row(conn, group_id)
            rounds = sql.count_rounds(conn, group_id)
            conn.rollback()
        return rounds > PREPARE_ABOVE_ROUNDS

    def prepare(self, group_id: str, whats: tuple[str, ...], work: Callable[[], object]) -> None:
        """Run *work* (which computes and keeps *whats*) in the background, once at a time.

        A request for the same answers while it runs starts nothing more;
        with :data:`PREPARING_QUEUED` answers waiting, nothing is started
        (the client is asked to come back anyway, and tries again).
        """
        key = (group_id, whats)
        with self._lock:
            if key in self._preparing or len(self._preparing) >= PREPARING_QUEUED:
                return
            self._preparing.add(key)
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    PREPARING_AT_ONCE, thread_name_prefix="group-answers"
                )
            executor = self._executor

        def run() -> None:
            try:
                with HEAVY_WORK:
                    work()
            except Exception:  # the request that asks again gets the error itself
                log.exception("preparing %s of group %s failed", whats, group_id)
            finally:
                with self._lock:
                    self._preparing.discard(key)

        executor.submit(run)

    def close(self) -> None:
        """Stop preparing: waiting work is dropped, running work ends on its own."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------ the answers
    def get_group(self, group_id: str) -> StoredGroup:
        """The group; raises :class:`~ligretto.store.errors.GroupNotFoundError`."""
        with busy_guard(), self.engine.connect() as conn:
            row, group = sql.read_group(conn, group_id, "share")
            stored = sql.stored_group(row, group, sql.count_games(conn, group_id))
            conn.rollback()
        return stored

    def history(self, group_id: str) -> list[HistoryItem]:
        """Every game of the group, newest first (:func:`~ligretto.tafel.stats.history`)."""
        return self.computed(group_id, "history", lambda _s, games: history(games))

    def stats(self, group_id: str) -> GroupStats:
        """Every member's statistics and the head-to-head table."""

        def compute(stored: StoredGroup, games: list[PlayedGame]) -> GroupStats:
            return GroupStats(
                stored, member_stats(games, stored.members), head_to_head(games, stored.members)
            )

        return self.computed(group_id, "stats", compute)

    def league(self, group_id: str, pick: SeasonPick) -> GroupLeague:
        """The league of the season *pick* chooses; computed and kept per season."""
        season = pick(self.get_group(group_id))
        key = league_key(season)
        lock, memo = self._memo(group_id, key)

        def compute(stored: StoredGroup, games: list[PlayedGame]) -> GroupLeague:
            with lock:
                table = league(games, stored.members, season, memo)
            family = family_table(games, stored.members, season)
            return GroupLeague(stored, table, {}, family)

        return self.computed(group_id, key, compute)

    def member(self, group_id: str, name: str) -> MemberData | None:
        """The member of this name (as the name rule compares names), or None."""
        every = self.stats(group_id)
        found = next((s for s in every.members if name_key(s.name) == name_key(name)), None)
        if found is None:
            return None
        member = found.name
        lock, memo = self._memo(group_id, "rating:all")

        def compute(
            stored: StoredGroup, games: list[PlayedGame]
        ) -> tuple[Rating | None, list[tuple[str, Rating]], list[int]]:
            with lock:
                final, steps = rate(games, stored.members, memo)
            ratings = [(s.game_id, s.ratings[member]) for s in steps if member in s.ratings]
            return final.get(member), ratings, round_points(games, member)

        rating, ratings, points = self.computed(group_id, f"member:{member}", compute)
        pairs = [h for h in every.pairs if h.member == member]
        return MemberData(every.group, found, pairs, rating, ratings, points)

    def family_note(self, game_id: str) -> FamilyNote | None:
        """The group history line of a game (:func:`~ligretto.tafel.ending.family_note`).

        None for a game in no group, or not won. Kept with the group's other results.
        """
        with busy_guard(), self.engine.connect() as conn:
            group_id = sql.game_group(conn, game_id)
            conn.rollback()
        if group_id is None:
            return None
        return self.computed(
            group_id, f"family:{game_id}", lambda _s, games: family_note(games, game_id)
        )

    def export_json(self, group_id: str) -> dict[str, Any]:
        """The whole group in its exchange format (:mod:`ligretto.tafel.group_exchange`)."""
        stored, games = self.played_games(group_id)
        return group_to_json(
            group_id=stored.id,
            version=stored.version,
            name=stored.name,
            members=stored.members,
            season=stored.season,
            games=games,
        )

    def kept_games(self, rows: Sequence[Row[Any]]) -> dict[str, PlayedGame | None]:
        """The games of *rows* that are kept as they are in the rows (None: not kept)."""
        with self._lock:
            return {r.id: self._games.get((r.id, r.version, r.played_at)) for r in rows}

    # ---------------------------------------------------------- reading, kept
    def played_games(self, group_id: str) -> tuple[StoredGroup, list[PlayedGame]]:
        """The group and every game of it with all rounds, oldest first.

        Games read before at the same version (and date) are taken from
        memory; only the rounds of the others are read, so after one
        correction one game's rounds are read again, not the group's.
        """
        with busy_guard(), self.engine.connect() as conn:
            row, group = sql.read_group(conn, group_id, "share")
            rows = sql.read_game_rows(conn, group_id)
            with self._lock:
                known = {r.id: self._games.get((r.id, r.version, r.played_at)) for r in rows}
            missing = [game_id for game_id, played in known.items() if played is None]
            rounds = sql.read_rounds_of(conn, missing)
            conn.rollback()
        games: list[PlayedGame] = []
        fresh: list[tuple[tuple[str, int, datetime], PlayedGame]] = []
        for r in rows:
            played = known[r.id]
            if played is None:
                played = sql.played_game(r, rounds.get(r.id, []))
                fresh.append(((r.id, r.version, r.played_at), played))
            games.append(played)
        with self._lock:
            for key, played in fresh:
                if key not in self._games:
                    self._games_bytes += kept_bytes(played)
                self._games[key] = played
            while self._games and self._games_bytes > self.games_cache_bytes:
                self._games_bytes -= kept_bytes(self._games.popitem(last=False)[1])
        return sql.stored_group(row, group, len(games)), games

    def computed(
        self,
        group_id: str,
        what: str,
        compute: Callable[[StoredGroup, list[PlayedGame]], T],
    ) -> T:
        """``compute(group, games)``, kept until the group or any of its games changes.

        *what* names the result (one per kind of statistics and filter).
        """
        with busy_guard(), self.engine.connect() as conn:
            mark = sql.fingerprint(conn, group_id)
            conn.rollback()
        with self._lock:
            entry = self._computed.get(group_id)
            if entry is not None and entry[0] == mark and what in entry[1]:
                self._computed.move_to_end(group_id)
                value: T = entry[1][what]
                return value
        stored, games = self.played_games(group_id)
        value = compute(stored, games)
        with self._lock:
            entry = self._computed.get(group_id)
            if entry is None or entry[0] != mark:
                entry = (mark, {})
            entry[1][what] = value
            self._computed[group_id] = entry
            self._computed.move_to_end(group_id)
            while len(self._computed) > self.cache_size:
                self._computed.popitem(last=False)
        return value

    def _memo(self, group_id: str, key: str) -> tuple[threading.Lock, RatingMemo]:
        """The ratings' memo kept per group and *key* across changes, with its lock.

        Ratings continue from their last result; hold the lock while rating.
        """
        with self._lock:
            memos = self._memos.setdefault(group_id, {})
            self._memos.move_to_end(group_id)
            while len(self._memos) > self.cache_size:
                self._memos.popitem(last=False)
            if key not in memos:
                memos[key] = (threading.Lock(), RatingMemo())
            entry: tuple[threading.Lock, RatingMemo] = memos[key]
        return entry
