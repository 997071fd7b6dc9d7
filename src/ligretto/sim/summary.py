"""A run's summary built one record at a time: memory per seat, not per round.

:class:`ReportBuilder` takes the records of a run in index order —
:meth:`~ReportBuilder.add_round` for single rounds,
:meth:`~ReportBuilder.add_game` for whole games (T4/T5) — and keeps only
counts and exact sums (``ligretto.estimates.RunningMean``), so a run of a
million rounds costs what a run of ten does. :func:`summarize` is the same
for records already in a list: the command, the lab and the tests share
this one way of counting.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ligretto.estimates import RunningMean, compare, estimate_proportion
from ligretto.rules import Termination
from ligretto.rules.result import STACK_PENALTY
from ligretto.rules.result import points as r5_points
from ligretto.sim.report import (
    BotComparison,
    GameRecord,
    GameSummary,
    LowestRow,
    RoundRecord,
    SeatSummary,
    SimReport,
)

__all__ = ["ReportBuilder", "summarize"]


class _Pair:
    """Two different bots' points per round, paired by round (mean of a − b).

    A bot at several seats counts per round as the mean of its seats; the
    difference ``sum_a / k_a − sum_b / k_b`` is kept as the whole number
    ``k_b · sum_a − k_a · sum_b`` over the scale ``k_a · k_b``, exactly.
    """

    __slots__ = ("a", "a_seats", "b", "b_seats", "difference")

    def __init__(self, a: str, a_seats: list[int], b: str, b_seats: list[int]) -> None:
        self.a, self.a_seats, self.b, self.b_seats = a, a_seats, b, b_seats
        self.difference = RunningMean(scale=len(a_seats) * len(b_seats))

    def add(self, points: tuple[int, ...]) -> None:
        sum_a = sum(points[s] for s in self.a_seats)
        sum_b = sum(points[s] for s in self.b_seats)
        self.difference.add(len(self.b_seats) * sum_a - len(self.a_seats) * sum_b)


class ReportBuilder:
    """The summary of a run, from its records added in index order."""

    def __init__(
        self,
        bots: Sequence[str],
        *,
        speeds: Sequence[float] = (),
        overlook: Sequence[float] = (),
        shuffles: Sequence[str] = (),
        stack_penalty: int = STACK_PENALTY,
    ) -> None:
        self.bots = list(bots)
        seats = len(self.bots)
        self.speeds = list(speeds) or [1.0] * seats
        self.overlook = list(overlook) or [0.0] * seats
        self.shuffles = list(shuffles) or ["uniform"] * seats
        # Under another stack penalty, the round wins R5 would have given too.
        self.r5_wins: list[float] | None = [0.0] * seats if stack_penalty != STACK_PENALTY else None
        self.reshuffles = RunningMean()
        self.low_rounds = 0
        self.low_wins = 0.0
        self.low_edge = RunningMean(scale=max(1, seats - 1))
        self.rounds = 0
        self.games = 0
        self.round_wins = [0.0] * seats
        self.game_wins = [0.0] * seats
        self.points = [RunningMean() for _ in range(seats)]
        self.own_actions = [RunningMean() for _ in range(seats)]
        self.stops = [0] * seats
        self.stack_total = [0] * seats
        self.middle_total = [0] * seats
        self.races_won = [0] * seats
        self.races_lost = [0] * seats
        self.refused = [0] * seats
        self.stack_left: list[list[int]] = [[0] for _ in range(seats)]
        self.round_actions = RunningMean()
        self.round_seconds = RunningMean()
        self.rounds_per_game = RunningMean()
        self.ligretto_stops = 0
        self.deadlocks = 0
        self.stalled = 0
        self.stuck = 0
        labels = list(dict.fromkeys(self.bots))
        seats_of = {label: [s for s, b in enumerate(self.bots) if b == label] for label in labels}
        self.pairs = [_Pair(a, seats_of[a], b, seats_of[b]) for a, b in combinations(labels, 2)]

    def add_round(self, record: RoundRecord) -> None:
        """Count one round (of a run of single rounds, or of a game)."""
        self.rounds += 1
        share = 1.0 / len(record.winners)
        for s in record.winners:
            self.round_wins[s] += share  # a win shared by k seats counts 1/k for each
        for s, points in enumerate(record.points):
            self.points[s].add(points)
            self.own_actions[s].add(record.actions[s])
            left = record.stack[s]
            self.stack_total[s] += left
            counts = self.stack_left[s]
            if left >= len(counts):
                counts.extend([0] * (left + 1 - len(counts)))
            counts[left] += 1
            self.middle_total[s] += record.middle[s]
            self.races_won[s] += record.races_won[s]
            self.races_lost[s] += record.races_lost[s]
            self.refused[s] += record.refused[s]
        if record.caller is not None:
            self.stops[record.caller] += 1
        self.round_actions.add(sum(record.actions))
        self.round_seconds.add(record.seconds)
        if record.termination is Termination.STOP:
            self.ligretto_stops += 1
        # natural deadlocks only: a round the stall guard ended is counted as stuck
        if record.termination is Termination.DEADLOCK and not record.stuck_ended:
            self.deadlocks += 1
        self.stalled += record.stalled
        self.stuck += record.stuck > 0
        for pair in self.pairs:
            pair.add(record.points)
        self.reshuffles.add(record.reshuffles)
        if self.r5_wins is not None:
            r5 = [r5_points(m, s) for m, s in zip(record.middle, record.stack, strict=True)]
            top = max(r5)
            tied = r5.count(top)
            for s, p in enumerate(r5):
                if p == top:
                    self.r5_wins[s] += 1.0 / tied
        self._lowest_row(record, share)

    def _lowest_row(self, record: RoundRecord, share: float) -> None:
        """The seat alone with the lowest row sum at the deal: its win and its edge."""
        sums = record.row_sums
        if len(sums) < 2:
            return
        low = min(sums)
        if sums.count(low) != 1:
            return
        seat = sums.index(low)
        self.low_rounds += 1
        if seat in record.winners:
            self.low_wins += share
        others = sum(record.points) - record.points[seat]
        # (n − 1)·p − Σ others over the scale n − 1: its points minus the others' mean
        self.low_edge.add((len(sums) - 1) * record.points[seat] - others)

    def add_game(self, game: GameRecord) -> None:
        """Count one whole game and every round of it."""
        self.games += 1
        share = 1.0 / len(game.winners)
        for s in game.winners:
            self.game_wins[s] += share
        self.rounds_per_game.add(len(game.rounds))
        for record in game.rounds:
            self.add_round(record)

    def stack_counts(self) -> list[list[int]]:
        """Per seat: how many rounds ended with 0, 1, 2 … cards left in its stack (R5)."""
        most = max(len(counts) for counts in self.stack_left)
        return [counts + [0] * (most - len(counts)) for counts in self.stack_left]

    def report(
        self, *, mode: str = "target", target: int | None = None, agreed_rounds: int | None = None
    ) -> SimReport:
        """The summary so far (``mode``, ``target`` and ``agreed_rounds`` describe games)."""
        n = self.rounds
        if n == 0:
            raise ValueError("no rounds to summarize")
        games = self.games
        deadlocks = estimate_proportion(self.deadlocks, n)
        round_actions = self.round_actions.estimate()
        round_seconds = self.round_seconds.estimate()
        seats = tuple(
            SeatSummary(
                seat=s,
                bot=bot,
                round_wins=estimate_proportion(self.round_wins[s], n),
                points=self.points[s].estimate(),
                stops=estimate_proportion(self.stops[s], n),
                stack_left=self.stack_total[s] / n,
                middle=self.middle_total[s] / n,
                races_won=self.races_won[s],
                races_lost=self.races_lost[s],
                refused=self.refused[s],
                deadlocks=deadlocks,
                round_actions=round_actions,
                round_seconds=round_seconds,
                own_actions=self.own_actions[s].estimate(),
                game_wins=estimate_proportion(self.game_wins[s], games) if games else None,
                speed=self.speeds[s],
                overlook=self.overlook[s],
                shuffle=self.shuffles[s],
                r5_round_wins=(
                    estimate_proportion(self.r5_wins[s], n) if self.r5_wins is not None else None
                ),
            )
            for s, bot in enumerate(self.bots)
        )
        comparisons = (
            tuple(BotComparison(p.a, p.b, compare(p.difference.estimate())) for p in self.pairs)
            if n >= 2
            else ()
        )
        game_summary = None
        if games:
            game_summary = GameSummary(
                games=games,
                rounds_per_game=self.rounds_per_game.estimate(),
                mode=mode,
                target=target,
                agreed_rounds=agreed_rounds,
            )
        return SimReport(
            rounds=n,
            seats=seats,
            stop_rate=estimate_proportion(self.ligretto_stops, n),
            deadlock_rate=deadlocks,
            stalled=self.stalled,
            stuck=self.stuck,
            actions_per_round=round_actions,
            seconds_per_round=round_seconds,
            comparisons=comparisons,
            games=game_summary,
            reshuffles=self.reshuffles.estimate(),
            lowest_row=self._lowest_row_summary(),
        )

    def _lowest_row_summary(self) -> LowestRow | None:
        if not self.low_rounds:
            return None
        edge = self.low_edge.estimate() if self.low_edge.n >= 2 else None
        return LowestRow(
            rounds=self.low_rounds,
            wins=estimate_proportion(self.low_wins, self.low_rounds),
            fair=1 / len(self.bots),
            points_edge=edge,
        )


def summarize(
    bots: Sequence[str],
    records: Sequence[RoundRecord],
    games: Sequence[GameRecord] | None = None,
    *,
    mode: str = "target",
    target: int | None = None,
    agreed_rounds: int | None = None,
) -> SimReport:
    """Summarize ``records`` (or ``games``, when whole games were played).

    ``bots`` names the bot at each seat (``"stack-first:hard"``). With games,
    the round statistics cover every round of every game.
    """
    builder = ReportBuilder(bots)
    if games is not None:
        for game in games:
            builder.add_game(game)
    else:
        for record in records:
            builder.add_round(record)
    return builder.report(mode=mode, target=target, agreed_rounds=agreed_rounds)
