"""The PostgreSQL server the tests may use (``LIGRETTO_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import os

import pytest


def postgres_base_url() -> str:
    """The test server's URL, or skip (fail when LIGRETTO_REQUIRE_POSTGRES=1)."""
    url = os.environ.get("LIGRETTO_TEST_POSTGRES_URL", "")
    if not url:
        if os.environ.get("LIGRETTO_REQUIRE_POSTGRES") == "1":
            pytest.fail("LIGRETTO_REQUIRE_POSTGRES=1 but LIGRETTO_TEST_POSTGRES_URL is not set")
        pytest.skip("LIGRETTO_TEST_POSTGRES_URL is not set")
    return url
