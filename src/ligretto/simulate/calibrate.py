"""`ligretto calibrate`: the bot levels rated against each other, as groups rate people.

Whole games to 99 points (T4) at tables of four, each seat a bot drawn
without replacement from every strategy of :data:`STRATEGIES` at every
level (game ``g``'s table and seating from ``derive_seed(seed, CALIBRATION, g)``,
its rounds from ``derive_seed(seed, GAMES, g)``). Each finished game is
entered on a Tafel game and rated with the groups' own function,
:func:`ligretto.tafel.ratings.rate` (OpenSkill, Plackett–Luce), oldest
first. The table of skills is kept in the package (``level_ratings.json``,
written by ``--write``) and shown on ``/play``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from ligretto.bots import Level, make_bot
from ligretto.sim.game import simulate_game
from ligretto.sim.report import GameRecord
from ligretto.sim.seeds import derive_seed
from ligretto.simulate.pool import chunked, run_chunks
from ligretto.simulate.run import GAMES
from ligretto.tafel import Game
from ligretto.tafel.ratings import INITIAL, rate
from ligretto.tafel.stats import PlayedGame

__all__ = [
    "STRATEGIES",
    "LevelRating",
    "calibrate",
    "calibrate_command",
    "level_ratings",
    "load_table",
]

#: The strategies rated at every level: R7 by the book, the best
#: hand-written one, and the tuned one (docs/bots.md).
STRATEGIES = ("stack-first", "watchful", "tuned")
#: Seed path component of the tables' draw (beside the games' rounds).
CALIBRATION = 0xCA1B
SEATS = 4
CHUNK = 10
#: The stored table, beside this module.
TABLE = "level_ratings.json"
COMMAND = "ligretto calibrate --games 800 --seed 1 --workers 2 --write"


def players() -> list[str]:
    """Every rated bot, ``strategy:level``."""
    return [f"{s}:{level.value}" for level in Level for s in STRATEGIES]


def _table_of(seed: int, game: int) -> list[str]:
    return random.Random(derive_seed(seed, CALIBRATION, game)).sample(players(), SEATS)


def _chunk(job: tuple[int, range]) -> list[tuple[list[str], GameRecord]]:
    seed, indices = job
    out: list[tuple[list[str], GameRecord]] = []
    for g in indices:
        names = _table_of(seed, g)
        bots = [make_bot(name) for name in names]
        out.append((names, simulate_game(bots, derive_seed(seed, GAMES, g), index=g)))
    return out


def _tafel_game(names: list[str], record: GameRecord) -> Game:
    """The game as a table would have entered it (T2 stacks, then T3 the middle)."""
    game = Game(names)
    for played in record.rounds:
        number = game.open_round(list(played.stack)).number
        game.complete_round(number, list(played.middle), confirm=played.stalled)
    if not game.finished:
        game.finish()
    return game


def calibrate(games: int, seed: int = 1, workers: int = 1) -> dict[str, Any]:
    """Rate every bot of :func:`players` over ``games`` simulated games; the table's data."""
    if games < 1:
        raise ValueError("calibration needs at least 1 game")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    played: list[PlayedGame] = []
    counts = dict.fromkeys(players(), 0)
    jobs = [(seed, part) for part in chunked(games, CHUNK)]
    for part in run_chunks(_chunk, jobs, workers):
        for names, record in part:
            game = _tafel_game(names, record)
            played.append(
                PlayedGame(f"{record.index:06d}", start + timedelta(minutes=record.index), game)
            )
            for name in names:
                counts[name] += 1
    rated, _ = rate(played, players())
    ratings = {name: rated.get(name, INITIAL) for name in players()}  # unplayed: the start
    return {
        "command": COMMAND,
        "games": games,
        "seed": seed,
        "rating": "OpenSkill Plackett-Luce, as groups (ligretto.tafel.ratings.rate)",
        "ratings": {
            name: {
                "mu": round(ratings[name].mu, 2),
                "sigma": round(ratings[name].sigma, 2),
                "games": counts[name],
            }
            for name in players()
        },
    }


@dataclass(frozen=True, slots=True)
class LevelRating:
    """A level's skill (OpenSkill ``mu``), for each rated strategy."""

    level: str
    skills: dict[str, float]

    @property
    def low(self) -> int:
        return round(min(self.skills.values()))

    @property
    def high(self) -> int:
        return round(max(self.skills.values()))


def load_table() -> dict[str, Any]:
    """The stored table (``level_ratings.json``)."""
    text = resources.files("ligretto.simulate").joinpath(TABLE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def level_ratings(table: dict[str, Any] | None = None) -> list[LevelRating]:
    """Each level's skills by strategy, easy first."""
    table = table if table is not None else load_table()
    ratings = table["ratings"]
    return [
        LevelRating(
            level.value,
            {s: float(ratings[f"{s}:{level.value}"]["mu"]) for s in STRATEGIES},
        )
        for level in Level
    ]


def calibrate_command(
    games: Annotated[int, typer.Option(min=1, help="Simulated games to 99, four bots each.")] = 800,
    seed: Annotated[int, typer.Option(help="Master seed of the tables and the games.")] = 1,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    write: Annotated[
        bool, typer.Option(help=f"Write the table into the package ({TABLE}).")
    ] = False,
) -> None:
    """Rate the bot levels against each other with OpenSkill, as groups rate people."""
    data = calibrate(games, seed, workers)
    text = json.dumps(data, indent=2) + "\n"
    if write:
        path = Path(__file__).with_name(TABLE)
        path.write_text(text, encoding="utf-8")
        typer.echo(f"written: {path}")
    for row in level_ratings(data):
        skills = ", ".join(f"{s} {v:.1f}" for s, v in row.skills.items())
        typer.echo(f"{row.level:>7}: {skills}")
    if not write:
        typer.echo(text, nl=False)
