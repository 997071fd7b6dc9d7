"""The family table: who wins most in a season, in words a family uses (no I/O).

Wins first, then the win rate, then second and third places, with each
member's form ("won 3 of the last 5", :func:`~ligretto.tafel.stats.recent_form`).
Counts finished games only (T4/T5); a shared victory is a win for each
winner (T5). The statistician's numbers (rating, intervals) are in
:mod:`ligretto.tafel.stats` and :mod:`ligretto.tafel.ratings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ligretto.tafel.names import name_key
from ligretto.tafel.stats import Form, PlayedGame, Season, chronological, recent_form, select

__all__ = ["FamilyRow", "FamilyTable", "family_table"]


@dataclass(frozen=True, slots=True)
class FamilyRow:
    """One member's line of the family table: wins first, in words a family uses."""

    place: int
    """1 for the most wins; members level on every count share a place."""
    name: str
    games: int
    wins: int
    shared_wins: int
    seconds: int
    """Finished games ended in second place (ties share a rank, T6)."""
    thirds: int
    form: Form
    longest_streak: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


@dataclass(frozen=True, slots=True)
class FamilyTable:
    """Who wins most in a season: the members who finished a game, most wins first."""

    season: Season | None
    rows: tuple[FamilyRow, ...]
    games: int
    """Finished games of the season."""

    @property
    def leaders(self) -> tuple[FamilyRow, ...]:
        """The members in first place, when they won anything at all."""
        return tuple(r for r in self.rows if r.place == 1 and r.wins)


def family_table(
    games: Iterable[PlayedGame], members: Sequence[str], season: Season | None = None
) -> FamilyTable:
    """The season's table by wins (all games when *season* is None).

    Counts finished games only (T4/T5): a shared victory is a win for each
    winner (T5), second and third places follow the game's ranks (T6).
    Order: most wins; then the higher win rate (the same wins from fewer
    games); then more second places, then more third places. Members equal
    on all four share a place and are listed by name.
    """
    names = {name_key(m): m for m in members}
    tally: dict[str, list[int]] = {}  # games, wins, shared, seconds, thirds, streak, longest
    results: dict[str, list[bool]] = {}
    finished = 0
    for played in chronological(select(games, season=season)):
        game = played.game
        if not game.finished:
            continue
        finished += 1
        ranks = game.ranks
        shared = sum(1 for r in ranks if r == 1) > 1
        for key, rank in zip(played.keys, ranks, strict=True):
            if key not in names:
                continue
            row = tally.setdefault(key, [0, 0, 0, 0, 0, 0, 0])
            won = rank == 1
            row[0] += 1
            row[1] += won
            row[2] += won and shared
            row[3] += rank == 2
            row[4] += rank == 3
            row[5] = row[5] + 1 if won else 0
            row[6] = max(row[6], row[5])
            results.setdefault(key, []).append(won)

    def strength(key: str) -> tuple[int, float, int, int]:
        g, w, _, second, third, _, _ = tally[key]
        return (-w, -w / g, -second, -third)

    order = sorted(tally, key=lambda k: (strength(k), names[k].casefold(), names[k]))
    rows: list[FamilyRow] = []
    for position, key in enumerate(order, start=1):
        g, w, s, second, third, _, longest = tally[key]
        place = position
        if rows and strength(key) == strength(name_key(rows[-1].name)):
            place = rows[-1].place  # level on every count: the same place
        form = recent_form(results[key])
        rows.append(FamilyRow(place, names[key], g, w, s, second, third, form, longest))
    return FamilyTable(season, tuple(rows), finished)
