"""Engines and migrations: SQLite by default (WAL, synchronous=FULL), PostgreSQL by URL."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from ligretto.store.errors import StoreBusyError

MIGRATIONS = Path(__file__).with_name("migrations")
WRITE_OPTION = "ligretto_write"
"""Execution option marking a connection that will write (SQLite: BEGIN IMMEDIATE)."""

DEFAULT_BUSY_TIMEOUT = 5.0
"""Seconds a transaction waits for another one's lock before it gives up.

A write holds the lock for milliseconds (an import of a 1000-round game for
a few more, its rows prepared beforehand), so a wait this long means the
database is overloaded or held by something else: the request is answered
"busy, try again" (:class:`StoreBusyError`, 503) instead of waiting on.
"""

_SQLITE_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
# lock_not_available (lock_timeout), serialization_failure, deadlock_detected
_POSTGRES_BUSY = frozenset({"55P03", "40001", "40P01"})


def sqlite_url(data_dir: Path) -> str:
    """The default database: ``ligretto.db`` in the data directory."""
    return f"sqlite:///{data_dir / 'ligretto.db'}"


def make_engine(url: str, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT, **kwargs: Any) -> Engine:
    """An engine for ``url`` set up for durable single-statement-safe transactions.

    SQLite: WAL journal with ``synchronous=FULL`` so that an acknowledged
    write is on disk; transactions that write start with ``BEGIN IMMEDIATE``
    so two writers queue on the lock instead of failing halfway.

    ``busy_timeout`` (seconds) bounds how long a transaction waits for a lock
    another one holds (SQLite's busy timeout, PostgreSQL's ``lock_timeout``);
    past it the database raises and :func:`busy_guard` makes that a
    :class:`StoreBusyError`.
    """
    millis = max(1, round(busy_timeout * 1000))
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": busy_timeout}, **kwargs)
        event.listen(engine, "connect", partial(_sqlite_on_connect, millis))
        event.listen(engine, "begin", _sqlite_on_begin)
        return engine
    engine = create_engine(url, pool_pre_ping=True, **kwargs)
    event.listen(engine, "connect", partial(_postgres_on_connect, millis))
    return engine


def _sqlite_on_connect(busy_millis: int, dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event emit BEGIN itself (the pysqlite driver's
    # own transaction handling would defer it and break BEGIN IMMEDIATE).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={busy_millis:d}")
    cursor.close()


def _postgres_on_connect(busy_millis: int, dbapi_connection: Any, _record: Any) -> None:
    # A session setting: every transaction of this connection waits at most
    # this long for a row lock (FOR UPDATE / FOR SHARE), then fails with 55P03.
    cursor = dbapi_connection.cursor()
    cursor.execute(f"SET lock_timeout = {busy_millis:d}")
    cursor.close()
    dbapi_connection.commit()


def is_busy(error: DBAPIError) -> bool:
    """Whether *error* means "locked by someone else, try again" rather than a fault."""
    original = error.orig
    if isinstance(original, sqlite3.OperationalError):
        code = getattr(original, "sqlite_errorcode", None)
        if code is not None:
            return code & 0xFF in _SQLITE_BUSY  # extended codes: SQLITE_BUSY_SNAPSHOT …
        return "locked" in str(original)
    return getattr(original, "sqlstate", None) in _POSTGRES_BUSY


@contextmanager
def busy_guard() -> Iterator[None]:
    """Turn a lock wait that timed out into :class:`StoreBusyError` (nothing was written)."""
    try:
        yield
    except DBAPIError as error:
        if is_busy(error):
            raise StoreBusyError() from error
        raise


def _sqlite_on_begin(connection: Connection) -> None:
    if connection.get_execution_options().get(WRITE_OPTION):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine (same pool) with connections marked as writers."""
    return engine.execution_options(**{WRITE_OPTION: True})


MIGRATION_LOCK = 0x4C696772  # "Ligr": the advisory lock key of migrations
MIGRATION_LOCK_TIMEOUT = "120s"


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest revision (Alembic ``upgrade head``), or to *revision*.

    On PostgreSQL several processes may start at once on one database: a
    transaction-scoped advisory lock lets one migrate while the others wait,
    then find the schema current and do nothing.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with writer(engine).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SET LOCAL lock_timeout = '{MIGRATION_LOCK_TIMEOUT}'")
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK:d})")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
