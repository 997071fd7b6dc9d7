"""A study of the strategy lab: what to simulate, its cost as asked and its command.

A study is a ``ligretto simulate`` run described as data (:class:`StudySpec`):
the bot at each seat with its own speed, attentiveness and shuffle, rounds
or whole games, the rule options, the house rules and the master seed.
Round ``i`` and game ``g`` of a run are each a pure function of the master
seed and their index (``ligretto.simulate.run``), so whoever plays them —
the lab's process pool in chunks of any size, the command with any
``--workers`` — gets the same records, and their summary in index order
is the command's ``--json`` report. :meth:`StudySpec.command` is the
command line that reproduces it.

What a study is asked to cost (:meth:`StudySpec.cost`, the lab's cap) is
only the first, rough check; the lab plays it within a budget of simulated
actions (``ligretto.simulate.study_run``).
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from typing import Any, Final

from ligretto.bots import BotSpec
from ligretto.rules import RuleOptions
from ligretto.rules.result import STACK_PENALTY
from ligretto.sim.decks import UNIFORM, ShuffleModel
from ligretto.sim.house import HouseRules
from ligretto.simulate.run import DECKS_NEED_GAMES, GameSettings, SimConfig
from ligretto.tafel import Mode

__all__ = [
    "QUESTIONS",
    "ROUNDS_PER_GAME",
    "Question",
    "StudySpec",
]

ROUNDS_PER_GAME: Final = 10
"""What a whole game to 99 counts as for the lab's cap: it took 10.0 rounds
on average in docs/strategy.md ("Whole games"); other targets in
proportion, a game of agreed rounds (T5) as its rounds."""


@dataclass(frozen=True, slots=True)
class Question:
    """A question template: the seats and the run that answer it, for the lab's form.

    Per seat, each empty for the default, ``speeds``, ``overlook`` and
    ``shuffles`` (:class:`~ligretto.simulate.run.SimConfig`); ``games``
    asks for whole games to 99 (else single rounds), ``count`` how many.
    """

    key: str
    bots: tuple[str, ...]
    games: bool = False
    count: int = 1000
    speeds: tuple[float, ...] = ()
    shuffles: tuple[str, ...] = ()
    recycle_shuffle: bool = True
    stack_penalty: int = STACK_PENALTY


_FOUR: Final = ("stack-first:medium",) * 4

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
    # How much is luck? Anna a level faster than three equals: how often do they still win?
    "luck": Question("luck", ("stack-first:hard", *_FOUR[1:]), games=True, count=300),
    # How much faster must I be? Anna at her own speed against three equals.
    "faster": Question("faster", _FOUR, games=True, count=300, speeds=(1.5, 1.0, 1.0, 1.0)),
    # Does shuffling badly help? Anna riffles once between rounds, the others shuffle well.
    "shuffle": Question(
        "shuffle",
        _FOUR,
        games=True,
        count=300,
        shuffles=("riffle:1", "uniform", "uniform", "uniform"),
    ),
    # Without shuffling the discard pile (R3's recycle_shuffle=False): deadlocks (R4).
    "recycle": Question("recycle", _FOUR, count=2000, recycle_shuffle=False),
    # Does a low row at the deal (R2) decide the round?
    "row": Question("row", _FOUR, count=2000),
    # A gentler stack penalty (R5's 2 → 1), for a table with one faster player.
    "penalty": Question(
        "penalty", ("stack-first:hard", *_FOUR[1:]), games=True, count=300, stack_penalty=1
    ),
}
"""The lab's question templates: "A vs B", "does R7 hold at 8 players",
"which level beats which", and the questions players ask: how much is
luck, how much faster must I be, does it help to shuffle badly, what if
the discard pile is not shuffled, does a low row decide the round, what
would a gentler stack penalty do."""


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
    speeds: tuple[float, ...] = ()
    overlook: tuple[float, ...] = ()
    shuffles: tuple[str, ...] = ()
    house: HouseRules = field(default_factory=HouseRules)

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
        config = self.config()  # the per-seat options' limits, with their own messages
        if self.rounds and config.carries_decks:
            raise ValueError(DECKS_NEED_GAMES)

    @property
    def seats(self) -> int:
        return len(self.bots)

    @property
    def size(self) -> int:
        """How many rounds or games the study plays (its progress bar's end)."""
        return self.games or self.rounds

    def config(self) -> SimConfig:
        return SimConfig(
            tuple(BotSpec.parse(b) for b in self.bots),
            self.seed,
            self.options,
            speeds=self.speeds,
            overlook=self.overlook,
            shuffles=tuple(ShuffleModel.parse(s) for s in self.shuffles),
            house=self.house,
        )

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
        if any(speed != 1 for speed in self.speeds):
            args += ["--speed", ",".join(f"{speed:g}" for speed in self.speeds)]
        if any(self.overlook):
            args += ["--overlook", ",".join(f"{chance:g}" for chance in self.overlook)]
        if any(ShuffleModel.parse(s) != UNIFORM for s in self.shuffles):
            args += ["--shuffle", ",".join(str(ShuffleModel.parse(s)) for s in self.shuffles)]
        if self.house.sets != 1:
            args += ["--sets", str(self.house.sets)]
        if self.house.stack_penalty != STACK_PENALTY:
            args += ["--stack-penalty", str(self.house.stack_penalty)]
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
            "speeds": list(self.speeds),
            "overlook": list(self.overlook),
            "shuffles": list(self.shuffles),
            "house": self.house.to_dict(),
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
            # studies kept before these options have none of them
            speeds=tuple(float(x) for x in data.get("speeds", ())),
            overlook=tuple(float(x) for x in data.get("overlook", ())),
            shuffles=tuple(str(x) for x in data.get("shuffles", ())),
            house=HouseRules(**data.get("house", {})),
        )
