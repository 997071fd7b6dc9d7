"""``ligretto simulate``: bots play many rounds or games; a table or JSON of results.

Kept apart from ``ligretto.cli`` so the simulator's command is one small
import there. Printing happens only here (the simulator itself is pure).
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ligretto.bots import STRATEGIES, BotSpec, Level, strategy_names
from ligretto.rules import RuleOptions
from ligretto.sim.engine import DEFAULT_STUCK_AFTER, RoundLimits
from ligretto.sim.report import SimReport
from ligretto.simulate.pool import ClusterError
from ligretto.simulate.run import GameSettings, SimConfig, simulate
from ligretto.tafel import Mode

__all__ = ["DEFAULT_BOTS", "simulate_command"]

DEFAULT_BOTS = "stack-first:hard,greedy:medium,random:easy,mine:hard"


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


def _fmt_ci(mean: float, low: float, high: float, digits: int = 2) -> str:
    if not math.isfinite(high - low):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {(high - low) / 2:.{digits}f}"


def _p_text(p: float) -> str:
    # below about 1e-16 the t distribution's tail is lost in rounding
    return "< 1e-16" if p < 1e-16 else f"{p:.2g}"


def _percent(rate: float) -> str:
    return "–" if math.isnan(rate) else f"{100 * rate:.1f}%"


def render_report(report: SimReport, console: Console) -> None:
    """The result table (per seat), the run's line and the bot comparisons."""
    games = report.games
    table = Table(
        title=f"{report.rounds} rounds" + (f", {games.games} games" if games else ""),
        caption=("games: games won (T4/T5); " if games else "")
        + "wins: rounds with the top score (ties shared); points: mean per round "
        "(R5) ± 95 % CI; stop: Ligretto Stop called; stack: cards left; races: won/lost (R3)",
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("bot", no_wrap=True, min_width=16)
    if games:
        table.add_column("games", justify="right", no_wrap=True)
    table.add_column("wins", justify="right", no_wrap=True)
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("stop", justify="right", no_wrap=True)
    table.add_column("stack", justify="right", no_wrap=True)
    table.add_column("races", justify="right", no_wrap=True)
    for s in report.seats:
        row = [str(s.seat), s.bot]
        if games and s.game_wins is not None:
            row.append(_percent(s.game_wins.rate))
        row += [
            _percent(s.round_wins.rate),
            _fmt_ci(s.points.mean, s.points.low, s.points.high),
            _percent(s.stops.rate),
            f"{s.stack_left:.2f}",
            f"{s.races_won}/{s.races_lost}",
        ]
        table.add_row(*row)
    console.print(table)
    secs = report.seconds_per_round
    acts = report.actions_per_round
    line = (
        f"round length: {_fmt_ci(acts.mean, acts.low, acts.high, 1)} actions, "
        f"{_fmt_ci(secs.mean, secs.low, secs.high, 1)} s virtual; "
        f"Ligretto Stop {_percent(report.stop_rate.rate)}, "
        f"deadlock {_percent(report.deadlock_rate.rate)}"
    )
    if games:
        line += f"; {games.rounds_per_game.mean:.1f} rounds per game"
    if report.stuck:
        line += f"; stuck {report.stuck} (stall guard, R4)"
    if report.stalled:
        line += f"; {report.stalled} stalled"
    console.print(line)
    if report.comparisons:
        comp = Table(title="paired comparison of points per round (a − b)")
        comp.add_column("a")
        comp.add_column("b")
        comp.add_column("a − b (95 % CI)", justify="right")
        comp.add_column("p", justify="right")
        for c in report.comparisons:
            d = c.result.difference
            comp.add_row(
                c.a,
                c.b,
                _fmt_ci(d.mean, d.low, d.high),
                _p_text(c.result.p_value) + (" *" if c.result.significant else ""),
            )
        console.print(comp)


def report_document(
    config: SimConfig, report: SimReport, workers: int, cluster: str | None = None
) -> dict[str, Any]:
    """The ``--json`` document: the configuration, then the report.

    A run on a Dask cluster names its scheduler (``config.cluster``); the
    report is the same as with ``--workers 1``.
    """
    settings: dict[str, Any] = {
        "players": len(config.bots),
        "bots": config.labels,
        "seed": config.seed,
        "workers": workers,
    }
    if cluster is not None:
        settings["cluster"] = cluster
    settings["options"] = config.options.to_dict()
    return {"config": settings, **report.to_dict()}


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
        config = SimConfig(
            tuple(_bots_for(players, bots)),
            seed,
            options,
            RoundLimits(stuck_after=stuck_after),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
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
        with progress:
            task = progress.add_task(what, total=total)
            report = simulate(
                config,
                rounds=0 if games else rounds,
                games=games,
                settings=settings,
                workers=workers,
                on_progress=lambda k: progress.advance(task, k),
                cluster=cluster,
            )
    except ClusterError as exc:
        raise typer.BadParameter(str(exc), param_hint="--cluster") from exc
    if as_json:
        document = finite_json(report_document(config, report, workers, cluster))
        typer.echo(json.dumps(document, indent=2, allow_nan=False))
    else:
        render_report(report, Console())


def finite_json(value: Any) -> Any:
    """JSON has no NaN or infinity: such a number (an undefined spread) becomes null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_json(v) for v in value]
    return value


def _literal(value: str, allowed: tuple[str, ...], option: str) -> Any:
    if value not in allowed:
        raise typer.BadParameter(f"{value!r}: choose {' or '.join(allowed)}", param_hint=option)
    return value
