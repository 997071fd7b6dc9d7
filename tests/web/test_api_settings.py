"""Where the Tafel keeps its games: data directory and database URL (issue 3, Serving)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ligretto.web.app import create_app
from ligretto.web.settings import Settings, default_data_dir


def test_default_is_sqlite_in_the_per_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIGRETTO_DATA_DIR", raising=False)
    monkeypatch.delenv("LIGRETTO_DATABASE_URL", raising=False)
    settings = Settings()
    assert settings.data_dir == default_data_dir()
    assert settings.resolved_database_url() == f"sqlite:///{default_data_dir() / 'ligretto.db'}"


def test_environment_and_arguments_override_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LIGRETTO_DATA_DIR", str(tmp_path / "env"))
    monkeypatch.delenv("LIGRETTO_DATABASE_URL", raising=False)
    assert Settings().data_dir == tmp_path / "env"
    assert Settings(data_dir=tmp_path / "arg").data_dir == tmp_path / "arg"  # --data-dir wins
    monkeypatch.setenv("LIGRETTO_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert Settings().resolved_database_url() == "postgresql+psycopg://u@h/db"


def test_a_new_data_directory_is_created_and_migrated_on_start(tmp_path: Path) -> None:
    data_dir = tmp_path / "fresh" / "ligretto"
    with TestClient(create_app(Settings(data_dir=data_dir, database_url=None))) as client:
        response = client.post("/api/games", json={"players": ["Anna", "Ben"]})
        assert response.status_code == 201
    assert (data_dir / "ligretto.db").is_file()
    # A second start on the same folder finds the game again.
    with TestClient(create_app(Settings(data_dir=data_dir, database_url=None))) as client:
        assert client.get(f"/api/games/{response.json()['id']}").status_code == 200
