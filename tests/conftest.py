"""Hypothesis profiles, and fixtures shared across the suite: a migrated database.

Hypothesis runs the ``fast`` profile unless HYPOTHESIS_PROFILE names another:
``.ci/run`` sets HYPOTHESIS_PROFILE=ci, the thorough one (see
``helpers.profiles`` for ``examples(n)``, which scales pinned example counts);
the pure pass (``LIGRETTO_PURE=1``) then takes ``ci-pure``, a quarter of the
examples.

The PostgreSQL variants run when LIGRETTO_TEST_POSTGRES_URL is set (``.ci/run``
starts a throwaway server); without it they skip, unless
LIGRETTO_REQUIRE_POSTGRES=1 makes the missing server a failure. Each test
module gets its own schema, dropped afterwards, so reruns start clean.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine

from helpers import file_cpu, file_order
from helpers.pg_schema import throwaway_schema
from helpers.postgres import postgres_base_url
from helpers.profiles import CI_EXAMPLES, FAST_EXAMPLES
from ligretto.store import make_engine, migrate, sqlite_url

# No deadline in either profile: speed is measured by benchmarks, never by a
# test, and a loaded 2-core machine makes an example that writes to the
# database (a table's journal, a Tafel round) take longer than 200 ms now
# and then, which Hypothesis would report as a flaky failure.
# Locally: few examples, and the example database (.hypothesis/) replays failures.
settings.register_profile("fast", max_examples=FAST_EXAMPLES, deadline=None)
# In CI: Hypothesis's full default of examples, scaled up again where tests ask
# for more; a fresh random seed each run; no database, as every CI run starts
# afresh; and a failing example printed as a blob to reproduce it with.
settings.register_profile(
    "ci",
    max_examples=CI_EXAMPLES,
    deadline=None,
    derandomize=False,
    database=None,
    print_blob=True,
)
# The pure pass (LIGRETTO_PURE=1, `make test-pure`) reruns the compiled
# code's tests to show that both builds behave alike: a difference between
# them shows in any example. Under ``ci`` it takes a quarter of the examples
# (``ci-pure``); the compiled pass explores with all of them.
settings.register_profile("ci-pure", parent=settings.get_profile("ci"), max_examples=FAST_EXAMPLES)
_profile = os.environ.get("HYPOTHESIS_PROFILE", "fast")
if _profile == "ci" and os.environ.get("LIGRETTO_PURE", "") not in ("", "0"):
    _profile = "ci-pure"
settings.load_profile(_profile)

# Most tests create games and tables far faster than a person could; the
# per-client rate limits are tested on their own (tests/web/test_rate_limits.py)
# and are off elsewhere, also in servers the tests start as processes.
os.environ.setdefault("LIGRETTO_RATE_LIMITS", "0")


def pytest_configure(config: pytest.Config) -> None:
    # The longest test files first (helpers/file_order.py says why).
    config.pluginmanager.register(file_order, "ligretto-file-order")
    # CPU per file, children included, when asked (helpers/file_cpu.py).
    file_cpu.register(config)


BROWSER_TESTS = Path(__file__).parent / "browser"
"""Every test in this folder drives Chromium: the folder is its ``browser`` mark."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database URL for an empty database of either kind (one per test module)."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path_factory.mktemp("db"))
        return
    with throwaway_schema(postgres_base_url()) as url:
        yield url


@pytest.fixture(scope="module")
def engine(database_url: str) -> Iterator[Engine]:
    """A migrated engine on ``database_url``."""
    eng = make_engine(database_url)
    migrate(eng)
    yield eng
    eng.dispose()
