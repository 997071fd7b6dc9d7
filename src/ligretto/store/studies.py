"""The strategy lab's studies in the database: what each simulates, its state, its result.

A study is written when it is asked for (``queued``), when it starts
(``running``) and when it ends (``done`` with its result, or ``cancelled``);
its page and its shareable link ``/lab/{id}`` read it from here. Queued and
running studies live in the memory of the process that runs them (its
``owner`` name): when a process starts, the studies it left unfinished are
marked ``stopped``.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import Engine, insert, select, update

from ligretto.store.database import busy_guard, writer
from ligretto.store.models import StudyRow

__all__ = ["StoredStudy", "StudyState", "StudyStore", "new_study_id"]

StudyState = Literal["queued", "running", "done", "cancelled", "stopped"]
UNFINISHED: tuple[StudyState, ...] = ("queued", "running")


@dataclass(frozen=True, slots=True)
class StoredStudy:
    """A study as stored: its spec (``StudySpec.to_dict``) and, once done, its result."""

    id: str
    state: StudyState
    spec: dict[str, Any]
    result: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None


def new_study_id() -> str:
    """A study's id: random, so that only its shareable link finds it (12 characters)."""
    return secrets.token_urlsafe(9)


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class StudyStore:
    """Writing and reading the lab's studies."""

    def __init__(self, engine: Engine, owner: str = "") -> None:
        self.engine = engine
        self.owner = owner
        self._writer = writer(engine)

    def create(
        self, spec: dict[str, Any], study_id: str | None = None, now: datetime | None = None
    ) -> str:
        """Keep a new, queued study; return its id (:func:`new_study_id` when not given)."""
        study_id = study_id or new_study_id()
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                insert(StudyRow).values(
                    id=study_id,
                    state="queued",
                    owner=self.owner,
                    spec=_json(spec),
                    result=None,
                    created_at=now or datetime.now(UTC),
                    finished_at=None,
                )
            )
        return study_id

    def set_state(self, study_id: str, state: StudyState) -> None:
        """A study started, or ended without a result (cancelled).

        An ended study stays as it ended: a cancel can reach the store before
        the runner's "running" for the same study (two threads), which then
        changes nothing."""
        finished = None if state in UNFINISHED else datetime.now(UTC)
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                update(StudyRow)
                .where(StudyRow.id == study_id, StudyRow.state.in_(UNFINISHED))
                .values(state=state, finished_at=finished)
            )

    def finish(self, study_id: str, result: dict[str, Any]) -> None:
        """A study is done: its result is kept with it."""
        with busy_guard(), self._writer.begin() as conn:
            conn.execute(
                update(StudyRow)
                .where(StudyRow.id == study_id, StudyRow.state.in_(UNFINISHED))
                .values(state="done", result=_json(result), finished_at=datetime.now(UTC))
            )

    def stop_unfinished(self) -> int:
        """Mark the studies this process (its owner name) left queued or running
        when it stopped; return how many. Other processes' studies run on."""
        with busy_guard(), self._writer.begin() as conn:
            return conn.execute(
                update(StudyRow)
                .where(StudyRow.state.in_(UNFINISHED), StudyRow.owner == self.owner)
                .values(state="stopped", finished_at=datetime.now(UTC))
            ).rowcount

    def get(self, study_id: str) -> StoredStudy | None:
        """The study with this id, or ``None``."""
        columns = (
            StudyRow.id,
            StudyRow.state,
            StudyRow.spec,
            StudyRow.result,
            StudyRow.created_at,
            StudyRow.finished_at,
        )
        with busy_guard(), self.engine.connect() as conn:
            row = conn.execute(select(*columns).where(StudyRow.id == study_id)).one_or_none()
        if row is None:
            return None
        return StoredStudy(
            id=row.id,
            state=row.state,
            spec=json.loads(row.spec),
            result=json.loads(row.result) if row.result is not None else None,
            created_at=row.created_at,
            finished_at=row.finished_at,
        )
