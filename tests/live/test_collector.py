"""The serving process's collector schedule (ligretto.collector):
short young collections, survivors frozen, everything collected now and then,
and the collector handed back as it was found."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.live_app import make_app
from ligretto.collector import YOUNG, CollectorSchedule, collector_paused
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


class Node:
    """Something that can sit in a reference cycle and be watched dying."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def until(condition: Callable[[], bool]) -> None:
    """Wait for what the schedule's timers do (late on a busy machine, never skipped)."""
    deadline = asyncio.get_running_loop().time() + 30
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the schedule never got there"
        await asyncio.sleep(0.01)


def test_it_sets_the_young_threshold_and_puts_the_old_one_back() -> None:
    before = gc.get_threshold()

    async def scenario() -> None:
        schedule = CollectorSchedule(young=1234, freeze_every=0.01, full_every=10)
        schedule.start()
        assert gc.get_threshold() == (1234, before[1], before[2])
        await until(lambda: schedule.freezes >= 1)
        assert gc.get_freeze_count() > 0
        await schedule.stop()

    asyncio.run(scenario())
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0  # nothing stays out of the collector's sight


def test_a_frozen_cycle_waits_for_the_full_collection_and_is_freed_then() -> None:
    schedule = CollectorSchedule(freeze_every=1, full_every=1)
    try:
        gc.collect()
        dead = _cycle()  # garbage already, but the collector has not seen it
        schedule.freeze()
        gc.collect()
        assert dead() is not None, "a frozen cycle is not collected"
        schedule.collect_all()
        assert dead() is None
        assert schedule.full_collections == 1
    finally:
        gc.unfreeze()


def test_what_reference_counts_free_is_freed_while_frozen() -> None:
    schedule = CollectorSchedule()
    try:
        node = Node()
        alive = weakref.ref(node)
        schedule.freeze()
        del node
        assert alive() is None
    finally:
        gc.unfreeze()


def test_the_schedule_collects_everything_on_time() -> None:
    async def scenario() -> None:
        schedule = CollectorSchedule(freeze_every=0.01, full_every=0.03)
        schedule.start()
        dead = _cycle()
        gc.freeze()  # out of every collection's sight but the full one
        await until(lambda: schedule.full_collections >= 1)
        await schedule.stop()
        assert dead() is None

    asyncio.run(scenario())


def test_two_apps_in_one_process_share_the_collector() -> None:
    before = gc.get_threshold()
    first = TestClient(make_app())
    second = TestClient(make_app())
    with first:
        assert gc.get_threshold()[0] == YOUNG
        with second:
            assert gc.get_threshold()[0] == YOUNG
        assert gc.get_threshold()[0] == YOUNG  # the first app still serves
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize(
    ("young", "freeze_every", "full_every"), [(0, 1, 1), (10, 0, 1), (10, 2, 1)]
)
def test_a_schedule_that_cannot_work_is_refused(
    young: int, freeze_every: float, full_every: float
) -> None:
    with pytest.raises(ValueError):
        CollectorSchedule(young=young, freeze_every=freeze_every, full_every=full_every)


def _frozen(obj: object) -> bool:
    """Frozen objects sit in the permanent generation, which ``gc.get_objects`` omits."""
    return gc.is_tracked(obj) and not any(o is obj for o in gc.get_objects())


def test_the_app_freezes_what_start_up_and_restored_tables_left(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=None, rate_limits=False)
    with TestClient(create_app(settings)) as first:
        created = first.post("/api/tables", json={"seats": 2, "name": "Anna"})
        assert created.status_code == 201, created.text
        code = created.json()["code"]
    # Started again on the same data: the table comes back and, with
    # everything else start-up made, is out of the collector's walks before
    # the first request is served.
    app = create_app(settings)
    with TestClient(app):
        schedule: CollectorSchedule = app.state.collector
        assert schedule.settle_pause > 0
        assert gc.get_freeze_count() > 0
        table = app.state.tables._tables[code]
        assert _frozen(table)
    assert gc.get_freeze_count() == 0


def test_the_young_threshold_and_full_interval_are_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIGRETTO_GC_YOUNG", "3210")
    monkeypatch.setenv("LIGRETTO_GC_FULL_EVERY", "1800")
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    with TestClient(app):
        assert gc.get_threshold()[0] == 3210
        assert app.state.collector.full_every == 1800
    with pytest.raises(ValueError, match="gc_young"):
        Settings(data_dir=tmp_path, gc_young=5)


def test_the_full_collection_waits_while_large_group_work_pauses_the_collector() -> None:
    """The two policies know each other: no full walk of a heap that a large
    import or reading has just filled, while it runs."""

    async def scenario() -> None:
        schedule = CollectorSchedule(freeze_every=0.01, full_every=0.01)
        with collector_paused():
            schedule.start()
            await until(lambda: schedule.freezes >= 3)  # its times came, and went by
            assert schedule.full_collections == 0
        await until(lambda: schedule.full_collections >= 1)  # at once after the pause
        await schedule.stop()

    asyncio.run(scenario())
