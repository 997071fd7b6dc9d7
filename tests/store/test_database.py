"""Engines and migrations: durable SQLite settings, Alembic on both databases."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text

from helpers.pg_schema import throwaway_schema
from helpers.postgres import postgres_base_url
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
    assert {
        "tafel_games",
        "tafel_rounds",
        "tafel_events",
        "live_tables",
        "live_table_actions",
        "live_round_replays",
        "tafel_groups",
        "tafel_group_members",
        "tafel_group_games",
        "api_idempotency_keys",
        "lab_studies",
        "lobby_listings",
        "alembic_version",
    } <= tables
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == (
            "0010_lobby_listings"
        )


@pytest.mark.postgres
def test_processes_starting_together_on_one_new_database_all_migrate_it() -> None:
    with throwaway_schema(postgres_base_url()) as url:
        engines = [make_engine(url) for _ in range(4)]
        try:
            with ThreadPoolExecutor(len(engines)) as pool:
                # Each is a process starting: one migrates, the others wait and find it done.
                list(pool.map(migrate, engines))
            with engines[0].connect() as conn:
                heads = conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one()
                assert heads == 1
                assert conn.execute(text("SELECT count(*) FROM tafel_games")).scalar_one() == 0
        finally:
            for engine in engines:
                engine.dispose()
