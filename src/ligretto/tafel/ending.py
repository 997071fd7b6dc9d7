"""How a won game is told: the round that decided it and a line of the group's history (no I/O).

Both are derived from the rounds alone (T6: a corrected round changes
them by itself):

- :func:`deciding_round` — the first round after which the outcome held:
  from its running totals on, the winners (T4/T5) and only they had the
  highest total, through the last round;
- :func:`family_note` — for a game of a group, each winner's how-many-th
  win of that calendar year, and whether the game holds the best round
  the group had played by then. Only the game and the games played
  before it count, so the line a game once showed stays true when later
  games are played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ligretto.tafel.game import Game
from ligretto.tafel.stats import PlayedGame, chronological

__all__ = ["BestRound", "FamilyNote", "YearWin", "deciding_round", "family_note", "top_seats"]


def top_seats(totals: Sequence[int]) -> frozenset[int]:
    """The seats with the highest total (several on a tie, T5)."""
    top = max(totals)
    return frozenset(seat for seat, total in enumerate(totals) if total == top)


def deciding_round(game: Game) -> int | None:
    """The number of the round after which the outcome held, or None while undecided.

    The outcome is the game's winners (T4/T5, a shared victory included).
    Walking back from the last complete round, the deciding round is the
    earliest one from which on every complete round left exactly the
    winners at the top. A target game decided in a tie-break (T4) is thus
    decided by the round that broke the tie; a game its winner led from
    the first round was decided in round 1.
    """
    winners = set(game.winners)
    if not winners:
        return None
    seats = frozenset(seat for seat, name in enumerate(game.players) if name in winners)
    deciding: int | None = None
    for rnd, totals in zip(reversed(game.rounds), reversed(game.running_totals()), strict=True):
        if totals is None:
            continue  # a pending round adds nothing (T3)
        if top_seats(totals) != seats:
            break
        deciding = rnd.number
    return deciding


@dataclass(frozen=True, slots=True)
class YearWin:
    """A winner of the game and which win of the year this was for them (1 = the first)."""

    name: str
    nth: int
    year: int


@dataclass(frozen=True, slots=True)
class BestRound:
    """The group's best round up to this game, played in it: who, how many points, which round."""

    name: str
    points: int
    round: int


@dataclass(frozen=True, slots=True)
class FamilyNote:
    """One line of a group's history for one of its games."""

    wins: tuple[YearWin, ...]
    best: BestRound | None


def _won_by(played: PlayedGame) -> frozenset[str]:
    """The name keys of the game's winners (T1 compares names by key)."""
    winners = set(played.game.winners)
    return frozenset(
        k for k, p in zip(played.keys, played.game.players, strict=True) if p in winners
    )


def family_note(games: Iterable[PlayedGame], game_id: str) -> FamilyNote | None:
    """The history line of *game_id* among a group's *games*, or None (not there, not won).

    A win counts for every winner of a shared victory (T5), as in
    :func:`~ligretto.tafel.stats.member_stats`. The best round is the
    highest points (R5) of one seat in one complete round; the game holds
    it when no earlier game had as many (the first to reach a record keeps
    it) and it is the game's own best; the group's first game holds none.
    """
    ordered = chronological(games)
    index = next((i for i, g in enumerate(ordered) if g.id == game_id), None)
    if index is None:
        return None
    this = ordered[index]
    won = _won_by(this)
    if not won:
        return None
    year = this.played_at.year
    counts = dict.fromkeys(won, 0)
    earlier_best: int | None = None
    for played in ordered[: index + 1]:
        if played.played_at.year == year and played.game.finished:
            for key in _won_by(played) & won:
                counts[key] += 1
        if played is this:
            continue
        for rnd in played.game.rounds:
            points = rnd.points
            if points is not None and (earlier_best is None or max(points) > earlier_best):
                earlier_best = max(points)
    wins = tuple(
        YearWin(name, counts[key], year)
        for key, name in zip(this.keys, this.game.players, strict=True)
        if key in won
    )
    best: BestRound | None = None
    for rnd in this.game.rounds:
        points = rnd.points
        if points is None or earlier_best is None:
            continue  # the group's first game sets no record: there is nothing to beat
        seat = max(range(len(points)), key=lambda s: (points[s], -s))
        if points[seat] > earlier_best and (best is None or points[seat] > best.points):
            best = BestRound(this.game.players[seat], points[seat], rnd.number)
    return FamilyNote(wins, best)
