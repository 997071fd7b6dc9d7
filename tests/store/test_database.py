"""Engines and migrations: durable SQLite settings, Alembic on both databases."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, inspect, text

from ligretto.store import make_engine, migrate, sqlite_url


def test_sqlite_uses_wal_and_synchronous_full(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "nested" / "dir"))
    try:
        migrate(engine)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        assert (tmp_path / "nested" / "dir" / "ligretto.db").exists()
    finally:
        engine.dispose()


def test_migrations_create_the_tables_and_rerun_as_no_op(engine: Engine) -> None:
    migrate(engine)  # the fixture migrated once already
    tables = set(inspect(engine).get_table_names())
    assert {"tafel_games", "tafel_rounds", "tafel_events", "alembic_version"} <= tables
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == (
            _head()
        )


def _head() -> str:
    """The newest migration's revision (whichever migrations the tree holds)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from ligretto.store.database import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head
