"""Persistence of Tafel games: SQLAlchemy 2 tables, Alembic migrations, the service.

>>> from ligretto.store import TafelService, make_engine, migrate
>>> engine = make_engine("sqlite:///:memory:")  # doctest: +SKIP
"""

from ligretto.store.database import make_engine, migrate, sqlite_url
from ligretto.store.hub import ChangeHub, Subscription
from ligretto.store.service import (
    CreatedGame,
    ForbiddenError,
    GameNotFoundError,
    HistoryEntry,
    StoredGame,
    StoreError,
    TafelService,
    VersionConflictError,
    WriteResult,
)

__all__ = [
    "ChangeHub",
    "CreatedGame",
    "ForbiddenError",
    "GameNotFoundError",
    "HistoryEntry",
    "StoreError",
    "StoredGame",
    "Subscription",
    "TafelService",
    "VersionConflictError",
    "WriteResult",
    "make_engine",
    "migrate",
    "sqlite_url",
]
