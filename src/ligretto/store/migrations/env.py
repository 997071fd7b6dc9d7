"""Alembic environment: runs on the connection handed over by ``database.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ligretto.store.models import Base

config = context.config
connection = config.attributes.get("connection")


def _run(conn: object) -> None:
    context.configure(
        connection=conn,  # type: ignore[arg-type]
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
    )
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:  # pragma: no cover - the alembic command line with sqlalchemy.url set
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        _run(conn)
