"""A schema-driven fuzz of ``/api/groups`` on a real group: no input makes the server fail.

The whole-API fuzz (``test_api_fuzz.py``) mostly meets unknown group ids;
here every generated request is aimed at an existing group with games, and
half of them carry its real token, so the writes, the statistics and the
league run on generated input. Every answer is below 500 and matches the
schema documented for its status.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import given

from helpers.fuzz import CHECKS, FUZZ_SETTINGS
from ligretto.serve_process import ServerThread
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, str]]]:
    data_dir: Path = tmp_path_factory.mktemp("fuzz-groups")
    server = ServerThread(create_app(Settings(data_dir=data_dir, database_url=None)))
    url = server.start()
    try:
        group = httpx.post(
            f"{url}/api/groups", json={"name": "Fuzz", "members": ["Anna", "Ben"]}
        ).json()
        auth = {"Authorization": f"Bearer {group['token']}"}
        game = httpx.post(
            f"{url}/api/groups/{group['id']}/games",
            json={"players": ["Anna", "Ben"], "mode": "rounds", "rounds": 2},
            headers=auth,
        ).json()["game"]
        edit = {"Authorization": f"Bearer {game['edit_token']}"}
        httpx.post(f"{url}/api/games/{game['id']}/rounds", json={"stacks": [0, 4]}, headers=edit)
        httpx.put(f"{url}/api/games/{game['id']}/rounds/1", json={"middle": [20, 8]}, headers=edit)
        ids = {"group_id": group["id"], "game_id": game["id"], "name": "Anna"}
        yield schemathesis.openapi.from_url(f"{url}/openapi.json"), {**ids, "token": group["token"]}
    finally:
        server.stop()


def test_group_operations_on_a_real_group_answer_below_500(
    fuzzed: tuple[Any, dict[str, str]],
) -> None:
    schema, real = fuzzed
    failures: list[str] = []
    operations = [
        result.ok()
        for result in schema.get_all_operations()
        if result.ok().path.startswith("/api/groups")
    ]
    assert len(operations) >= 12
    for operation in operations:

        @given(case=operation.as_strategy())
        @FUZZ_SETTINGS
        def run(case: Any) -> None:
            for key in ("group_id", "game_id", "name"):
                if case.path_parameters and key in case.path_parameters:
                    case.path_parameters[key] = real[key]
            if case.method.upper() != "GET" and zlib.crc32(repr(case.body).encode()) % 2 == 0:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {real['token']}"}
            case.call_and_validate(checks=CHECKS)

        try:
            run()
        except Exception as error:  # collect every operation's finding, then fail once
            failures.append(f"{operation.method.upper()} {operation.path}:\n{error}")
    assert not failures, "\n\n".join(failures)
