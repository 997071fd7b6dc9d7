"""Persistence of Tafel games: SQLAlchemy 2 tables, Alembic migrations, the service.

``service`` orchestrates one transaction per action; ``repository`` holds its
SQL, ``cache`` the games of the last writes, ``tokens`` the ids and edit
tokens, ``changes`` what each action writes, ``errors`` and ``results`` what
callers catch and get back.

>>> from ligretto.store import TafelService, make_engine, migrate
>>> engine = make_engine("sqlite:///:memory:")  # doctest: +SKIP
"""

from ligretto.store.database import make_engine, migrate, sqlite_url
from ligretto.store.errors import (
    ForbiddenError,
    GameNotFoundError,
    StoreBusyError,
    StoreError,
    VersionConflictError,
)
from ligretto.store.hub import ChangeHub, Subscription
from ligretto.store.results import (
    CreatedGame,
    HistoryEntry,
    StoredGame,
    StoredRound,
    WriteResult,
)
from ligretto.store.service import TafelService

__all__ = [
    "ChangeHub",
    "CreatedGame",
    "ForbiddenError",
    "GameNotFoundError",
    "HistoryEntry",
    "StoreBusyError",
    "StoreError",
    "StoredGame",
    "StoredRound",
    "Subscription",
    "TafelService",
    "VersionConflictError",
    "WriteResult",
    "make_engine",
    "migrate",
    "sqlite_url",
]
