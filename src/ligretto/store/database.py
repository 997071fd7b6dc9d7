"""Engines and migrations: SQLite by default (WAL, synchronous=FULL), PostgreSQL by URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection

MIGRATIONS = Path(__file__).with_name("migrations")
WRITE_OPTION = "ligretto_write"
"""Execution option marking a connection that will write (SQLite: BEGIN IMMEDIATE)."""


def sqlite_url(data_dir: Path) -> str:
    """The default database: ``ligretto.db`` in the data directory."""
    return f"sqlite:///{data_dir / 'ligretto.db'}"


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url`` set up for durable single-statement-safe transactions.

    SQLite: WAL journal with ``synchronous=FULL`` so that an acknowledged
    write is on disk; transactions that write start with ``BEGIN IMMEDIATE``
    so two writers queue on the lock instead of failing halfway.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30}, **kwargs)
        event.listen(engine, "connect", _sqlite_on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event emit BEGIN itself (the pysqlite driver's
    # own transaction handling would defer it and break BEGIN IMMEDIATE).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_on_begin(connection: Connection) -> None:
    if connection.get_execution_options().get(WRITE_OPTION):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine (same pool) with connections marked as writers."""
    return engine.execution_options(**{WRITE_OPTION: True})


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (Alembic ``upgrade head``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with writer(engine).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
