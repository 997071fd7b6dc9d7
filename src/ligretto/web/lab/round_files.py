"""A study's per-round records on disk: written as its rounds are counted, the newest kept.

Every round a study counts goes to ``<data dir>/lab-records/<id>.jsonl.gz``
as one line of JSON (``ligretto.simulate.records``), so the records never
sit in memory; the file is as large as the study's cap allows (at most
100,000 rounds of two seats, about 10 MB compressed). A cancelled or
stopped study's file is removed; of the finished ones, the newest
:data:`KEPT` files are kept (docs/limits.md, "The strategy lab"). The
records live on the machine of the process that ran the study: another
process's page offers no download for them.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Final

from ligretto.simulate.records import RecordWriter

__all__ = ["KEPT", "RoundFiles"]

KEPT: Final = 100
"""Studies whose per-round records are kept; older files are removed."""

_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")


class RoundFiles:
    """The directory of the lab's per-round records."""

    def __init__(self, directory: Path, kept: int = KEPT) -> None:
        self.directory = directory
        self.kept = kept

    def path(self, study_id: str) -> Path | None:
        """Where a study's records are, ``None`` for an id no study can have."""
        if _ID.fullmatch(study_id) is None:
            return None
        return self.directory / f"{study_id}.jsonl.gz"

    def writer(self, study_id: str) -> RecordWriter:
        path = self.path(study_id)
        if path is None:
            raise ValueError(f"no study has the id {study_id!r}")
        self.directory.mkdir(parents=True, exist_ok=True)
        return RecordWriter(path)

    def finished(self, study_id: str) -> Path | None:
        """The records of a finished study, if this process kept them."""
        path = self.path(study_id)
        return path if path is not None and path.is_file() else None

    def discard(self, study_id: str) -> None:
        path = self.path(study_id)
        if path is not None:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def prune(self) -> None:
        """Keep the newest :attr:`kept` files."""
        if not self.directory.is_dir():
            return
        files = sorted(
            self.directory.glob("*.jsonl.gz"), key=lambda p: p.stat().st_mtime, reverse=True
        )
        for old in files[self.kept :]:
            with contextlib.suppress(FileNotFoundError):
                old.unlink()
