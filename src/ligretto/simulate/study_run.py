"""A lab study played within its budget of simulated actions, counted in order.

A study is charged what it really costs: the actions its bots simulate
(docs/limits.md, "The strategy lab"). :class:`StudyRun` counts the study's
rounds or games in index order while their actions fit the budget and
stops at the first that does not fit ("stopped at the budget"); its result
is then the command's report for what it counted, and its command asks
for that many.

What it counts does not depend on who played the chunks or how fast: a
chunk is sent with all the budget that the items counted before it left
(``ligretto.simulate.budget``), and chunks sent before it that are not yet
counted can only leave less, so a chunk never stops before an item that
fits. Chunks are sized by what the study's items have cost so far (the
first is small), and one is sent beside others only when all of them are
likely to fit, so a study whose games are each larger than its chunks were
meant to be costs its budget about once, not once per worker.

Records are counted as they come (``ligretto.sim.summary``), handed to
``on_round`` (the lab writes them to a file) and dropped: memory holds the
chunks in flight, not the study.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import Any, Final

from ligretto.sim.report import GameRecord
from ligretto.sim.summary import ReportBuilder
from ligretto.simulate.budget import BudgetedChunk, ChunkOutcome, play_chunk
from ligretto.simulate.report_text import finite_json, report_document
from ligretto.simulate.run import ROUND_CHUNK, GameSettings, RoundSink
from ligretto.simulate.study import StudySpec

__all__ = ["CHUNK_ACTIONS", "StudyRun", "run_study"]

CHUNK_ACTIONS: Final = 250_000
"""The actions a chunk aims at (less with a budget under 40 times that):
a fraction of a second of a worker, a progress step the page can show."""

MAX_CHUNK_ITEMS: Final = 2_000
"""Rounds or games in one chunk at most: what a chunk hands back stays small."""


class StudyRun:
    """A study played chunk by chunk within ``budget`` actions, counted in chunk order.

    :meth:`next_chunk` is the chunk to send next (or none for now),
    :meth:`take` counts a chunk's outcome (in the order they were sent),
    :attr:`finished` says that nothing more is needed, :meth:`result` is
    what the study's page shows.
    """

    def __init__(self, spec: StudySpec, budget: int, on_round: RoundSink | None = None) -> None:
        if budget < 1:
            raise ValueError("the budget is at least one action")
        self.spec = spec
        self.on_round = on_round
        """Hears every counted round in order, with its game's index (the
        lab's per-round records)."""
        self.budget = budget
        self.config = spec.config()
        self.settings = spec.settings() if spec.games else None
        self.builder: ReportBuilder = self.config.builder()
        self.aim = max(1, min(CHUNK_ACTIONS, budget // 40))
        self.used = 0
        """Actions of the rounds or games counted."""
        self.played = 0
        """Rounds or games counted."""
        self.sent = 0
        """Rounds or games sent in chunks."""
        self.over_budget = False
        self.expected: deque[float] = deque()
        """What each chunk sent and not yet counted is likely to cost."""
        self._known_items = 0
        self._known_actions = 0

    @property
    def finished(self) -> bool:
        return self.over_budget or self.played == self.spec.size

    def _per_item(self) -> float | None:
        if not self._known_items:
            return None
        return self._known_actions / self._known_items

    def next_chunk(self, slot: int = 0, generation: int = 0) -> BudgetedChunk | None:
        """The next chunk to send, with all the budget the items counted so far left;
        ``None`` when every item was sent, or when one more beside those in flight
        would likely pass the budget (the first chunk runs alone)."""
        if self.finished or self.sent >= self.spec.size:
            return None
        per_item = self._per_item()
        if per_item is None:
            size = 1 if self.spec.games else ROUND_CHUNK
        else:
            size = max(1, min(MAX_CHUNK_ITEMS, int(self.aim / max(per_item, 1.0))))
        size = min(size, self.spec.size - self.sent)
        expected = per_item * size if per_item is not None else 0.0
        if self.expected and (
            per_item is None or self.used + sum(self.expected) + expected > self.budget
        ):
            return None
        indices = range(self.sent, self.sent + size)
        self.sent += size
        self.expected.append(expected)
        return BudgetedChunk(
            self.config, indices, self.budget - self.used, self.settings, slot, generation
        )

    def take(self, outcome: ChunkOutcome) -> None:
        """Count the next chunk's rounds or games while they fit the budget."""
        self.expected.popleft()
        self._known_items += len(outcome.costs)
        self._known_actions += sum(outcome.costs)
        for record, cost in zip(outcome.records, outcome.costs, strict=True):
            if self.used + cost > self.budget:
                self.over_budget = True
                return
            self.used += cost
            self.played += 1
            if isinstance(record, GameRecord):
                self.builder.add_game(record)
                if self.on_round is not None:
                    for one in record.rounds:
                        self.on_round(one, record.index)
            else:
                self.builder.add_round(record)
                if self.on_round is not None:
                    self.on_round(record, None)
        # a counted chunk stops early only at its budget, which the items before it left
        if outcome.stopped:
            self.over_budget = True

    def result(self, simulated: int | None = None) -> dict[str, Any]:
        """The study's result: the command's report of what was counted, its
        command, the plots' extras and the budget (``simulated``: every action
        played, thrown-away work included, when the caller counted it)."""
        spec = self.spec
        if self.over_budget and self.played and spec.games:
            spec = dataclasses.replace(spec, games=self.played)
        elif self.over_budget and self.played:
            spec = dataclasses.replace(spec, rounds=self.played)
        report = None
        if self.builder.rounds:
            settings = self.settings or GameSettings()
            summary = self.builder.report(
                mode=settings.mode.value,
                target=settings.target,
                agreed_rounds=settings.agreed_rounds,
            )
            document = report_document(self.config, summary, workers=1)
            del document["config"]["workers"]  # the lab's processes do not change a number
            report = finite_json(document)
        return {
            "command": spec.command(),
            "report": report,
            "stack_left": self.builder.stack_counts(),
            "budget": {
                "actions": self.budget,
                "used": self.used,
                "simulated": self.used if simulated is None else simulated,
                "stopped": self.over_budget,
                "played": self.played,
                "asked": self.spec.size,
            },
        }


def run_study(spec: StudySpec, budget: int) -> dict[str, Any]:
    """Play a whole study in this process, chunk after chunk: its :meth:`StudyRun.result`."""
    run = StudyRun(spec, budget)
    simulated = 0
    while (chunk := run.next_chunk()) is not None:
        outcome = play_chunk(chunk)
        simulated += outcome.actions
        run.take(outcome)
    return run.result(simulated)
