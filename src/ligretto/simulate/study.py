"""A study of the strategy lab: what to simulate, its chunks, its result and its command.

A study is a ``ligretto simulate`` run described as data (:class:`StudySpec`):
the bot at each seat, rounds or whole games, the rule options and the
master seed. It is cut into the same chunks as the command
(:func:`ligretto.simulate.run.round_jobs`), each a pure function of its
inputs, so whoever runs the chunks — the lab's process pool, the command
with any ``--workers`` — gets the same records, and the summary of them in
chunk order is the command's ``--json`` report. :meth:`StudySpec.command`
is the command line that reproduces it.

Beyond the command's report the result keeps what the lab's plots need
and the report does not hold: per seat, how many rounds ended with 0, 1, 2 …
cards left in the Ligretto stack (R5 costs each of them 2 points).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ligretto.bots import BotSpec
from ligretto.rules import RuleOptions
from ligretto.sim.report import GameRecord, RoundRecord, summarize
from ligretto.simulate.command import finite_json, report_document
from ligretto.simulate.run import (
    GameSettings,
    SimConfig,
    game_jobs,
    play_games,
    play_rounds,
    round_jobs,
    summarize_games,
)
from ligretto.tafel import Mode

__all__ = [
    "QUESTIONS",
    "ROUNDS_PER_GAME",
    "Question",
    "StudySpec",
    "study_chunks",
    "study_result",
]

ROUNDS_PER_GAME: Final = 10
"""What a whole game to 99 counts as for the lab's cap: it took 10.0 rounds
on average in docs/strategy.md ("Whole games"); other targets in
proportion, a game of agreed rounds (T5) as its rounds."""


@dataclass(frozen=True, slots=True)
class Question:
    """A question template: the seats that answer it, for the lab's form."""

    key: str
    bots: tuple[str, ...]


QUESTIONS: Final[dict[str, Question]] = {
    # A against B at the same level, alternating (docs/strategy.md, "Method").
    "versus": Question("versus", ("stack-first:medium", "greedy:medium") * 2),
    # R7 "the Ligretto stack comes first" at a full table of eight.
    "r7": Question("r7", ("stack-first:medium", "discard-first:medium") * 4),
    # One strategy at every level: how much is speed worth?
    "levels": Question(
        "levels",
        ("stack-first:easy", "stack-first:medium", "stack-first:hard", "stack-first:expert"),
    ),
}
"""The lab's question templates: "A vs B", "does R7 hold at 8 players",
"which level beats which"."""


@dataclass(frozen=True, slots=True)
class StudySpec:
    """A study: the bot at each seat, rounds or games, rules and master seed."""

    bots: tuple[str, ...]
    rounds: int = 0
    games: int = 0
    seed: int = 1
    options: RuleOptions = field(default_factory=RuleOptions)
    target: int | None = None
    agreed_rounds: int | None = None
    question: str = "versus"

    def __post_init__(self) -> None:
        if (self.rounds > 0) == (self.games > 0):
            raise ValueError("give either a number of rounds or a number of games")
        if self.rounds < 0 or self.games < 0:
            raise ValueError("rounds and games cannot be negative")
        if self.target is not None and self.agreed_rounds is not None:
            raise ValueError("give a target or agreed rounds, not both")
        if self.seed < 0:
            raise ValueError("the seed cannot be negative")
        # the bots' names and the player limits of R1, with their own messages
        for bot in self.bots:
            BotSpec.parse(bot)
        self.options.check_players(len(self.bots))

    @property
    def seats(self) -> int:
        return len(self.bots)

    @property
    def size(self) -> int:
        """How many rounds or games the study plays (its progress bar's end)."""
        return self.games or self.rounds

    def config(self) -> SimConfig:
        return SimConfig(tuple(BotSpec.parse(b) for b in self.bots), self.seed, self.options)

    def settings(self) -> GameSettings:
        if self.agreed_rounds is not None:
            return GameSettings(Mode.ROUNDS, agreed_rounds=self.agreed_rounds)
        return GameSettings(Mode.TARGET, target=self.target)

    def cost(self) -> int:
        """Rounds × seats, what the lab's cap counts (games as :data:`ROUNDS_PER_GAME`)."""
        if self.rounds:
            return self.rounds * self.seats
        if self.agreed_rounds is not None:
            per_game = self.agreed_rounds
        else:
            per_game = math.ceil(ROUNDS_PER_GAME * (self.target or 99) / 99)
        return self.games * max(1, per_game) * self.seats

    def command(self) -> str:
        """The ``ligretto simulate`` command line that gives this study's numbers."""
        args = [
            "ligretto",
            "simulate",
            "--bots",
            ",".join(str(BotSpec.parse(b)) for b in self.bots),
        ]
        if self.games:
            args += ["--games", str(self.games)]
            if self.target is not None:
                args += ["--target", str(self.target)]
            if self.agreed_rounds is not None:
                args += ["--agreed-rounds", str(self.agreed_rounds)]
        else:
            args += ["--rounds", str(self.rounds)]
        args += ["--seed", str(self.seed)]
        defaults = RuleOptions()
        o = self.options
        if o.deck != defaults.deck:
            args += ["--deck", o.deck]
        if o.row_refill != defaults.row_refill:
            args += ["--row-refill", o.row_refill]
        if not o.recycle_shuffle:
            args.append("--no-recycle-shuffle")
        if o.deadlock != defaults.deadlock:
            args += ["--deadlock", o.deadlock]
        if o.row_storage:
            args.append("--row-storage")
        return shlex.join(args)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "bots": list(self.bots),
            "rounds": self.rounds,
            "games": self.games,
            "seed": self.seed,
            "target": self.target,
            "agreed_rounds": self.agreed_rounds,
            "options": self.options.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StudySpec:
        return cls(
            bots=tuple(data["bots"]),
            rounds=int(data["rounds"]),
            games=int(data["games"]),
            seed=int(data["seed"]),
            options=RuleOptions(**data["options"]),
            target=data.get("target"),
            agreed_rounds=data.get("agreed_rounds"),
            question=str(data.get("question", "versus")),
        )


Chunk = Callable[[Any], list[Any]]


def study_chunks(spec: StudySpec) -> tuple[Chunk, list[Any]]:
    """The work function and its chunks, in order: the command's own."""
    config = spec.config()
    if spec.games:
        return play_games, list(game_jobs(config, spec.games, spec.settings()))
    return play_rounds, list(round_jobs(config, spec.rounds))


def study_result(spec: StudySpec, records: Sequence[RoundRecord | GameRecord]) -> dict[str, Any]:
    """The study's result: the command's ``--json`` report, its command and the plots' extras.

    *records* are the chunks' results concatenated in chunk order.
    """
    config = spec.config()
    if spec.games:
        games = [r for r in records if isinstance(r, GameRecord)]
        report = summarize_games(config, spec.settings(), games)
        rounds = [r for g in games for r in g.rounds]
    else:
        rounds = [r for r in records if isinstance(r, RoundRecord)]
        report = summarize(config.labels, rounds)
    document = report_document(config, report, workers=1)
    del document["config"]["workers"]  # the lab's processes do not change a number
    return {
        "command": spec.command(),
        "report": finite_json(document),
        "stack_left": stack_counts(rounds, spec.seats),
    }


def stack_counts(rounds: Sequence[RoundRecord], seats: int) -> list[list[int]]:
    """Per seat: how many rounds ended with 0, 1, 2 … cards left in its stack."""
    most = max((max(r.stack) for r in rounds), default=0)
    counts = [[0] * (most + 1) for _ in range(seats)]
    for r in rounds:
        for seat, left in enumerate(r.stack):
            counts[seat][left] += 1
    return counts
