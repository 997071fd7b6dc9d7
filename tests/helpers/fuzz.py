"""The schema-driven fuzz tests' settings: how many examples, which checks.

``LIGRETTO_FUZZ_EXAMPLES`` sets the examples per operation (``make fuzz``
raises it); runs are derandomized, so a run sends the same requests every time.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

EXAMPLES = int(os.environ.get("LIGRETTO_FUZZ_EXAMPLES", "25"))
CHECKS = [not_a_server_error, response_schema_conformance]
"""Every answer is below 500 and matches the schema documented for its status."""
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
