"""Run many rounds or games, on one or several processes or a Dask cluster, and summarize them.

Round ``i`` of a run with master seed ``s`` is dealt and played with
``derive_seed(s, i)``; game ``g`` with ``derive_seed(s, GAMES, g)``. Nothing
else feeds a round, so the records — and the summary computed from them in
index order — are the same with 1 worker or N.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ligretto.bots import Bot, BotSpec, make_bot
from ligretto.rules import RuleOptions
from ligretto.sim.engine import RoundLimits, simulate_round
from ligretto.sim.game import KeepGoing, simulate_game
from ligretto.sim.report import GameRecord, RoundRecord, SimReport
from ligretto.sim.seeds import derive_seed
from ligretto.sim.summary import summarize
from ligretto.simulate.pool import chunked, run_chunks
from ligretto.tafel import Mode

__all__ = [
    "GAMES",
    "GameSettings",
    "SimConfig",
    "game_jobs",
    "play_game",
    "play_games",
    "play_round",
    "play_rounds",
    "round_jobs",
    "run_games",
    "run_rounds",
    "simulate",
    "summarize_games",
]

#: Seed path component that separates game seeds from round seeds.
GAMES = 0x6A3E
ROUND_CHUNK = 100
GAME_CHUNK = 4

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class GameSettings:
    """How whole games end: at a target (T4) or after agreed rounds (T5)."""

    mode: Mode = Mode.TARGET
    target: int | None = None
    agreed_rounds: int | None = None


@dataclass(frozen=True, slots=True)
class SimConfig:
    """Who plays (one bot per seat), under which rules, from which seed."""

    bots: tuple[BotSpec, ...]
    seed: int = 1
    options: RuleOptions = field(default_factory=RuleOptions)
    limits: RoundLimits = field(default_factory=RoundLimits)

    def __post_init__(self) -> None:
        self.options.check_players(len(self.bots))

    @classmethod
    def from_names(
        cls, bots: Sequence[str], seed: int = 1, options: RuleOptions | None = None
    ) -> SimConfig:
        """``SimConfig.from_names(["stack-first:hard", "mine:hard"], seed=1)``."""
        return cls(tuple(BotSpec.parse(b) for b in bots), seed, options or RuleOptions())

    @property
    def labels(self) -> list[str]:
        return [str(spec) for spec in self.bots]

    def make_bots(self) -> list[Bot]:
        return [make_bot(spec) for spec in self.bots]


def play_round(config: SimConfig, bots: Sequence[Bot], index: int) -> RoundRecord:
    """Round ``index`` of a run: dealt and played with ``derive_seed(seed, index)``."""
    return simulate_round(
        bots, derive_seed(config.seed, index), config.options, index=index, limits=config.limits
    )


def play_game(
    config: SimConfig,
    settings: GameSettings,
    bots: Sequence[Bot],
    index: int,
    keep_going: KeepGoing | None = None,
) -> GameRecord:
    """Game ``index`` of a run, from ``derive_seed(seed, GAMES, index)`` (T4/T5)."""
    return simulate_game(
        bots,
        derive_seed(config.seed, GAMES, index),
        config.options,
        index=index,
        mode=settings.mode,
        target=settings.target,
        agreed_rounds=settings.agreed_rounds,
        limits=config.limits,
        keep_going=keep_going,
    )


def play_rounds(job: tuple[SimConfig, range]) -> list[RoundRecord]:
    """One chunk of rounds (picklable: a worker process runs it)."""
    config, indices = job
    bots = config.make_bots()
    return [play_round(config, bots, i) for i in indices]


def play_games(job: tuple[SimConfig, GameSettings, range]) -> list[GameRecord]:
    """One chunk of whole games (picklable: a worker process runs it)."""
    config, settings, indices = job
    bots = config.make_bots()
    return [play_game(config, settings, bots, g) for g in indices]


def round_jobs(config: SimConfig, rounds: int) -> list[tuple[SimConfig, range]]:
    """The chunks of a run of ``rounds`` rounds for :func:`play_rounds`, in order.

    Cut the same way for every caller (the command, the lab), so the
    records are the same whoever runs them and on how many processes.
    """
    return [(config, chunk) for chunk in chunked(rounds, ROUND_CHUNK)]


def game_jobs(
    config: SimConfig, games: int, settings: GameSettings
) -> list[tuple[SimConfig, GameSettings, range]]:
    """The chunks of a run of ``games`` whole games for :func:`play_games`, in order."""
    return [(config, settings, chunk) for chunk in chunked(games, GAME_CHUNK)]


def run_rounds(
    config: SimConfig,
    rounds: int,
    *,
    workers: int = 1,
    on_progress: Progress | None = None,
    cluster: str | None = None,
) -> list[RoundRecord]:
    """Simulate rounds ``0 … rounds-1``; records in index order."""
    jobs = round_jobs(config, rounds)
    parts = run_chunks(play_rounds, jobs, workers, on_progress, cluster)
    return [r for part in parts for r in part]


def run_games(
    config: SimConfig,
    games: int,
    settings: GameSettings | None = None,
    *,
    workers: int = 1,
    on_progress: Progress | None = None,
    cluster: str | None = None,
) -> list[GameRecord]:
    """Simulate whole games ``0 … games-1`` (T4/T5 on the Tafel); in index order."""
    settings = settings or GameSettings()
    jobs = game_jobs(config, games, settings)
    parts = run_chunks(play_games, jobs, workers, on_progress, cluster)
    return [g for part in parts for g in part]


def simulate(
    config: SimConfig,
    *,
    rounds: int = 0,
    games: int = 0,
    settings: GameSettings | None = None,
    workers: int = 1,
    on_progress: Progress | None = None,
    cluster: str | None = None,
) -> SimReport:
    """Run ``rounds`` single rounds, or ``games`` whole games, and summarize.

    ``workers`` local processes, or the Dask cluster whose scheduler is at
    ``cluster``: the same report for the same seed either way.

    >>> report = simulate(SimConfig.from_names(["stack-first:hard", "random:easy"]), rounds=20)
    >>> report.rounds, [s.bot for s in report.seats]
    (20, ['stack-first:hard', 'random:easy'])
    """
    if (rounds > 0) == (games > 0):
        raise ValueError("give either a number of rounds or a number of games")
    if games:
        settings = settings or GameSettings()
        played = run_games(
            config, games, settings, workers=workers, on_progress=on_progress, cluster=cluster
        )
        return summarize_games(config, settings, played)
    return summarize(
        config.labels,
        run_rounds(config, rounds, workers=workers, on_progress=on_progress, cluster=cluster),
    )


def summarize_games(
    config: SimConfig, settings: GameSettings, games: Sequence[GameRecord]
) -> SimReport:
    """The report of whole games, as :func:`simulate` makes it."""
    return summarize(
        config.labels,
        [],
        games,
        mode=settings.mode.value,
        target=settings.target,
        agreed_rounds=settings.agreed_rounds,
    )
