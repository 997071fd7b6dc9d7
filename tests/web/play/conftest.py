"""The whole app (Tafel, API and online play) on a throwaway data folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers.live_wire import STALLING
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path, database_url=None))) as client:
        yield client


@pytest.fixture
def stalling_client(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app whose tables' bots stall (``STALLING``), for the replay tests."""
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    app.state.table_settings = STALLING
    with TestClient(app) as client:
        yield client
