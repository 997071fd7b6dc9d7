"""A schema-driven fuzz of the whole JSON API: no input makes the server fail.

Schemathesis reads the app's OpenAPI schema and sends generated requests to
every operation, then chains operations in its stateful phase (create a game,
then enter rounds into it, …). Every answer must be below 500 and match the
schema documented for its status. ``make test`` runs a bounded, derandomized
run (a fixed seed: the same requests every time); ``make fuzz`` a larger one
(``LIGRETTO_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import given, settings

from helpers.fuzz import CHECKS, EXAMPLES, FUZZ_SETTINGS
from ligretto.serve_process import ServerThread
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    data_dir: Path = tmp_path_factory.mktemp("fuzz")
    server = ServerThread(create_app(Settings(data_dir=data_dir, database_url=None)))
    url = server.start()
    try:
        yield schemathesis.openapi.from_url(f"{url}/openapi.json")
    finally:
        server.stop()


def test_every_operation_answers_below_500_and_as_documented(api_schema: Any) -> None:
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 12  # the Tafel's games, rounds, exports, history; the tables
    for operation in operations:

        @given(case=operation.as_strategy())
        @FUZZ_SETTINGS
        def run(case: Any) -> None:
            case.call_and_validate(checks=CHECKS)

        try:
            run()
        except Exception as error:  # collect every operation's finding, then fail once
            failures.append(f"{operation.method.upper()} {operation.path}:\n{error}")
    assert not failures, "\n\n".join(failures)


def test_chains_of_operations_answer_below_500_and_as_documented(api_schema: Any) -> None:
    base = api_schema.as_state_machine()

    class Workflow(base):  # type: ignore[misc, valid-type]
        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Workflow.run(
        settings=settings(
            FUZZ_SETTINGS,
            max_examples=max(5, EXAMPLES // 2),
            stateful_step_count=8,
        )
    )
