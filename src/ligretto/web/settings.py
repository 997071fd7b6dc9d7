"""Settings of the web app, from the environment (prefix ``LIGRETTO_``)."""

from __future__ import annotations

from pathlib import Path

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from ligretto.store import sqlite_url


def default_data_dir() -> Path:
    """The per-user data folder (e.g. ``~/.local/share/ligretto`` on Linux)."""
    return Path(platformdirs.user_data_dir("ligretto", appauthor=False))


class Settings(BaseSettings):
    """``LIGRETTO_DATA_DIR`` and ``LIGRETTO_DATABASE_URL`` override the defaults."""

    model_config = SettingsConfigDict(env_prefix="LIGRETTO_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    """Where the SQLite database lives when no database URL is given."""
    database_url: str | None = None
    """An SQLAlchemy URL, e.g. ``postgresql+psycopg://user@host/db``; default SQLite."""

    def resolved_database_url(self) -> str:
        return self.database_url or sqlite_url(self.data_dir)
