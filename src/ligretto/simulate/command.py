"""``ligretto simulate``: bots play many rounds or games; a table or JSON of results.

Kept apart from ``ligretto.cli`` so the simulator's command is one small
import there. Printing happens only here (the simulator itself is pure).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ligretto.bots import STRATEGIES, BotSpec, Level, strategy_names
from ligretto.rules import RuleOptions
from ligretto.rules.result import STACK_PENALTY
from ligretto.sim.decks import ShuffleModel
from ligretto.sim.engine import DEFAULT_STUCK_AFTER, RoundLimits
from ligretto.sim.house import MAX_PENALTY, MAX_SETS, HouseRules
from ligretto.simulate.pool import ClusterError
from ligretto.simulate.records import RecordWriter
from ligretto.simulate.report_text import finite_json, render_report, report_document
from ligretto.simulate.run import DECKS_NEED_GAMES, GameSettings, SimConfig, simulate
from ligretto.tafel import Mode

__all__ = ["DEFAULT_BOTS", "simulate_command"]

DEFAULT_BOTS = "stack-first:hard,greedy:medium,random:easy,mine:hard"

T = TypeVar("T")


def strategies_help() -> str:
    """Every registered strategy for ``--help``, aliases after an ``=``
    (from the registry, so a new strategy is listed without a change here)."""
    names = []
    for name in strategy_names():
        aliases = [key for key, cls in STRATEGIES.items() if cls.name == name and key != name]
        names.append("=".join([name, *aliases]))
    return ", ".join(names)


def _bots_for(players: int | None, bots: str) -> list[BotSpec]:
    specs = [BotSpec.parse(b) for b in bots.split(",") if b.strip()]
    if not specs:
        raise typer.BadParameter(
            "name at least one bot, e.g. stack-first:hard", param_hint="--bots"
        )
    if players is None:
        return specs
    if len(specs) > players:
        raise typer.BadParameter(f"{len(specs)} bots for {players} players", param_hint="--bots")
    # fewer bots than players: the list repeats round the table
    return [specs[i % len(specs)] for i in range(players)]


def simulate_command(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="Comma-separated strategy:level per seat "
            f"(strategies: {strategies_help()}; "
            f"levels: {', '.join(level.value for level in Level)}).",
        ),
    ] = DEFAULT_BOTS,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Seats; the bot list repeats to fill them."),
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", "-r", min=0, help="Single rounds.")] = 1000,
    games: Annotated[
        int,
        typer.Option("--games", "-g", min=0, help="Whole games on the Tafel instead (T4/T5)."),
    ] = 0,
    target: Annotated[
        int | None, typer.Option(help="Target game to this score (T4; default 99).")
    ] = None,
    agreed_rounds: Annotated[
        int | None, typer.Option("--agreed-rounds", help="Rounds game of N rounds (T5).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed.")] = 1,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="Processes (same results as 1).")
    ] = 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="Run on the Dask distributed cluster whose scheduler is at ADDRESS "
            "(tcp://host:8786) instead of local processes (same results as --workers 1; "
            "needs ligretto[cluster] here and on every worker).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON, no table.")] = False,
    deck: Annotated[str, typer.Option(help="ligretto or cards (R1).")] = "ligretto",
    row_refill: Annotated[str, typer.Option(help="auto or manual (R3).")] = "auto",
    recycle_shuffle: Annotated[
        bool, typer.Option("--recycle-shuffle/--no-recycle-shuffle", help="R3.")
    ] = True,
    deadlock: Annotated[str, typer.Option(help="end or reshuffle (R4).")] = "end",
    row_storage: Annotated[bool, typer.Option("--row-storage", help="R6 variant.")] = False,
    stuck_after: Annotated[
        float,
        typer.Option(
            "--stuck-after",
            min=1.0,
            help="Virtual seconds without a card to the middle after which the "
            "bots agree the round is stuck (R4: ended or reshuffled per --deadlock).",
        ),
    ] = DEFAULT_STUCK_AFTER,
    speed: Annotated[
        str,
        typer.Option(
            "--speed",
            metavar="FACTORS",
            help="Speed factor per seat, comma-separated like --bots and repeated round "
            "the table (1.5: one and a half times as fast as the seat's level; default 1).",
        ),
    ] = "",
    overlook: Annotated[
        str,
        typer.Option(
            "--overlook",
            metavar="CHANCES",
            help="Per seat, the chance (0–1) of not seeing a card that fits at a look: "
            "the seat turns instead (R3). Comma-separated like --speed; default 0.",
        ),
    ] = "",
    shuffle: Annotated[
        str,
        typer.Option(
            "--shuffle",
            metavar="MODELS",
            help="How each seat shuffles its cards between the rounds of a game: uniform "
            "(default), riffle:N (N riffles, Gilbert–Shannon–Reeds), perfect:N (N faro "
            "shuffles) or none (dealt as gathered). Comma-separated like --speed; "
            "needs --games.",
        ),
    ] = "",
    sets: Annotated[
        int,
        typer.Option(
            "--sets",
            min=1,
            max=MAX_SETS,
            help="House rule: sets of 40 cards per player (R1: 1).",
        ),
    ] = 1,
    stack_penalty: Annotated[
        int,
        typer.Option(
            "--stack-penalty",
            min=0,
            max=MAX_PENALTY,
            help="House rule: points a card left in the Ligretto stack costs (R5: 2). "
            "Games are then added up by the simulator, with the Tafel's outcome rules.",
        ),
    ] = STACK_PENALTY,
    records: Annotated[
        Path | None,
        typer.Option(
            "--records",
            metavar="FILE",
            help="Write every round as a line of JSON to FILE (gzip-compressed when "
            "FILE ends in .gz): points, cards, the row sums at the deal, who called "
            "Stop, reshuffles.",
            dir_okay=False,
            writable=True,
        ),
    ] = None,
) -> None:
    """Let bots play many rounds (or whole games) and report who does best."""
    try:
        options = RuleOptions(
            deck=_literal(deck, ("ligretto", "cards"), "--deck"),
            row_refill=_literal(row_refill, ("auto", "manual"), "--row-refill"),
            recycle_shuffle=recycle_shuffle,
            deadlock=_literal(deadlock, ("end", "reshuffle"), "--deadlock"),
            row_storage=row_storage,
        )
        seats = tuple(_bots_for(players, bots))
        config = SimConfig(
            seats,
            seed,
            options,
            RoundLimits(stuck_after=stuck_after),
            speeds=per_seat(speed, len(seats), _factor, "--speed"),
            overlook=per_seat(overlook, len(seats), _factor, "--overlook"),
            shuffles=per_seat(shuffle, len(seats), ShuffleModel.parse, "--shuffle"),
            house=HouseRules(sets=sets, stack_penalty=stack_penalty),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    if config.carries_decks and not games:
        raise typer.BadParameter(DECKS_NEED_GAMES, param_hint="--shuffle")
    settings = None
    if games:
        if agreed_rounds is not None and target is not None:
            raise typer.BadParameter("give --target or --agreed-rounds, not both")
        settings = (
            GameSettings(Mode.ROUNDS, agreed_rounds=agreed_rounds)
            if agreed_rounds is not None
            else GameSettings(Mode.TARGET, target=target)
        )
    elif rounds == 0:
        raise typer.BadParameter("give --rounds N or --games N")
    if cluster is not None and workers != 1:
        raise typer.BadParameter(
            "give --workers or --cluster, not both (the cluster has its own workers)"
        )
    total = games or rounds
    what = "games" if games else "rounds"
    progress = Progress(
        TextColumn(f"simulating {what}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=as_json,
        transient=True,
    )
    try:
        with progress, _writer(records) as writer:
            task = progress.add_task(what, total=total)
            report = simulate(
                config,
                rounds=0 if games else rounds,
                games=games,
                settings=settings,
                workers=workers,
                on_progress=lambda k: progress.advance(task, k),
                cluster=cluster,
                on_round=None if writer is None else writer.write,
            )
    except ClusterError as exc:
        raise typer.BadParameter(str(exc), param_hint="--cluster") from exc
    except OSError as exc:
        raise typer.BadParameter(f"cannot write {records}: {exc}", param_hint="--records") from exc
    if as_json:
        document = finite_json(report_document(config, report, workers, cluster))
        typer.echo(json.dumps(document, indent=2, allow_nan=False))
    else:
        render_report(report, Console())


@contextlib.contextmanager
def _writer(path: Path | None) -> Iterator[RecordWriter | None]:
    if path is None:
        yield None
        return
    with RecordWriter(path) as writer:
        yield writer


def per_seat(text: str, seats: int, parse: Callable[[str], T], option: str) -> tuple[T, ...]:
    """A comma-separated value per seat, repeated round the table like ``--bots``
    (``()`` when empty: every seat the default)."""
    parts = [part.strip() for part in text.split(",")] if text.strip() else []
    if not parts:
        return ()
    if len(parts) > seats:
        raise ValueError(f"{option}: {len(parts)} values for {seats} seats")
    try:
        values = [parse(part) for part in parts]
    except ValueError as exc:
        raise ValueError(f"{option}: {exc}") from None
    return tuple(values[i % len(values)] for i in range(seats))


def _factor(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a number")
    return value


def _literal(value: str, allowed: tuple[str, ...], option: str) -> Any:
    if value not in allowed:
        raise typer.BadParameter(f"{value!r}: choose {' or '.join(allowed)}", param_hint=option)
    return value
