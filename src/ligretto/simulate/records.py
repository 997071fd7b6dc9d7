"""Per-round records as JSON lines: one line a round, with the deal's features, as they come.

``ligretto simulate --records FILE`` and the lab's download write every
round of a run here in index order, one JSON object a line, so a study can
relate what happened to how the round was dealt (a low row, R2) without
the run keeping its rounds: each line is written when its round is
counted, and memory holds one line. JSON lines need nothing beyond the
standard library and are read by every data tool (``pandas.read_json(path,
lines=True)``, ``jq``, DuckDB's ``read_json``); a columnar format would
have added a large dependency for a file of a few megabytes.

A line (seats in seat order)::

    {"game": 3, "round": 2, "seed": …, "points": [12, −4, 7, 3],
     "middle": […], "stack": […], "row_sums": [17, 9, 22, 14],
     "caller": 0, "termination": "stop", "winners": [0], "reshuffles": 0,
     "stuck": 0, "stalled": false, "actions": […], "seconds": 94.2,
     "races_won": […], "races_lost": […]}

``game`` is ``null`` for single rounds; ``round`` is the round's index in
its game, or in the run.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from ligretto.sim.report import RoundRecord

__all__ = ["RecordWriter", "record_line"]


def record_line(record: RoundRecord, game: int | None) -> dict[str, Any]:
    """One round as its JSON line's object."""
    termination = record.termination
    return {
        "game": game,
        "round": record.index,
        "seed": record.seed,
        "points": list(record.points),
        "middle": list(record.middle),
        "stack": list(record.stack),
        "row_sums": list(record.row_sums),
        "caller": record.caller,
        "termination": None if termination is None else termination.value,
        "winners": list(record.winners),
        "reshuffles": record.reshuffles,
        "stuck": record.stuck,
        "stalled": record.stalled,
        "actions": list(record.actions),
        "seconds": round(record.seconds, 3),
        "races_won": list(record.races_won),
        "races_lost": list(record.races_lost),
    }


class RecordWriter:
    """Writes rounds to ``path`` as JSON lines (gzip-compressed for a ``.gz`` name).

    A context manager; :meth:`write` takes a round and its game's index.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines = 0
        # Kept open across writes on purpose: the writer itself is the context manager.
        self._file: IO[str] = (
            gzip.open(path, "wt", encoding="utf-8")  # noqa: SIM115
            if path.suffix == ".gz"
            else path.open("w", encoding="utf-8")
        )

    def write(self, record: RoundRecord, game: int | None = None) -> None:
        self._file.write(json.dumps(record_line(record, game), separators=(",", ":")) + "\n")
        self.lines += 1

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
