"""The lab's studies in the database: kept, started, finished, and stopped with their process."""

from __future__ import annotations

from sqlalchemy import Engine

from ligretto.store.studies import StudyStore

SPEC = {"bots": ["greedy:easy", "random:easy"], "rounds": 10, "games": 0, "seed": 1}


def test_a_study_is_kept_from_its_queue_to_its_result(engine: Engine) -> None:
    store = StudyStore(engine, owner="one")
    study = store.create(SPEC)
    kept = store.get(study)
    assert kept is not None and kept.state == "queued" and kept.spec == SPEC
    assert kept.result is None and kept.finished_at is None
    store.set_state(study, "running")
    store.finish(study, {"report": {"rounds": 10}, "command": "ligretto simulate …"})
    done = store.get(study)
    assert done is not None and done.state == "done" and done.finished_at is not None
    assert done.result == {"report": {"rounds": 10}, "command": "ligretto simulate …"}
    assert store.get("no-such-study") is None


def test_a_starting_process_stops_only_its_own_unfinished_studies(engine: Engine) -> None:
    mine, theirs = StudyStore(engine, owner="one"), StudyStore(engine, owner="two")
    queued, running, other = mine.create(SPEC), mine.create(SPEC), theirs.create(SPEC)
    mine.set_state(running, "running")
    finished = mine.create(SPEC)
    mine.finish(finished, {"report": {}})
    assert mine.stop_unfinished() == 2
    states = {s: mine.get(s) for s in (queued, running, other, finished)}
    assert {s: v.state for s, v in states.items() if v} == {
        queued: "stopped",
        running: "stopped",
        other: "queued",
        finished: "done",
    }


def test_an_ended_study_stays_as_it_ended_whatever_comes_late(engine: Engine) -> None:
    # The cancel and the runner's "running" are written from two threads: the
    # cancel can land first. The late "running" (or a late result) changes nothing.
    store = StudyStore(engine, owner="one")
    study = store.create(SPEC)
    store.set_state(study, "cancelled")
    store.set_state(study, "running")
    store.finish(study, {"report": {}})
    kept = store.get(study)
    assert kept is not None and kept.state == "cancelled" and kept.result is None
    assert kept.finished_at is not None
