"""Stored Idempotency-Keys are bounded per token and per client, against a real ``ligretto serve``.

Before, every write with a fresh key stored its answer for 24 hours, about
1.15 KiB a key: one client's no-op writes on its own game stored some 8 GiB
a day. And a key of a write without a token (creating a game) was shared by
every client: another client sending the same key and body got the first
one's answer, the new game's edit token with it. Now a new key beyond a
token's rate or count, or beyond its client's count, is refused with 429
and ``Retry-After`` before the write runs, and a key without a token is its
client's alone. The server believes ``X-Forwarded-For`` from 127.0.0.1, so
this one test is several clients.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from ligretto.serve_process import ServeProcess, environment_without_database_url

pytestmark = pytest.mark.slow

ANNA, BERT = {"X-Forwarded-For": "192.0.2.1"}, {"X-Forwarded-For": "198.51.100.7"}
GAME = {"players": ["Anna", "Ben"], "mode": "target", "target": 99}


@contextmanager
def serving(
    folder: Path, per_minute: int, per_token: int, per_client: int
) -> Iterator[ServeProcess]:
    env = {
        **environment_without_database_url(),
        "LIGRETTO_RATE_LIMITS": "0",
        "LIGRETTO_IDEMPOTENCY_KEYS_PER_MINUTE": str(per_minute),
        "LIGRETTO_IDEMPOTENCY_KEYS_PER_TOKEN": str(per_token),
        "LIGRETTO_IDEMPOTENCY_KEYS_PER_CLIENT": str(per_client),
    }
    with ServeProcess(folder, env, ["--trusted-proxy", "127.0.0.1"]) as process:
        process.start()
        yield process


def _games(server: ServeProcess) -> int:
    with sqlite3.connect(server.data_dir / "ligretto.db") as db:
        count: int = db.execute("SELECT count(*) FROM tafel_games").fetchone()[0]
    return count


def _refused(answer: httpx.Response, code: str, most: int) -> None:
    assert answer.status_code == 429, answer.text
    body: dict[str, Any] = answer.json()
    assert body["code"] == code and "Nothing was changed" in body["detail"]
    assert 1 <= int(answer.headers["Retry-After"]) <= most


class Api:
    """Writes as one client (its ``X-Forwarded-For``), with a key or without."""

    def __init__(self, client: httpx.Client, who: dict[str, str]) -> None:
        self.client, self.who = client, who

    def create(self, key: str | None) -> httpx.Response:
        return self.write("POST", "/api/games", GAME, key)

    def write(
        self, method: str, path: str, body: dict[str, Any], key: str | None, token: str = ""
    ) -> httpx.Response:
        headers = {**self.who, **({"Idempotency-Key": key} if key else {})}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.client.request(method, path, json=body, headers=headers)

    def version(self, game: dict[str, Any]) -> int:
        version: int = self.client.get(f"/api/games/{game['id']}").json()["version"]
        return version


def test_a_key_without_a_token_is_its_clients_and_new_keys_have_a_rate(tmp_path: Path) -> None:
    with (
        serving(tmp_path / "data", per_minute=2, per_token=100, per_client=100) as server,
        httpx.Client(base_url=server.base, timeout=30) as client,
    ):
        anna, bert = Api(client, ANNA), Api(client, BERT)
        mine, theirs = anna.create("create-1"), bert.create("create-1")  # same key and body
        assert mine.status_code == theirs.status_code == 201, theirs.text
        assert theirs.json()["id"] != mine.json()["id"]
        assert theirs.json()["edit_token"] != mine.json()["edit_token"]
        assert "Idempotent-Replayed" not in theirs.headers

        # two new keys a minute for one client without a token ...
        assert anna.create("create-2").status_code == 201
        before = _games(server)
        _refused(anna.create("create-3"), "idempotency_key_rate", 60)
        assert _games(server) == before
        assert anna.create("create-1").headers["Idempotent-Replayed"] == "true"
        # ... and for one game's token
        game = mine.json()
        rounds, token = f"/api/games/{game['id']}/rounds", game["edit_token"]
        assert anna.write("POST", rounds, {"stacks": [0, 3]}, "w1", token).status_code == 201
        assert anna.write("PUT", f"{rounds}/1", {"middle": [12, 8]}, "w2", token).status_code == 200
        version = anna.version(game)
        _refused(
            anna.write("POST", rounds, {"stacks": [0, 4]}, "w3", token), "idempotency_key_rate", 60
        )
        assert anna.version(game) == version
        assert anna.write("POST", rounds, {"stacks": [0, 4]}, None, token).status_code == 201


def test_a_token_and_a_client_keep_so_many_keys(tmp_path: Path) -> None:
    with (
        serving(tmp_path / "data", per_minute=100, per_token=2, per_client=4) as server,
        httpx.Client(base_url=server.base, timeout=30) as client,
    ):
        anna = Api(client, ANNA)
        game = anna.create("create-1").json()
        rounds, token = f"/api/games/{game['id']}/rounds", game["edit_token"]
        assert anna.write("POST", rounds, {"stacks": [0, 3]}, "w1", token).status_code == 201
        assert anna.write("PUT", f"{rounds}/1", {"middle": [12, 8]}, "w2", token).status_code == 200
        version = anna.version(game)
        answer = anna.write("POST", rounds, {"stacks": [0, 4]}, "w3", token)
        _refused(answer, "too_many_idempotency_keys", 86400)
        assert "one token" in answer.json()["detail"]
        assert anna.version(game) == version
        assert anna.write("POST", rounds, {"stacks": [0, 3]}, "w1", token).status_code == 201
        assert anna.write("POST", rounds, {"stacks": [0, 4]}, None, token).status_code == 201

        # the client has kept 3 keys (one create, two writes): one more, over all its tokens
        other = anna.create("create-2").json()
        rounds, token = f"/api/games/{other['id']}/rounds", other["edit_token"]
        answer = anna.write("POST", rounds, {"stacks": [0, 3]}, "y1", token)
        _refused(answer, "too_many_idempotency_keys", 86400)
        assert "one client" in answer.json()["detail"]
        assert client.get(f"/api/games/{other['id']}").json()["rounds"] == []
        # another client is not held by it
        assert Api(client, BERT).create("create-9").status_code == 201
