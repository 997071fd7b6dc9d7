"""``ligretto replay``: a kept round as text, and bots playing it on from any action.

Reads a replay document (``GET /api/tables/{code}/rounds/{n}/replay``,
format ``ligretto.replay/1``), prints its seats, deal, every action with
its play time and the result; with ``--from`` the bots named by ``--bots``
take over every seat at that action and play the round to its end in the
simulator (virtual time, R3 races included), so "what would the hard bot
have done here" has an answer.  Printing happens only here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ligretto.bots import make_bot
from ligretto.rules.errors import RuleError
from ligretto.rules.replay_file import ReplayLog, initial_deal, read_replay
from ligretto.rules.result import RoundResult
from ligretto.sim.engine import simulate_round
from ligretto.simulate.command import _bots_for

__all__ = ["replay_command"]


def _seat_label(seat: dict[str, Any], index: int) -> str:
    name = seat.get("name") or f"seat {index}"
    bot = seat.get("bot")
    return f"{name} ({bot['strategy']}:{bot['level']})" if bot else str(name)


def _time(t_ms: int) -> str:
    return f"{t_ms / 1000:8.3f} s"


def _won(race: dict[str, Any]) -> str:
    """Who took the pile, and by how much; the same millisecond is a tie
    that the order of arrival broke, not "0 ms faster"."""
    by, margin = race["refused_by_seat"], race["margin_ms"]
    if margin > 0:
        return f"seat {by} was {margin} ms faster"
    return f"seat {by} played in the same millisecond and came first"


def _result_lines(result: RoundResult, labels: list[str]) -> list[str]:
    lines = []
    for seat in result.seats:
        called = "  Ligretto Stop" if result.caller == seat.seat else ""
        lines.append(
            f"  {seat.seat}  {labels[seat.seat]:<28} stack {seat.stack:2d}  "
            f"middle {seat.middle:2d}  points {seat.points:+d}{called}"
        )
    ending = result.termination.value if result.termination is not None else "not over"
    lines.append(f"  ended: {ending}")
    return lines


def render(data: dict[str, Any], log: ReplayLog) -> list[str]:
    """The round as text: seats, deal, actions with their times, result."""
    seats = data.get("seats") or [{} for _ in range(log.players)]
    labels = [_seat_label(seat, i) for i, seat in enumerate(seats)]
    where = f"table {data['table']}, round {data['round']}" if "table" in data else "a round"
    options = ", ".join(f"{k}={v}" for k, v in log.options.to_dict().items())
    lines = [f"{where}: {log.players} players, seed {log.seed}", f"options: {options}", "seats:"]
    lines += [f"  {i}  {label}" for i, label in enumerate(labels)]
    lines.append("deal (stack and hand: bottom to top; the last card is open or turned next):")
    for i, cards in enumerate(initial_deal(log.players, log.seed, log.options)):
        lines.append(f"  {i}  stack {' '.join(cards['stack'])}")
        lines.append(f"     row   {' '.join(cards['row'])}")
        lines.append(f"     hand  {' '.join(cards['hand'])}")
    lines.append("actions (#, play time since “Ligretto!”, seat, action):")
    for index, ((seat, text), t_ms) in enumerate(zip(log.log, log.times, strict=True)):
        who = "table" if seat is None else str(seat)
        lines.append(f"  {index:4d}  {_time(t_ms)}  {who:>5}  {text}")
    races = data.get("races") or []
    if races:
        lines.append("races lost (R3):")
        for race in races:
            lines.append(
                f"  {_time(race['t_ms'])}  seat {race['seat']} {race['action']}: {_won(race)}"
            )
    lines.append("result:")
    lines += _result_lines(log.round().result(), labels)
    return lines


def replay_command(
    file: Annotated[Path, typer.Argument(help="A replay document (JSON), as downloaded.")],
    start: Annotated[
        int | None,
        typer.Option(
            "--from",
            min=0,
            help="Let bots play the round on from this action (its index: 0 is the "
            "position before the first action).",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="With --from: the bots that take over every seat, STRATEGY:LEVEL "
            "separated by commas (repeated round the table when fewer).",
        ),
    ] = "stack-first:hard",
    seed: Annotated[int, typer.Option(help="With --from: the seed of the bots' choices.")] = 1,
) -> None:
    """Print a kept online round; with --from, bots play it on from there."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the file holds no JSON object")
        log = read_replay(data)
    except (OSError, ValueError) as exc:
        raise typer.BadParameter(str(exc), param_hint="FILE") from None
    try:
        lines = render(data, log)
    except RuleError as exc:
        raise typer.BadParameter(f"the engine refuses this log: {exc}", param_hint="FILE") from None
    for line in lines:
        typer.echo(line)
    if start is None:
        return
    if start > len(log.log):
        raise typer.BadParameter(
            f"the round has {len(log.log)} actions; --from takes 0 to {len(log.log)}",
            param_hint="--from",
        )
    specs = _bots_for(log.players, bots)
    position = log.round(start)
    typer.echo(f"from action {start}, the bots {', '.join(str(s) for s in specs)} play on:")
    if position.is_over:
        typer.echo("  the round was already over there")
        return
    record = simulate_round([make_bot(str(spec)) for spec in specs], seed, start=position)
    for index, (seat, action) in enumerate(position.log[start:], start):
        who = "table" if seat is None else str(seat)
        typer.echo(f"  {index:4d}  {who:>5}  {action}")
    labels = [str(spec) for spec in specs]
    typer.echo(f"outcome after {record.seconds:.1f} s of virtual play:")
    for line in _result_lines(position.result(), labels):
        typer.echo(line)
