"""A throwaway PostgreSQL schema: an empty database for a test or a benchmark.

Shared by ``tests/conftest.py``, the store's tests and the benchmarks that
run on PostgreSQL (they put ``tests`` on their import path).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

from sqlalchemy import create_engine, text


@contextmanager
def throwaway_schema(base_url: str, prefix: str = "test_") -> Iterator[str]:
    """A URL on ``base_url`` whose connections see only a new, empty schema
    (its ``search_path``); the schema and all in it are dropped afterwards."""
    schema = prefix + secrets.token_hex(6)
    admin = create_engine(base_url)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in base_url else "?"
    try:
        yield f"{base_url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
