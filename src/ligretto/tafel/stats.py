"""A group's statistics, derived from the rounds of its games (no I/O).

Everything here is computed from :class:`~ligretto.tafel.Game` objects, so
a corrected round changes the statistics by itself (T6). Two kinds of
numbers, and which games they count:

- **game numbers** (games, wins, win rate, winning streak, recent form,
  medals, head-to-head (the family table: :mod:`ligretto.tafel.family`),
  the rating) count the *finished* games (T4/T5): a game still being
  played has no winner yet;
- **round numbers** (points per round, Ligretto Stop rate, stack cards
  left, best and worst round) count every *complete* round (T3) of every
  game, finished or not.

A shared victory (T5) is a win for each winner and is also counted as a
shared win. Members are matched to seats by name as T1 compares names
(:func:`~ligretto.tafel.names.name_key`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache

from ligretto.estimates import estimate_mean
from ligretto.tafel.errors import Code, GroupError
from ligretto.tafel.game import Game, Mode
from ligretto.tafel.names import name_key

__all__ = [
    "RECENT_GAMES",
    "Form",
    "HeadToHead",
    "HistoryItem",
    "MemberStats",
    "PlayedGame",
    "RoundRef",
    "Season",
    "chronological",
    "head_to_head",
    "history",
    "member_stats",
    "recent_form",
    "round_points",
    "select",
    "select_history",
]


@lru_cache(maxsize=4096)
def _key(name: str) -> str:
    # A group has few names and many games: each name is compared many times.
    return name_key(name)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of a group: its id, when it was played, and the game itself."""

    id: str
    played_at: datetime
    game: Game
    keys: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The name key of each seat (T1), to match seats to members."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", tuple(_key(p) for p in self.game.players))


@dataclass(frozen=True, slots=True)
class Season:
    """A stretch of days, both ends included (a year, or dates a group sets)."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise GroupError(
                Code.BAD_SEASON,
                f"a season ends on or after its first day ({self.start} … {self.end})",
                rule="T6",
            )

    @classmethod
    def year(cls, year: int) -> Season:
        """The calendar year *year*."""
        if not 1 <= year <= 9999:
            raise GroupError(Code.BAD_SEASON, f"there is no year {year}", rule="T6")
        return cls(date(year, 1, 1), date(year, 12, 31))

    def holds(self, moment: datetime) -> bool:
        return self.start <= moment.date() <= self.end


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One game in a group's history."""

    id: str
    played_at: datetime
    players: tuple[str, ...]
    winners: tuple[str, ...]
    mode: str
    target: int | None
    rounds: int
    status: str
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundRef:
    """A remarkable round: its points, and where it was played."""

    points: int
    game_id: str
    round: int
    played_at: datetime


RECENT_GAMES = 5
"""How many of a member's latest finished games "lately" means ("won 3 of the last 5")."""


@dataclass(frozen=True, slots=True)
class Form:
    """How a member did lately: *won* of the last *played* finished games, and the
    winning *streak* that runs up to the latest game (0 after a game not won)."""

    played: int = 0
    won: int = 0
    streak: int = 0


def recent_form(results: Sequence[bool], last: int = RECENT_GAMES) -> Form:
    """The form of a member whose finished games, oldest first, were won or not (*results*).

    >>> recent_form([True, False, True, True, False, True, True])
    Form(played=5, won=4, streak=2)
    """
    if last < 1:
        raise ValueError(f"the last {last} games: at least one game is needed")
    recent = results[-last:]
    streak = 0
    for won in reversed(results):
        if not won:
            break
        streak += 1
    return Form(len(recent), sum(recent), streak)


@dataclass(slots=True)
class MemberStats:
    """What the rounds and games say about one member (see the module's text)."""

    name: str
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    rounds: int = 0
    points: int = 0
    stops: int = 0
    stack_cards: int = 0
    best_round: RoundRef | None = None
    worst_round: RoundRef | None = None
    longest_streak: int = 0
    points_low: float | None = None
    points_high: float | None = None
    form: Form = field(default_factory=Form)
    """The last finished games (:func:`recent_form`)."""
    _streak: int = field(default=0, repr=False)
    _results: list[bool] = field(default_factory=list, repr=False)
    _round_points: list[int] = field(default_factory=list, repr=False)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def points_per_round(self) -> float | None:
        return self.points / self.rounds if self.rounds else None

    @property
    def stop_rate(self) -> float | None:
        """Share of rounds in which this member called Ligretto Stop (R4)."""
        return self.stops / self.rounds if self.rounds else None

    @property
    def stack_cards_per_round(self) -> float | None:
        """Cards left in the Ligretto stack per round, on average (T2)."""
        return self.stack_cards / self.rounds if self.rounds else None


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two members over the finished games both played: who ended ahead (T4/T5)."""

    member: str
    opponent: str
    games: int
    ahead: int
    behind: int
    level: int


def chronological(games: Iterable[PlayedGame]) -> list[PlayedGame]:
    """Oldest first; games of the same moment in the order of their ids."""
    return sorted(games, key=lambda g: (g.played_at, g.id))


def select(
    games: Iterable[PlayedGame],
    *,
    member: str | None = None,
    year: int | None = None,
    mode: str | None = None,
    season: Season | None = None,
) -> list[PlayedGame]:
    """The games a member played, of a year, of a mode and in a season (each optional)."""
    key = None if member is None else name_key(member)
    chosen = []
    for played in games:
        if key is not None and key not in played.keys:
            continue
        if year is not None and played.played_at.year != year:
            continue
        if mode is not None and played.game.mode.value != mode:
            continue
        if season is not None and not season.holds(played.played_at):
            continue
        chosen.append(played)
    return chosen


def history(games: Iterable[PlayedGame]) -> list[HistoryItem]:
    """Every game, newest first, with date, players, winners, mode and rounds."""
    return [
        HistoryItem(
            id=g.id,
            played_at=g.played_at,
            players=g.game.players,
            winners=g.game.winners,
            mode=g.game.mode.value,
            target=g.game.target if g.game.mode is Mode.TARGET else g.game.agreed_rounds,
            rounds=g.game.complete_rounds,
            status=g.game.status.value,
            totals=g.game.totals,
        )
        for g in reversed(chronological(games))
    ]


def select_history(
    items: Iterable[HistoryItem],
    *,
    member: str | None = None,
    year: int | None = None,
    mode: str | None = None,
) -> list[HistoryItem]:
    """The history items of a member, a year and a mode (each optional), in their order."""
    key = None if member is None else name_key(member)
    return [
        i
        for i in items
        if (key is None or key in {_key(p) for p in i.players})
        and (year is None or i.played_at.year == year)
        and (mode is None or i.mode == mode)
    ]


def member_stats(games: Iterable[PlayedGame], members: Sequence[str]) -> list[MemberStats]:
    """The statistics of each member, in the order of *members*."""
    stats = {name_key(m): MemberStats(m) for m in members}
    for played in chronological(games):
        game = played.game
        seats = [stats.get(k) for k in played.keys]
        for rnd in game.rounds:
            points = rnd.points
            if points is None:
                continue
            caller = rnd.caller
            for seat, member in enumerate(seats):
                if member is None:
                    continue
                p = points[seat]
                member.rounds += 1
                member.points += p
                member.stack_cards += rnd.stacks[seat]
                member._round_points.append(p)
                if caller == seat:
                    member.stops += 1
                if member.best_round is None or p > member.best_round.points:
                    member.best_round = RoundRef(p, played.id, rnd.number, played.played_at)
                if member.worst_round is None or p < member.worst_round.points:
                    member.worst_round = RoundRef(p, played.id, rnd.number, played.played_at)
        if not game.finished:
            continue
        winners = {_key(w) for w in game.winners}
        shared = len(winners) > 1
        for key, member in zip(played.keys, seats, strict=True):
            if member is None:
                continue
            member.games += 1
            member._results.append(key in winners)
            if key in winners:
                member.wins += 1
                member.shared_wins += shared
                member._streak += 1
                member.longest_streak = max(member.longest_streak, member._streak)
            else:
                member._streak = 0
    for member in stats.values():
        if len(member._round_points) >= 2:
            estimate = estimate_mean(member._round_points)
            if math.isfinite(estimate.low):
                member.points_low, member.points_high = estimate.low, estimate.high
        member._round_points = []
        member.form = recent_form(member._results)
        member._results = []
    return list(stats.values())


def head_to_head(games: Iterable[PlayedGame], members: Sequence[str]) -> list[HeadToHead]:
    """For each ordered pair of members who met in a finished game: ahead, behind, level."""
    names = {name_key(m): m for m in members}
    tally: dict[tuple[str, str], list[int]] = {}
    for played in games:
        game = played.game
        if not game.finished:
            continue
        totals = game.totals
        seats = [(k, t) for k, t in zip(played.keys, totals, strict=True) if k in names]
        for a, total_a in seats:
            for b, total_b in seats:
                if a == b:
                    continue
                row = tally.setdefault((a, b), [0, 0, 0])
                row[0 if total_a > total_b else 1 if total_a < total_b else 2] += 1
    order = {k: i for i, k in enumerate(names)}
    return [
        HeadToHead(names[a], names[b], sum(row), row[0], row[1], row[2])
        for (a, b), row in sorted(
            tally.items(), key=lambda item: (order[item[0][0]], order[item[0][1]])
        )
    ]


def round_points(games: Iterable[PlayedGame], member: str) -> list[int]:
    """Every complete round's points of *member* (R5), oldest first."""
    key = name_key(member)
    out: list[int] = []
    for played in chronological(games):
        try:
            seat = played.keys.index(key)
        except ValueError:
            continue
        for rnd in played.game.rounds:
            points = rnd.points
            if points is not None:
                out.append(points[seat])
    return out
