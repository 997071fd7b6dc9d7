"""Ratings and the league table of a group (no I/O).

The rating is OpenSkill's Plackett–Luce model (Weng–Lin, the ``openskill``
package): a Bayesian multiplayer rating that learns from the whole ranking
of a game, so beating strong opponents counts more than beating weak ones,
and a game of eight says more than a game of two. Each member's skill is a
belief ``mu`` with an uncertainty ``sigma``; the league ranks by the
conservative rating ``mu − 3·sigma`` (OpenSkill's *ordinal*): a member is
placed where they are almost surely at least as good, so one lucky evening
does not top the table.

Each finished game (T4/T5) is one match, oldest first; its ranking is the
game's own (ties share a rank, T6). Unfinished games do not count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from ligretto.tafel.names import name_key
from ligretto.tafel.stats import PlayedGame, Season, chronological, select

__all__ = [
    "League",
    "LeagueRow",
    "Rating",
    "RatingMemo",
    "RatingStep",
    "chance_to_beat",
    "league",
    "rate",
    "rate_against",
]

_MODEL = PlackettLuce()
UNCERTAINTY = 3.0
"""How many sigmas the conservative rating stays below the belief (``mu − 3·sigma``)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's skill: the belief ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu − 3·sigma``: what the league ranks by."""
        return self.mu - UNCERTAINTY * self.sigma


INITIAL = Rating(_MODEL.mu, _MODEL.sigma)
"""Where every member starts (OpenSkill's defaults: 25 ± 8.33)."""


def rate_against(player: Rating, ranks: Sequence[int], others: Sequence[Rating]) -> Rating:
    """*player*'s rating after one finished game against *others*, whose ratings stay.

    The same update as a group's game (Plackett–Luce over the game's whole
    ranking, T6): ``ranks`` holds the player's place first, then each
    other's, ties sharing a place.  Only the player learns: the others are
    players whose strength is known already (the calibrated bots).
    """
    if len(ranks) != len(others) + 1 or not others:
        raise ValueError("one place for the player and one for each of at least one other")
    teams = [[_MODEL.rating(player.mu, player.sigma)]]
    teams += [[_MODEL.rating(o.mu, o.sigma)] for o in others]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])[0][0]
    return Rating(after.mu, after.sigma)


def chance_to_beat(player: Rating, other: Rating) -> float:
    """The model's chance that *player* finishes ahead of *other* in a game of the two."""
    first, _ = _MODEL.predict_win(
        [[_MODEL.rating(player.mu, player.sigma)], [_MODEL.rating(other.mu, other.sigma)]]
    )
    return float(first)


@dataclass(frozen=True, slots=True)
class RatingStep:
    """The ratings of one game's members right after it."""

    game_id: str
    ratings: dict[str, Rating]
    """By member name (as the group spells it)."""


@dataclass(slots=True)
class RatingMemo:
    """What :func:`rate` computed last time, to continue from the first changed game.

    Ratings go game after game, so when only the newest games changed (the
    usual case: a round entered or corrected tonight), the ratings after
    the unchanged older games are taken from here instead of rating the
    whole history again. Pure memory; the caller keeps one per group.
    """

    members: tuple[str, ...] = ()
    signatures: list[tuple[object, ...]] = field(default_factory=list)
    states: list[dict[str, tuple[float, float]]] = field(default_factory=list)
    """The ratings (mu, sigma) by member key after each rated game."""
    steps: list[RatingStep] = field(default_factory=list)


def rate(
    games: Iterable[PlayedGame], members: Sequence[str], memo: RatingMemo | None = None
) -> tuple[dict[str, Rating], list[RatingStep]]:
    """Every member's rating after the finished *games*, and the rating after each game.

    Only seats that are members are rated; a game with fewer than two of
    them says nothing about anyone and is left out. With a *memo*, games
    up to the first one that differs from last time are not rated again.
    """
    names = {name_key(m): m for m in members}
    rated: list[tuple[PlayedGame, list[tuple[str, int]]]] = []
    for played in chronological(games):
        game = played.game
        if not game.finished:
            continue
        seats = [(k, r) for k, r in zip(played.keys, game.ranks, strict=True) if k in names]
        if len(seats) >= 2:
            rated.append((played, seats))
    memo = memo if memo is not None else RatingMemo()
    if memo.members != tuple(members):
        memo.members, memo.signatures, memo.states, memo.steps = tuple(members), [], [], []
    signatures = [(p.id, tuple(seats)) for p, seats in rated]
    same = 0
    for old, new in zip(memo.signatures, signatures, strict=False):
        if old != new:
            break
        same += 1
    del memo.signatures[same:], memo.states[same:], memo.steps[same:]
    current: dict[str, tuple[float, float]] = dict(memo.states[-1]) if memo.states else {}
    for (played, seats), signature in zip(rated[same:], signatures[same:], strict=True):
        teams = [
            [_MODEL.rating(*current[k]) if k in current else _MODEL.rating()] for k, _ in seats
        ]
        result = _MODEL.rate(teams, ranks=[float(r) for _, r in seats])
        after: dict[str, Rating] = {}
        for (key, _), team in zip(seats, result, strict=True):
            current[key] = (team[0].mu, team[0].sigma)
            after[names[key]] = Rating(team[0].mu, team[0].sigma)
        memo.signatures.append(signature)
        memo.states.append(dict(current))
        memo.steps.append(RatingStep(played.id, after))
    final = {names[k]: Rating(mu, sigma) for k, (mu, sigma) in current.items()}
    return final, list(memo.steps)


@dataclass(frozen=True, slots=True)
class LeagueRow:
    """One member's line in the league table."""

    rank: int
    name: str
    rating: Rating
    games: int
    wins: int
    shared_wins: int
    points: int
    rounds: int

    @property
    def points_per_round(self) -> float | None:
        return self.points / self.rounds if self.rounds else None


@dataclass(frozen=True, slots=True)
class League:
    """A season's league table, best first, and the ratings after each game."""

    season: Season | None
    rows: tuple[LeagueRow, ...]
    steps: tuple[RatingStep, ...]
    games: int


def league(
    games: Iterable[PlayedGame],
    members: Sequence[str],
    season: Season | None = None,
    memo: RatingMemo | None = None,
) -> League:
    """The league of *season* (all games when None): rated from the season's games only.

    *memo* (one per group and season) lets :func:`rate` continue from the
    first changed game.
    """
    chosen = select(games, season=season)
    final, steps = rate(chosen, members, memo)
    names = {name_key(m): m for m in members}
    tally = {m: [0, 0, 0, 0, 0] for m in final}  # games, wins, shared, points, rounds
    finished = 0
    for played in chosen:
        game = played.game
        keys = played.keys
        for rnd in game.rounds:
            points = rnd.points
            if points is None:
                continue
            for seat, key in enumerate(keys):
                if key in names and names[key] in tally:
                    tally[names[key]][3] += points[seat]
                    tally[names[key]][4] += 1
        if not game.finished:
            continue
        finished += 1
        winners = {name_key(w) for w in game.winners}
        for key in keys:
            if key in names and names[key] in tally:
                row = tally[names[key]]
                row[0] += 1
                if key in winners:
                    row[1] += 1
                    row[2] += len(winners) > 1
    order = sorted(final, key=lambda m: (-final[m].conservative, -final[m].mu, m))
    rows: list[LeagueRow] = []
    for position, name in enumerate(order, start=1):
        rating = final[name]
        rank = position
        if rows and round(rows[-1].rating.conservative, 6) == round(rating.conservative, 6):
            rank = rows[-1].rank  # equal ratings share a place
        g, w, s, p, r = tally[name]
        rows.append(LeagueRow(rank, name, rating, g, w, s, p, r))
    return League(season, tuple(rows), tuple(steps), finished)
