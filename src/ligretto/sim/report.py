"""What a simulation run found: per-round records and their summary.

A :class:`RoundRecord` is everything the statistics need from one simulated
round; a :class:`GameRecord` the same for a whole game on the Tafel
(T4/T5). :class:`SimReport` is their summary, counted by
``ligretto.sim.summary`` — per seat: win rate, mean points with a 95 %
confidence interval, Ligretto Stop rate, deadlock rate (natural deadlocks
only), round length (actions and virtual seconds; every seat plays the same
rounds, so these two equal the run's) next to the seat's own actions, races
won and lost — plus paired significance tests between the different bots at
the table, the R4 reshuffles per round and how the seat with the lowest row
at the deal fared. Summaries depend only on the records in index order, so they are
identical however the rounds were spread over workers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ligretto.estimates import Comparison, MeanEstimate, Proportion
from ligretto.rules import Termination

__all__ = [
    "BotComparison",
    "GameRecord",
    "GameSummary",
    "LowestRow",
    "RoundRecord",
    "SeatSummary",
    "SimReport",
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
    reshuffles: int = 0
    """R4 ``reshuffle``: how often every hand was reshuffled in a deadlock."""
    row_sums: tuple[int, ...] = ()
    """Per seat, the values of its row at the deal added up (R2)."""

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
    speed: float = 1.0
    """How many times as fast as its level the seat plays (1: the level's pace)."""
    overlook: float = 0.0
    """The chance that the seat does not see a card that fits, at a look."""
    shuffle: str = "uniform"
    """How the seat shuffles its cards between the rounds of a game."""
    r5_round_wins: Proportion | None = None
    """Round wins had the rounds been scored by R5 (under another stack penalty)."""

    def to_dict(self) -> dict[str, Any]:
        # the label starts with the bot; a seat's own speed and the like follow
        strategy, _, level = self.bot.split(" ")[0].partition(":")
        result: dict[str, Any] = {
            "seat": self.seat,
            "bot": self.bot,
            "strategy": strategy,
            "level": level,
            "speed": self.speed,
            "overlook": self.overlook,
            "shuffle": self.shuffle,
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
        if self.r5_round_wins is not None:
            result["r5_round_win_rate"] = self.r5_round_wins.to_dict()
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
class LowestRow:
    """The seat whose row at the deal adds up to the least (R2), against the rest.

    Counted over the rounds in which one seat alone has the lowest row sum:
    how often it wins the round (a fair share is ``1 / seats``) and its
    points minus the mean of the other seats' (paired by round).
    """

    rounds: int
    wins: Proportion
    fair: float
    points_edge: MeanEstimate | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "win_rate": self.wins.to_dict(),
            "fair_share": self.fair,
            "points_edge": None if self.points_edge is None else self.points_edge.to_dict(),
        }


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
    #: R4 ``reshuffle``: how often a round reshuffled every hand, per round
    reshuffles: MeanEstimate | None = None
    lowest_row: LowestRow | None = None

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "rounds": self.rounds,
            "stop_rate": self.stop_rate.to_dict(),
            "deadlock_rate": self.deadlock_rate.to_dict(),
            "stuck": self.stuck,
            "stalled": self.stalled,
            "reshuffles_per_round": None if self.reshuffles is None else self.reshuffles.to_dict(),
            "lowest_row": None if self.lowest_row is None else self.lowest_row.to_dict(),
            "actions_per_round": self.actions_per_round.to_dict(),
            "seconds_per_round": self.seconds_per_round.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
            "comparisons": [c.to_dict() for c in self.comparisons],
        }
        if self.games is not None:
            result["games"] = self.games.to_dict()
        return result
