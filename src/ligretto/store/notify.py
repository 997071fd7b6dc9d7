"""Live updates across server processes: PostgreSQL ``NOTIFY`` and ``LISTEN`` (T6).

Several ``ligretto serve`` processes on one PostgreSQL database each keep
their own :class:`~ligretto.store.hub.ChangeHub`. A write announces its new
version with ``NOTIFY`` inside its own transaction (:func:`announce`);
PostgreSQL delivers a notification only when that transaction commits, so
no watcher anywhere hears of a version it could not read yet. Every process
runs one :class:`NotifyListener`: a thread with one dedicated connection
that ``LISTEN``\\ s and publishes what it hears to the process's hub.

When the listening connection drops (a PostgreSQL restart, a terminated
backend, a network fault) the thread reconnects with growing pauses; once
it listens again it reads the current version of every game watched in
this process and publishes it, so a change made while nobody listened is
not lost, only late. On SQLite there is one process and no listener.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

import psycopg
from sqlalchemy import Engine, select
from sqlalchemy.engine import Connection, make_url

from ligretto.store.hub import ChangeHub
from ligretto.store.models import GameRow

CHANNEL = "ligretto_changes"
"""The PostgreSQL notification channel of committed Tafel changes."""

LOBBY = "~lobby"
"""The hub's key for the lobby's listings (no game id holds a ``~``): a
process that listed, changed or withdrew a public table announces it under
this key (:mod:`ligretto.store.lobby`), and every process's lobby stream
reads the listings again."""

log = logging.getLogger(__name__)


def announce(conn: Connection, game_id: str, version: int) -> None:
    """Queue ``NOTIFY`` of ``(game_id, version)``; sent when ``conn`` commits (PostgreSQL).

    Does nothing on other databases (their hub is the process's own).
    """
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql("SELECT pg_notify(%(channel)s, %(payload)s)", _payload(game_id, version))


def lobby_version() -> int:
    """A version for a change of the lobby: the writer's clock in microseconds.

    Processes count no common version of the lobby; their clocks agree well
    enough that a later change carries a larger number (a process whose
    clock runs behind is heard late, at the readers' next look).
    """
    return time.time_ns() // 1000


def _payload(game_id: str, version: int) -> dict[str, str]:
    # Game ids are URL-safe base64 (no space), so "id version" splits safely.
    return {"channel": CHANNEL, "payload": f"{game_id} {version:d}"}


def parse_payload(payload: str) -> tuple[str, int] | None:
    """``(game_id, version)`` from a notification, or ``None`` for anything else."""
    game_id, _, version = payload.rpartition(" ")
    if not game_id or not version.isdigit():
        return None
    return game_id, int(version)


def read_versions(engine: Engine, game_ids: Sequence[str]) -> dict[str, int]:
    """The current version of each of ``game_ids`` that exists."""
    if not game_ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(select(GameRow.id, GameRow.version).where(GameRow.id.in_(game_ids)))
        versions = {game_id: version for game_id, version in rows}
        conn.rollback()
    return versions


def psycopg_conninfo(engine: Engine) -> str:
    """The engine's URL as psycopg expects it (``postgresql://…``, password included)."""
    url = make_url(engine.url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class NotifyListener:
    """A thread that ``LISTEN``\\ s on one connection and publishes changes to ``hub``.

    ``application_name`` names the connection in ``pg_stat_activity`` (one
    per process, e.g. ``ligretto-listener host:8001``). :meth:`start` returns
    at once; :meth:`wait_listening` waits until the first ``LISTEN`` holds.
    """

    POLL_SECONDS = 0.5
    """How long one wait for notifications lasts before the thread looks at ``stop``."""
    BACKOFF_FIRST = 0.1
    BACKOFF_MAX = 5.0
    """Pauses between reconnection attempts grow from the first to the most."""

    def __init__(
        self,
        conninfo: str,
        hub: ChangeHub,
        *,
        resync: Callable[[Sequence[str]], dict[str, int]],
        application_name: str = "ligretto-listener",
    ) -> None:
        self.conninfo = conninfo
        self.hub = hub
        self.resync = resync
        self.application_name = application_name[:63]  # PostgreSQL's NAMEDATALEN
        self.connections = 0
        """How many times a ``LISTEN`` was established (1 after the first, +1 per reconnect)."""
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ligretto-listener", daemon=True)

    @property
    def listening(self) -> bool:
        """Whether the connection is up and listening right now."""
        return self._listening.is_set()

    def start(self) -> None:
        self._thread.start()

    def wait_listening(self, timeout: float) -> bool:
        """Wait until the listener listens; ``False`` if it did not within ``timeout``."""
        return self._listening.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop listening and wait for the thread (at most ``timeout`` seconds)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    # --------------------------------------------------------------- internals
    def _run(self) -> None:
        pause = self.BACKOFF_FIRST
        while not self._stop.is_set():
            try:
                self._listen()
            except (psycopg.Error, OSError) as error:
                if self._stop.is_set():
                    break
                log.warning("change listener lost its connection (%s); reconnecting", error)
            finally:
                if self._listening.is_set():  # a connection that worked: retry quickly
                    pause = self.BACKOFF_FIRST
                self._listening.clear()
            if self._stop.wait(pause):
                break
            pause = min(pause * 2, self.BACKOFF_MAX)

    def _listen(self) -> None:
        with psycopg.connect(
            self.conninfo,
            autocommit=True,
            application_name=self.application_name,
            connect_timeout=5,
            # A silent network fault is noticed within about a minute.
            keepalives=1,
            keepalives_idle=20,
            keepalives_interval=5,
            keepalives_count=4,
        ) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self.connections += 1
            self._listening.set()
            # What was committed while nobody listened: read it now that every
            # later change will be heard (a version heard twice wakes nobody).
            self._publish_current()
            while not self._stop.is_set():
                for notification in conn.notifies(timeout=self.POLL_SECONDS):
                    change = parse_payload(notification.payload)
                    if change is not None:
                        self.hub.publish(*change)

    def _publish_current(self) -> None:
        watched = self.hub.watched_games()
        if not watched:
            return
        try:
            versions = self.resync(watched)
        except Exception:  # the database is down again: the next connection reads again
            log.warning("change listener could not read the watched games' versions")
            raise psycopg.OperationalError("reading versions after reconnecting failed") from None
        for game_id, version in versions.items():
            self.hub.publish(game_id, version)


def listen_for_changes(
    engine: Engine, hub: ChangeHub, *, application_name: str = "ligretto-listener"
) -> NotifyListener | None:
    """The listener feeding ``hub`` from other processes, or ``None`` off PostgreSQL."""
    if engine.dialect.name != "postgresql":
        return None
    return NotifyListener(
        psycopg_conninfo(engine),
        hub,
        resync=lambda ids: read_versions(engine, ids),
        application_name=application_name,
    )
