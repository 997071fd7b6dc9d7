"""Run many rounds or games, on one or several processes or a Dask cluster, and summarize them.

Round ``i`` of a run with master seed ``s`` is dealt and played with
``derive_seed(s, i)``; game ``g`` with ``derive_seed(s, GAMES, g)``. Nothing
else feeds a round, so the records — and the summary computed from them in
index order — are the same with 1 worker or N.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ligretto.bots import LEVELS, Bot, BotSpec, Level, make_bot
from ligretto.rules import RuleOptions
from ligretto.sim.decks import UNIFORM, ShuffleModel, round_decks
from ligretto.sim.engine import RoundLimits, simulate_round
from ligretto.sim.game import KeepGoing, simulate_game
from ligretto.sim.house import HouseRules
from ligretto.sim.report import GameRecord, RoundRecord, SimReport
from ligretto.sim.seeds import derive_seed
from ligretto.sim.summary import ReportBuilder
from ligretto.simulate.pool import chunked, run_chunks
from ligretto.tafel import Mode

__all__ = [
    "GAMES",
    "GameSettings",
    "RoundSink",
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
DECKS_NEED_GAMES = (
    "a shuffle between rounds needs whole games (--games): single rounds are "
    "each dealt fresh, with nothing to carry over"
)
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
    """Who plays (one bot per seat), under which rules, from which seed.

    Per seat, each empty for the default: ``speeds`` (times as fast as the
    seat's level, ``ReactionModel.scaled``), ``overlook`` (the chance to
    miss a card that fits, ``Inattentive``) and ``shuffles`` (how the seat
    shuffles between the rounds of a game, ``ligretto.sim.decks``);
    ``house`` holds the simulator's house rules (``ligretto.sim.house``).
    """

    bots: tuple[BotSpec, ...]
    seed: int = 1
    options: RuleOptions = field(default_factory=RuleOptions)
    limits: RoundLimits = field(default_factory=RoundLimits)
    speeds: tuple[float, ...] = ()
    overlook: tuple[float, ...] = ()
    shuffles: tuple[ShuffleModel, ...] = ()
    house: HouseRules = field(default_factory=HouseRules)

    def __post_init__(self) -> None:
        self.options.check_players(len(self.bots))
        seats = len(self.bots)
        for name, values in (
            ("speeds", self.speeds),
            ("overlook", self.overlook),
            ("shuffles", self.shuffles),
        ):
            if values and len(values) != seats:
                raise ValueError(f"{len(values)} {name} for {seats} seats")
        for speed in self.speeds:
            LEVELS[Level.MEDIUM].scaled(speed)  # refused with its reason, before any work
        for chance in self.overlook:
            if not 0 <= chance <= 1:
                raise ValueError(f"a probability of overlooking is 0 to 1, not {chance!r}")

    def speed(self, seat: int) -> float:
        return self.speeds[seat] if self.speeds else 1.0

    def overlooks(self, seat: int) -> float:
        return self.overlook[seat] if self.overlook else 0.0

    def shuffle(self, seat: int) -> ShuffleModel:
        return self.shuffles[seat] if self.shuffles else UNIFORM

    @property
    def carries_decks(self) -> bool:
        """Whether a seat's cards carry over from one round of a game to the next."""
        return any(not model.uniform for model in self.shuffles)

    @classmethod
    def from_names(
        cls, bots: Sequence[str], seed: int = 1, options: RuleOptions | None = None
    ) -> SimConfig:
        """``SimConfig.from_names(["stack-first:hard", "mine:hard"], seed=1)``."""
        return cls(tuple(BotSpec.parse(b) for b in bots), seed, options or RuleOptions())

    @property
    def labels(self) -> list[str]:
        """Each seat's bot, and its own speed, attentiveness and shuffle where
        they differ from the default (``stack-first:medium speed=1.5``): seats
        with equal labels are one bot in the report's comparisons."""
        labels = []
        for seat, spec in enumerate(self.bots):
            label = str(spec)
            if self.speed(seat) != 1:
                label += f" speed={self.speed(seat):g}"
            if self.overlooks(seat):
                label += f" overlook={self.overlooks(seat):g}"
            if not self.shuffle(seat).uniform:
                label += f" shuffle={self.shuffle(seat)}"
            labels.append(label)
        return labels

    def make_bots(self) -> list[Bot]:
        return [
            make_bot(spec, speed=self.speed(seat), overlook=self.overlooks(seat))
            for seat, spec in enumerate(self.bots)
        ]

    def builder(self) -> ReportBuilder:
        """The report's builder for this configuration's seats."""
        seats = range(len(self.bots))
        return ReportBuilder(
            self.labels,
            speeds=[self.speed(s) for s in seats],
            overlook=[self.overlooks(s) for s in seats],
            shuffles=[str(self.shuffle(s)) for s in seats],
            stack_penalty=self.house.stack_penalty,
        )


def play_round(config: SimConfig, bots: Sequence[Bot], index: int) -> RoundRecord:
    """Round ``index`` of a run: dealt and played with ``derive_seed(seed, index)``."""
    seed = derive_seed(config.seed, index)
    players = len(bots)
    return simulate_round(
        bots,
        seed,
        config.options,
        index=index,
        limits=config.limits,
        decks=round_decks(players, seed, sets=config.house.sets),
        house=config.house,
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
        house=config.house,
        shuffles=config.shuffles,
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


RoundSink = Callable[[RoundRecord, int | None], None]
"""Hears every round of a run in index order, with its game's index (``None``
for single rounds): ``ligretto simulate --records`` writes them out."""


def simulate(
    config: SimConfig,
    *,
    rounds: int = 0,
    games: int = 0,
    settings: GameSettings | None = None,
    workers: int = 1,
    on_progress: Progress | None = None,
    cluster: str | None = None,
    on_round: RoundSink | None = None,
) -> SimReport:
    """Run ``rounds`` single rounds, or ``games`` whole games, and summarize.

    ``workers`` local processes, or the Dask cluster whose scheduler is at
    ``cluster``: the same report for the same seed either way. Records are
    counted as their chunks come back and dropped (``on_round`` hears each
    first), so a run's memory is its chunks in flight, not its rounds.

    >>> report = simulate(SimConfig.from_names(["stack-first:hard", "random:easy"]), rounds=20)
    >>> report.rounds, [s.bot for s in report.seats]
    (20, ['stack-first:hard', 'random:easy'])
    """
    if (rounds > 0) == (games > 0):
        raise ValueError("give either a number of rounds or a number of games")
    if rounds and config.carries_decks:
        raise ValueError(DECKS_NEED_GAMES)
    builder = config.builder()
    if games:
        settings = settings or GameSettings()
        jobs = game_jobs(config, games, settings)
        for part in run_chunks(play_games, jobs, workers, on_progress, cluster):
            for game in part:
                builder.add_game(game)
                if on_round is not None:
                    for record in game.rounds:
                        on_round(record, game.index)
        return builder.report(
            mode=settings.mode.value, target=settings.target, agreed_rounds=settings.agreed_rounds
        )
    for chunk in run_chunks(play_rounds, round_jobs(config, rounds), workers, on_progress, cluster):
        for record in chunk:
            builder.add_round(record)
            if on_round is not None:
                on_round(record, None)
    return builder.report()


def summarize_games(
    config: SimConfig, settings: GameSettings, games: Sequence[GameRecord]
) -> SimReport:
    """The report of whole games, as :func:`simulate` makes it."""
    builder = config.builder()
    for game in games:
        builder.add_game(game)
    return builder.report(
        mode=settings.mode.value, target=settings.target, agreed_rounds=settings.agreed_rounds
    )
