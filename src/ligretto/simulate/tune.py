"""`ligretto tune`: the ``tuned`` strategy's weights found by CMA-ES in the simulator.

Each candidate weight vector plays the table ``tuned, rival, tuned, rival``
(two seats each, docs/strategy.md's method) at one fixed reaction level,
so only decisions can improve, never speed. Its fitness is the paired gain:
the mean over rounds of (mean points of its seats − mean points of the
rival's seats, R5). Every candidate of a run plays the same rounds
(common random numbers: round ``i`` is dealt and timed from
``derive_seed(seed, i)`` for all of them), so the differences between
candidates are differences of decisions, not of deals.

With ``fresh`` every generation plays a block of rounds of its own
(generation ``g`` plays rounds ``(g-1)·rounds … g·rounds-1``), so no weight
vector can fit one set of deals, and the result is the search's mean
(CMA-ES's ``xfavorite``), not the best-scoring candidate: the best of
many noisy scores is mostly the luck of its rounds, while the mean moves
only where the whole population gained.

CMA-ES (the ``cma`` package) suits this: a small continuous weight vector,
a noisy objective without gradients, and a well-kept library that does
only this. The search starts at ``watchful`` written as weights
(:data:`~ligretto.bots.tuned.WATCHFUL_LIKE`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from ligretto.bots import Bot, BotSpec, make_bot, reaction_model
from ligretto.bots.tuned import WATCHFUL_LIKE, Tuned, Weights
from ligretto.rules import RuleOptions
from ligretto.sim.engine import simulate_round
from ligretto.sim.seeds import derive_seed
from ligretto.simulate.pool import chunked, run_chunks

__all__ = ["Generation", "TuneResult", "evaluate", "tune", "tune_command"]

#: Rounds per job handed to a worker process.
CHUNK = 50
#: CMA-ES's initial step size, in weight units (a source's weight is 1).
SIGMA0 = 0.5


@dataclass(frozen=True, slots=True)
class Generation:
    """One CMA-ES generation: its best candidate and the search mean's state."""

    number: int
    best: tuple[float, ...]
    best_gain: float
    """The best candidate's paired gain over the rival, points per round."""
    mean_gain: float
    """The mean gain of the generation's candidates."""
    sigma: float


@dataclass(frozen=True, slots=True)
class TuneResult:
    weights: Weights
    gain: float
    """The best candidate's gain on the tuning rounds (optimistic: it was picked on them)."""
    generations: tuple[Generation, ...]


def _chunk(job: tuple[tuple[float, ...], str, str, int, range]) -> list[float]:
    """Paired differences (tuned − rival) of rounds ``indices`` for one candidate."""
    vector, rival, level, seed, indices = job
    model = reaction_model(level)
    tuned = Bot(Tuned(Weights.from_vector(vector)), model, BotSpec("tuned", model.level))
    other = make_bot(rival, level)
    bots = [tuned, other, tuned, other]
    options = RuleOptions()
    out: list[float] = []
    for i in indices:
        points = simulate_round(bots, derive_seed(seed, i), options, index=i).points
        out.append((points[0] + points[2] - points[1] - points[3]) / 2)
    return out


def evaluate(
    candidates: Sequence[Sequence[float]],
    *,
    rival: str = "watchful",
    level: str = "medium",
    rounds: int,
    seed: int,
    workers: int = 1,
    first: int = 0,
) -> list[list[float]]:
    """Each candidate's paired differences over rounds ``first … first+rounds-1`` of ``seed``."""
    blocks = [range(first + part.start, first + part.stop) for part in chunked(rounds, CHUNK)]
    jobs = [
        (tuple(float(x) for x in c), rival, level, seed, part)
        for c in candidates
        for part in blocks
    ]
    parts = list(run_chunks(_chunk, jobs, workers))
    per = len(blocks)
    return [
        [d for part in parts[k * per : (k + 1) * per] for d in part] for k in range(len(candidates))
    ]


def tune(
    *,
    generations: int,
    rounds: int,
    seed: int,
    rival: str = "watchful",
    level: str = "medium",
    workers: int = 1,
    popsize: int | None = None,
    fresh: bool = False,
    on_generation: Callable[[Generation], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> TuneResult:
    """Run CMA-ES for ``generations``; its result and every generation.

    ``on_start`` hears the number of candidates per generation before the
    first is played (a generation takes minutes: the caller can say so).

    The result is the best candidate seen (all generations on the same
    rounds), or with ``fresh`` the search's final mean, its gain measured
    on one more block of fresh rounds.
    """
    if generations < 1 or rounds < 2:
        raise ValueError("tuning needs at least 1 generation and 2 rounds per candidate")
    reaction_model(level)  # an unknown level is refused before any work
    make_bot(rival, level)
    with warnings.catch_warnings():
        # cma offers plots when matplotlib is there and warns when it is not
        warnings.simplefilter("ignore")
        import cma  # type: ignore[import-untyped]

    options: dict[str, Any] = {"seed": seed, "verbose": -9}
    if popsize is not None:
        options["popsize"] = popsize
    es = cma.CMAEvolutionStrategy(list(WATCHFUL_LIKE.vector()), SIGMA0, options)
    if on_start is not None:
        on_start(int(es.popsize))
    best: tuple[float, ...] = WATCHFUL_LIKE.vector()
    best_gain = -math.inf
    history: list[Generation] = []
    for number in range(1, generations + 1):
        asked = [tuple(float(x) for x in c) for c in es.ask()]
        first = (number - 1) * rounds if fresh else 0
        diffs = evaluate(
            asked, rival=rival, level=level, rounds=rounds, seed=seed, workers=workers, first=first
        )
        gains = [sum(d) / len(d) for d in diffs]
        es.tell([list(c) for c in asked], [-g for g in gains])  # cma minimises
        top = max(range(len(asked)), key=gains.__getitem__)
        if gains[top] > best_gain:
            best, best_gain = asked[top], gains[top]
        generation = Generation(
            number, asked[top], gains[top], sum(gains) / len(gains), float(es.sigma)
        )
        history.append(generation)
        if on_generation is not None:
            on_generation(generation)
    if fresh:
        mean = tuple(float(x) for x in es.result.xfavorite)
        (held_out,) = evaluate(
            [mean],
            rival=rival,
            level=level,
            rounds=rounds,
            seed=seed,
            workers=workers,
            first=generations * rounds,
        )
        return TuneResult(Weights.from_vector(mean), sum(held_out) / len(held_out), tuple(history))
    return TuneResult(Weights.from_vector(best), best_gain, tuple(history))


def _started(
    rival: str, level: str, generations: int, rounds: int, fresh: bool
) -> Callable[[int], None]:
    """What the command says before the first generation, which takes a while."""

    def say(candidates: int) -> None:
        blocks = "new rounds each generation" if fresh else "the same rounds for every candidate"
        typer.echo(
            f"tuning `tuned` against {rival} at {level}: {generations} generation(s) of "
            f"{candidates} candidates, each playing {rounds:,} rounds ({blocks}); "
            f"a line after each generation ({candidates * rounds:,} rounds)",
            err=True,
        )

    return say


def losing_note(gain: float, rival: str) -> str | None:
    """The warning for weights that do not beat the rival, or ``None``."""
    if gain > 0:
        return None
    return (
        f"warning: these weights lose to {rival} ({gain:+.3f} points per round); "
        "they are no better than the strategy they were tuned against, so TUNED stays "
        "as it is. The weights, for the record:"
    )


def weights_source(weights: Weights) -> str:
    """The weights as the Python text of ``TUNED`` in ``bots/tuned.py``."""
    lines = [
        f"    {name}={value:.4f},"
        for name, value in zip(Weights.names(), weights.vector(), strict=True)
    ]
    return "TUNED = Weights(\n" + "\n".join(lines) + "\n)"


def tune_command(
    level: Annotated[str, typer.Option(help="The fixed reaction level of every seat.")] = "medium",
    rival: Annotated[
        str, typer.Option(help="The hand-written strategy in the other two seats.")
    ] = "watchful",
    generations: Annotated[int, typer.Option(min=1, help="CMA-ES generations.")] = 12,
    rounds: Annotated[
        int, typer.Option(min=2, help="Rounds per candidate (the same rounds for all).")
    ] = 800,
    seed: Annotated[int, typer.Option(help="Master seed of the rounds and of CMA-ES.")] = 7,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    popsize: Annotated[
        int | None, typer.Option(min=2, help="Candidates per generation (default: CMA-ES's).")
    ] = None,
    fresh: Annotated[
        bool,
        typer.Option(
            help="New rounds each generation; the result is the search's mean, "
            "its gain measured on one more fresh block."
        ),
    ] = False,
) -> None:
    """Tune the `tuned` strategy's weights with CMA-ES against a rival at one level.

    Prints each generation's best and mean paired gain (points per round
    over the rival) and, at the end, the weights as the text of TUNED in
    src/ligretto/bots/tuned.py. Check the result on fresh rounds with
    `ligretto simulate` (docs/strategy.md).
    """
    try:
        result = tune(
            generations=generations,
            rounds=rounds,
            seed=seed,
            rival=rival,
            level=level,
            workers=workers,
            popsize=popsize,
            fresh=fresh,
            on_generation=lambda g: typer.echo(
                f"generation {g.number:3d}: best {g.best_gain:+.3f}, "
                f"mean {g.mean_gain:+.3f} points/round, sigma {g.sigma:.3f}; "
                f"best weights {' '.join(f'{x:.3f}' for x in g.best)}"
            ),
            on_start=_started(rival, level, generations, rounds, fresh),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    what = "the mean's gain on fresh rounds" if fresh else "best gain on the tuning rounds"
    typer.echo(f"{what}: {result.gain:+.3f} points/round")
    note = losing_note(result.gain, rival)
    if note is None:
        typer.echo(weights_source(result.weights))
        return
    # Printed as comments: pasted into bots/tuned.py they change nothing.
    typer.echo(note, err=True)
    typer.echo("\n".join(f"# {line}" for line in weights_source(result.weights).splitlines()))
