"""A Tafel app on a fresh SQLite data directory for the page tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ligretto.web.app import create_app
from ligretto.web.settings import Settings


def make_app(data_dir: Path) -> FastAPI:
    return create_app(Settings(data_dir=data_dir, database_url=None))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path), follow_redirects=False) as test_client:
        yield test_client
