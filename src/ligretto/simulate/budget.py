"""A chunk of rounds or games played within a budget of simulated actions, and stopped on a signal.

What a study costs is what its bots do: every seat's moves and turns,
``RoundRecord.actions`` (docs/limits.md, "The strategy lab"). A chunk
carries the actions it may still simulate (:class:`BudgetedChunk`); it
counts each round's actions as the round ends and stops at the first round
that passes them, so even one game that never reaches its target (a game
to 99 of bots that score below zero plays to ``MAX_GAME_ROUNDS``) stops
there. A round is bounded on its own (``RoundLimits.max_actions``).

Between rounds a chunk also reads its study's stop signal
(:class:`StopSignals`, shared memory that the worker processes inherit):
a cancelled study, or one whose budget another chunk used up, stops in
every worker after the round being played, instead of playing its chunks
to their ends.

What comes back (:class:`ChunkOutcome`) holds only the items (rounds or
games) that ended within the budget, each with its actions, so the study
can count them in order (:class:`ligretto.simulate.study.StudyRun`).
"""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any

from ligretto.sim.game import GameStoppedError
from ligretto.sim.report import GameRecord, RoundRecord
from ligretto.simulate.run import GameSettings, SimConfig, play_game, play_round

__all__ = ["BudgetedChunk", "ChunkOutcome", "StopSignals", "init_worker", "play_chunk"]


@dataclass(frozen=True, slots=True)
class BudgetedChunk:
    """Items ``indices`` of a run (games with ``settings``, else single rounds).

    ``budget`` is how many actions the chunk may simulate; ``slot`` and
    ``generation`` name its study's stop signal (:class:`StopSignals`).
    """

    config: SimConfig
    indices: range
    budget: int
    settings: GameSettings | None = None
    slot: int = 0
    generation: int = 0


@dataclass(frozen=True, slots=True)
class ChunkOutcome:
    """What a chunk played: its items that ended within the budget, in order.

    ``costs`` are their actions, one per item; ``actions`` counts every
    action the chunk simulated, an item it did not finish included.
    ``stopped`` says it ended before its last item (its budget, or its
    study's stop signal).
    """

    records: tuple[RoundRecord | GameRecord, ...]
    costs: tuple[int, ...]
    actions: int
    stopped: bool


class StopSignals:
    """One counter per study running at a time (its slot), in shared memory.

    A chunk is sent with its slot's counter as its ``generation``; raising
    the counter (:meth:`stop`) stops every chunk sent before, in every
    worker process that inherited the counters (:func:`init_worker`).
    """

    def __init__(self, context: BaseContext, slots: int) -> None:
        # Written only by the process that sends the chunks, read by the
        # workers: whole 64-bit words, no lock needed.
        self.counters: Any = context.RawArray("q", slots)

    def begin(self, slot: int) -> int:
        """A new study in ``slot``: its generation (chunks of any earlier one stop)."""
        self.counters[slot] += 1
        return int(self.counters[slot])

    def stop(self, slot: int) -> None:
        """Every chunk sent for the study in ``slot`` stops after its round."""
        self.counters[slot] += 1


_counters: Any = None
"""This worker process's view of the :class:`StopSignals` (:func:`init_worker`)."""


def init_worker(counters: Any) -> None:
    """The pool's initializer: the stop signals this worker reads."""
    global _counters
    _counters = counters


def _signalled(chunk: BudgetedChunk) -> bool:
    return _counters is not None and _counters[chunk.slot] != chunk.generation


class _Meter:
    """The chunk's actions so far; asked after every round whether to go on."""

    def __init__(self, chunk: BudgetedChunk) -> None:
        self.chunk = chunk
        self.actions = 0

    def count(self, record: RoundRecord) -> bool:
        self.actions += sum(record.actions)
        return self.actions <= self.chunk.budget and not _signalled(self.chunk)


def play_chunk(chunk: BudgetedChunk) -> ChunkOutcome:
    """Play the chunk's items in order until its budget or its stop signal.

    The items are those of ``play_rounds``/``play_games`` (the same seeds),
    so what a budgeted chunk finishes is what the command plays.
    """
    config, settings = chunk.config, chunk.settings
    bots = config.make_bots()
    meter = _Meter(chunk)
    records: list[RoundRecord | GameRecord] = []
    costs: list[int] = []

    def outcome(stopped: bool) -> ChunkOutcome:
        return ChunkOutcome(tuple(records), tuple(costs), meter.actions, stopped)

    for index in chunk.indices:
        if _signalled(chunk):
            return outcome(stopped=True)
        before = meter.actions
        record: RoundRecord | GameRecord
        if settings is None:
            record = play_round(config, bots, index)
            if not meter.count(record):
                return outcome(stopped=True)
        else:
            try:
                record = play_game(config, settings, bots, index, meter.count)
            except GameStoppedError:
                return outcome(stopped=True)
        records.append(record)
        costs.append(meter.actions - before)
    return outcome(stopped=False)
