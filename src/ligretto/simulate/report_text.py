"""The simulator's report as people and programs read it: a Rich table, or the ``--json`` document.

``ligretto simulate`` prints these; the lab keeps the same document as a
study's result, so the page and the command give the same numbers.
"""

from __future__ import annotations

import math
from typing import Any

from rich.console import Console
from rich.table import Table

from ligretto.sim.report import SimReport
from ligretto.simulate.run import SimConfig

__all__ = ["finite_json", "render_report", "report_document"]


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
    reshuffles = report.reshuffles
    if reshuffles is not None and reshuffles.mean > 0:
        line += f"; {_fmt_ci(reshuffles.mean, reshuffles.low, reshuffles.high)} reshuffles (R4)"
    console.print(line)
    low = report.lowest_row
    if low is not None:
        edge = low.points_edge
        console.print(
            f"lowest row at the deal (R2, {low.rounds} rounds with one seat alone lowest): "
            f"wins {_percent(low.wins.rate)} ({_percent(low.wins.low)}–{_percent(low.wins.high)}; "
            f"a fair share {_percent(low.fair)})"
            + (
                ""
                if edge is None
                else f", {_fmt_ci(edge.mean, edge.low, edge.high)} points against the others' mean"
            )
        )
    r5 = [(s.seat, s.r5_round_wins) for s in report.seats if s.r5_round_wins is not None]
    if r5:
        console.print(
            "round wins had R5 scored them (−2 a stack card), by seat: "
            + ", ".join(f"{seat} {_percent(wins.rate)}" for seat, wins in r5)
        )
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
    seats = range(len(config.bots))
    settings["speeds"] = [config.speed(s) for s in seats]
    settings["overlook"] = [config.overlooks(s) for s in seats]
    settings["shuffles"] = [str(config.shuffle(s)) for s in seats]
    settings["house"] = config.house.to_dict()
    return {"config": settings, **report.to_dict()}


def finite_json(value: Any) -> Any:
    """JSON has no NaN or infinity: such a number (an undefined spread) becomes null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_json(v) for v in value]
    return value
