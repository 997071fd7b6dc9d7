"""What a simulation run found: per-round records and their summary.

A :class:`RoundRecord` is everything the statistics need from one simulated
round; a :class:`GameRecord` the same for a whole game on the Tafel
(T4/T5). :func:`summarize` turns records into a :class:`SimReport` — per
seat: win rate, mean points with a 95 % confidence interval, Ligretto Stop
rate, deadlock rate (natural deadlocks only), round length (actions and virtual seconds; every seat
plays the same rounds, so these two equal the run's) next to the seat's own
actions, races won and lost — plus paired significance tests between the
different bots at the table.
Summaries depend only on the records in index order, so they are identical
however the rounds were spread over workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ligretto.estimates import (
    Comparison,
    MeanEstimate,
    Proportion,
    estimate_mean,
    estimate_proportion,
    paired_comparison,
)
from ligretto.rules import Termination

__all__ = [
    "BotComparison",
    "GameRecord",
    "GameSummary",
    "RoundRecord",
    "SeatSummary",
    "SimReport",
    "summarize",
]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """The outcome of one simulated round (R4/R5) and how it went.

    ``termination`` says how the round ended (``None`` when it ``stalled``:
    it hit the simulator's safety limits before it ended). ``stuck`` counts
    how often the stall guard settled the round (R4, ``Round.settle_stuck``:
    no card to the middle for a long time); ``stuck_ended`` says that the
    last of them ended it (``termination`` is then ``DEADLOCK``, but it is
    no natural deadlock).

    ``races_lost[s]`` counts seat ``s``'s moves refused because a faster
    seat took the pile first (R3); ``races_won[s]`` counts the moves of seat
    ``s`` that made such a later move fail. ``refused[s]`` counts any other
    refusal — a bot that chose an action that was illegal when it chose it;
    correct bots never have one.
    """

    index: int
    seed: int
    points: tuple[int, ...]
    middle: tuple[int, ...]
    stack: tuple[int, ...]
    caller: int | None
    termination: Termination | None
    stalled: bool
    actions: tuple[int, ...]
    seconds: float
    races_won: tuple[int, ...]
    races_lost: tuple[int, ...]
    refused: tuple[int, ...]
    stuck: int = 0
    stuck_ended: bool = False

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the most points in this round (ties share the win)."""
        top = max(self.points)
        return tuple(s for s, p in enumerate(self.points) if p == top)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One whole simulated game on the Tafel, ended by its T4/T5 outcome."""

    index: int
    seed: int
    rounds: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """Results of one seat (one strategy at one level) over a run."""

    seat: int
    bot: str
    round_wins: Proportion
    points: MeanEstimate
    stops: Proportion
    stack_left: float
    middle: float
    races_won: int
    races_lost: int
    refused: int
    deadlocks: Proportion
    round_actions: MeanEstimate
    round_seconds: MeanEstimate
    own_actions: MeanEstimate
    game_wins: Proportion | None = None

    def to_dict(self) -> dict[str, Any]:
        strategy, _, level = self.bot.partition(":")
        result: dict[str, Any] = {
            "seat": self.seat,
            "bot": self.bot,
            "strategy": strategy,
            "level": level,
            "round_win_rate": self.round_wins.to_dict(),
            "points_per_round": self.points.to_dict(),
            "stop_rate": self.stops.to_dict(),
            "mean_stack_left": self.stack_left,
            "mean_middle": self.middle,
            "races_won": self.races_won,
            "races_lost": self.races_lost,
            "refused": self.refused,
            "deadlock_rate": self.deadlocks.to_dict(),
            "round_actions": self.round_actions.to_dict(),
            "round_seconds": self.round_seconds.to_dict(),
            "own_actions_per_round": self.own_actions.to_dict(),
        }
        if self.game_wins is not None:
            result["game_win_rate"] = self.game_wins.to_dict()
        return result


@dataclass(frozen=True, slots=True)
class BotComparison:
    """Paired test of two different bots' points per round (mean of a − b)."""

    a: str
    b: str
    result: Comparison

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, **self.result.to_dict()}


@dataclass(frozen=True, slots=True)
class GameSummary:
    """Whole games: how long they took and who won them."""

    games: int
    rounds_per_game: MeanEstimate
    mode: str
    target: int | None
    agreed_rounds: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "mode": self.mode,
            "target": self.target,
            "agreed_rounds": self.agreed_rounds,
            "rounds_per_game": self.rounds_per_game.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class SimReport:
    """The summary of a run: per seat, per run, and bot-against-bot tests."""

    rounds: int
    seats: tuple[SeatSummary, ...]
    stop_rate: Proportion
    deadlock_rate: Proportion
    stalled: int
    actions_per_round: MeanEstimate
    seconds_per_round: MeanEstimate
    comparisons: tuple[BotComparison, ...]
    games: GameSummary | None = field(default=None)
    #: rounds the stall guard settled (R4 "we're stuck"): ended, or reshuffled
    #: and played on; counted apart from natural deadlocks (``deadlock_rate``)
    stuck: int = 0

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "rounds": self.rounds,
            "stop_rate": self.stop_rate.to_dict(),
            "deadlock_rate": self.deadlock_rate.to_dict(),
            "stuck": self.stuck,
            "stalled": self.stalled,
            "actions_per_round": self.actions_per_round.to_dict(),
            "seconds_per_round": self.seconds_per_round.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
            "comparisons": [c.to_dict() for c in self.comparisons],
        }
        if self.games is not None:
            result["games"] = self.games.to_dict()
        return result


def _shared_wins(winner_sets: Sequence[tuple[int, ...]], seats: int) -> list[float]:
    """Win counts per seat; a win shared by k seats counts 1/k for each."""
    wins = [0.0] * seats
    for winners in winner_sets:
        share = 1.0 / len(winners)
        for s in winners:
            wins[s] += share
    return wins


def summarize(
    bots: Sequence[str],
    records: Sequence[RoundRecord],
    games: Sequence[GameRecord] | None = None,
    *,
    mode: str = "target",
    target: int | None = None,
    agreed_rounds: int | None = None,
) -> SimReport:
    """Summarize ``records`` (and ``games``, when whole games were played).

    ``bots`` names the bot at each seat (``"stack-first:hard"``). With games,
    the round statistics cover every round of every game.
    """
    if games is not None:
        records = [r for g in games for r in g.rounds]
    if not records:
        raise ValueError("no rounds to summarize")
    n_seats = len(bots)
    n = len(records)
    round_wins = _shared_wins([r.winners for r in records], n_seats)
    game_wins = _shared_wins([g.winners for g in games], n_seats) if games else [math.nan] * n_seats
    # natural deadlocks only: a round the stall guard ended is counted as stuck
    deadlocks = estimate_proportion(
        sum(r.termination is Termination.DEADLOCK and not r.stuck_ended for r in records), n
    )
    round_actions = estimate_mean([float(sum(r.actions)) for r in records])
    round_seconds = estimate_mean([r.seconds for r in records])
    seats = []
    for s, bot in enumerate(bots):
        seats.append(
            SeatSummary(
                seat=s,
                bot=bot,
                round_wins=estimate_proportion(round_wins[s], n),
                points=estimate_mean([r.points[s] for r in records]),
                stops=estimate_proportion(sum(r.caller == s for r in records), n),
                stack_left=math.fsum(r.stack[s] for r in records) / n,
                middle=math.fsum(r.middle[s] for r in records) / n,
                races_won=sum(r.races_won[s] for r in records),
                races_lost=sum(r.races_lost[s] for r in records),
                refused=sum(r.refused[s] for r in records),
                deadlocks=deadlocks,
                round_actions=round_actions,
                round_seconds=round_seconds,
                own_actions=estimate_mean([float(r.actions[s]) for r in records]),
                game_wins=estimate_proportion(game_wins[s], len(games)) if games else None,
            )
        )
    game_summary = None
    if games:
        game_summary = GameSummary(
            games=len(games),
            rounds_per_game=estimate_mean([float(len(g.rounds)) for g in games]),
            mode=mode,
            target=target,
            agreed_rounds=agreed_rounds,
        )
    return SimReport(
        rounds=n,
        seats=tuple(seats),
        stop_rate=estimate_proportion(sum(r.termination is Termination.STOP for r in records), n),
        deadlock_rate=deadlocks,
        stalled=sum(r.stalled for r in records),
        stuck=sum(r.stuck > 0 for r in records),
        actions_per_round=round_actions,
        seconds_per_round=round_seconds,
        comparisons=tuple(_compare_bots(bots, records)),
        games=game_summary,
    )


def _compare_bots(bots: Sequence[str], records: Sequence[RoundRecord]) -> list[BotComparison]:
    """Paired t-tests between every two different bots at the table.

    A bot that sits at several seats is represented per round by the mean of
    its seats' points, so that the pairs stay one per round.
    """
    labels = list(dict.fromkeys(bots))
    if len(labels) < 2 or len(records) < 2:
        return []
    seats_of = {label: [s for s, b in enumerate(bots) if b == label] for label in labels}
    per_round = {
        label: [math.fsum(r.points[s] for s in seats) / len(seats) for r in records]
        for label, seats in seats_of.items()
    }
    comparisons = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            comparisons.append(BotComparison(a, b, paired_comparison(per_round[a], per_round[b])))
    return comparisons
