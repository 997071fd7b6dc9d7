"""Live updates across processes: a change committed through one service reaches the
watchers of another process's hub through PostgreSQL NOTIFY/LISTEN (T6, issue 14)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from ligretto.store import ChangeHub, ForbiddenError, TafelService, make_engine, migrate, sqlite_url
from ligretto.store.notify import (
    NotifyListener,
    announce,
    listen_for_changes,
    parse_payload,
)

PLAYERS = ["Anna", "Ben"]
WAIT = 10.0  # seconds a test waits for what must happen; never a speed claim

postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    migrate(engine)
    try:
        yield engine
    finally:
        engine.dispose()


@pytest.fixture
def listening_hub(engine: Engine) -> Iterator[tuple[ChangeHub, NotifyListener]]:
    """Another process's hub, fed only by its listener (nothing publishes to it directly)."""
    hub = ChangeHub()
    listener = listen_for_changes(engine, hub, application_name="ligretto-listener test-b")
    assert listener is not None
    listener.BACKOFF_FIRST = 0.05
    listener.start()
    try:
        assert listener.wait_listening(WAIT)
        yield hub, listener
    finally:
        listener.stop()
        hub.close()


def _versions_heard(
    hub: ChangeHub, game_id: str, steps: Callable[[], None], want: int
) -> list[int]:
    """Subscribe to ``game_id``, run ``steps`` (in a thread); the versions heard up to ``want``."""

    async def scenario() -> list[int]:
        heard: list[int] = []
        with hub.subscribe(game_id) as subscription:
            runner = asyncio.create_task(asyncio.to_thread(steps))
            try:
                async with asyncio.timeout(WAIT):
                    async for version in subscription:
                        heard.append(version)
                        if version >= want:
                            return heard
            finally:
                await runner
        raise AssertionError("the subscription ended")

    return asyncio.run(scenario())


def _wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def test_payloads_name_a_game_and_a_version() -> None:
    assert parse_payload("abc-_DEF 12") == ("abc-_DEF", 12)
    assert parse_payload("garbage") is None
    assert parse_payload("id -3") is None
    assert parse_payload(" 4") is None


def test_on_sqlite_there_is_no_listener_and_announcing_is_nothing(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path))
    migrate(engine)
    hub = ChangeHub()
    assert listen_for_changes(engine, hub) is None
    heard: list[tuple[str, int]] = []
    service = TafelService(engine, [lambda g, v: heard.append((g, v))])
    created = service.create_game(PLAYERS)
    assert heard == [(created.stored.id, 1)]  # the in-process hub is fed as before
    with engine.begin() as conn:
        announce(conn, created.stored.id, 5)  # no NOTIFY on SQLite: no error either
    engine.dispose()


@pytest.mark.postgres
@postgres_only
def test_a_round_committed_by_one_service_reaches_another_hubs_watchers(
    engine: Engine, listening_hub: tuple[ChangeHub, NotifyListener]
) -> None:
    hub_b, _ = listening_hub
    process_a = TafelService(engine)  # no listeners: only PostgreSQL can tell hub B
    created = process_a.create_game(PLAYERS)
    gid = created.stored.id

    def enter_round() -> None:
        process_a.open_round(gid, created.edit_token, [0, 3])

    assert _versions_heard(hub_b, gid, enter_round, want=2)[-1] == 2


@pytest.mark.postgres
@postgres_only
def test_nothing_is_heard_of_a_refused_or_rolled_back_write(
    engine: Engine, listening_hub: tuple[ChangeHub, NotifyListener]
) -> None:
    hub_b, _ = listening_hub
    process_a = TafelService(engine)
    created = process_a.create_game(PLAYERS)
    gid = created.stored.id

    def refused_then_committed() -> None:
        with pytest.raises(ForbiddenError):
            process_a.open_round(gid, "not-the-token", [0, 3])
        with engine.connect() as conn:
            announce(conn, gid, 7)  # announced, then rolled back: never delivered
            conn.rollback()
        process_a.open_round(gid, created.edit_token, [0, 3])  # version 2, committed

    # The creation's version 1 may still be on its way; 7 was never committed.
    assert _versions_heard(hub_b, gid, refused_then_committed, want=2)[-1] == 2


@pytest.mark.postgres
@postgres_only
def test_the_listener_reconnects_after_its_backend_is_terminated_and_catches_up(
    engine: Engine, listening_hub: tuple[ChangeHub, NotifyListener]
) -> None:
    hub_b, listener = listening_hub
    process_a = TafelService(engine)
    created = process_a.create_game(PLAYERS)
    gid, token = created.stored.id, created.edit_token
    listener.BACKOFF_FIRST = 1.0  # long enough to commit a change while nobody listens

    def terminate_then_write_while_away() -> None:
        with engine.begin() as conn:
            killed = conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = 'ligretto-listener test-b'"
                )
            ).scalars()
            assert list(killed) == [True]
        _wait_until(lambda: not listener.listening)
        process_a.open_round(gid, token, [0, 3])  # version 2: its NOTIFY reaches nobody

    # Heard all the same: after reconnecting the listener reads the watched games.
    assert _versions_heard(hub_b, gid, terminate_then_write_while_away, want=2)[-1] == 2
    assert listener.connections == 2

    def write_after_reconnect() -> None:
        process_a.complete_round(gid, token, 1, [12, 9])

    assert _versions_heard(hub_b, gid, write_after_reconnect, want=3)[-1] == 3
