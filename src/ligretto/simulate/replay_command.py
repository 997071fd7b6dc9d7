"""``ligretto replay``: a kept round as text, and bots playing it on from any action.

Reads a replay document (``GET /api/tables/{code}/rounds/{n}/replay``,
format ``ligretto.replay/1``), prints its seats, deal, every action with
its play time and the result, in the words of ``--lang`` (else of ``LANG``)
as the table says them (:mod:`ligretto.simulate.replay_text`); with
``--from`` the bots named by ``--bots`` take over every seat at that action
and play the round to its end in the simulator (virtual time, R3 races
included), so "what would the hard bot have done here" has an answer.
Printing happens only here.

No ``from __future__ import annotations``: the options' help names the
languages handed in, and Typer reads the annotations of the inner function,
which must therefore be evaluated where it is defined.
"""

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer

from ligretto.bots import make_bot
from ligretto.rules.errors import RuleError
from ligretto.rules.replay_file import read_replay
from ligretto.sim.engine import simulate_round
from ligretto.simulate.command import _bots_for
from ligretto.simulate.replay_text import (
    ReplayWords,
    action_line,
    bot_names,
    render,
    result_lines,
)

__all__ = ["replay_command"]

WordsFor = Callable[[str | None], ReplayWords]
"""The words of the language a tag names (``de``, ``nb_NO.UTF-8``), English
when it names none of them."""


def replay_command(words_for: WordsFor, languages: Sequence[str]) -> Callable[..., None]:
    """The command, speaking the words ``words_for`` gives (the web's
    catalogues, wired in ``ligretto.cli``: this layer does not read them)."""

    def replay(
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
        lang: Annotated[
            str | None,
            typer.Option(
                help=f"The language of cards, names and numbers: {'|'.join(languages)} "
                "(default: from LANG, else en).",
            ),
        ] = None,
    ) -> None:
        """Print a kept online round; with --from, bots play it on from there."""
        if lang is not None and lang.lower() not in languages:
            raise typer.BadParameter(
                f"{lang!r} is not one of {', '.join(languages)}", param_hint="--lang"
            )
        words = words_for(lang.lower() if lang is not None else os.environ.get("LANG"))
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("the file holds no JSON object")
            log = read_replay(data)
        except (OSError, ValueError) as exc:
            raise typer.BadParameter(str(exc), param_hint="FILE") from None
        try:
            lines = render(data, log, words)
        except RuleError as exc:
            raise typer.BadParameter(
                f"the engine refuses this log: {exc}", param_hint="FILE"
            ) from None
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
        names = bot_names([spec.strategy for spec in specs], words)
        position = log.round(start)
        levels = [words.levels.get(spec.level.value, spec.level.value) for spec in specs]
        said = ", ".join(f"{name} · {level}" for name, level in zip(names, levels, strict=True))
        typer.echo("")
        typer.echo(words.from_action.format(i=start, bots=said))
        if position.is_over:
            typer.echo(f"  {words.already_over}")
            return
        record = simulate_round([make_bot(str(spec)) for spec in specs], seed, start=position)
        for index, (seat, action) in enumerate(position.log[start:], start):
            typer.echo(f"  {index:4d}  {action_line(seat, str(action), names, words)}")
        typer.echo(words.outcome.format(s=words.number(record.seconds, 1)))
        for line in result_lines(position.result(), names, words):
            typer.echo(line)

    return replay
