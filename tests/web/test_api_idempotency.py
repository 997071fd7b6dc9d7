"""``Idempotency-Key`` on the API's writes: a retry gets the first answer, never a second write."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from helpers.api import ApiGame, NewGame
from ligretto.store import idempotency
from ligretto.store.idempotency import IdempotencyStore, KeptAnswer, fingerprint
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

KEY = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"


def open_round(game: ApiGame, stacks: list[int], key: str | None, **headers: str) -> Any:
    sent = {**game.auth, **headers, **({KEY: key} if key is not None else {})}
    return game.client.post(game.url("/rounds"), json={"stacks": stacks}, headers=sent)


def rounds(game: ApiGame) -> int:
    return len(game.get()["rounds"])


def test_a_replayed_round_is_saved_once_and_answered_the_same(new_game: NewGame) -> None:
    game = new_game()
    first = open_round(game, [0, 3, 5], "round-1-a")
    again = open_round(game, [0, 3, 5], "round-1-a")
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json()
    assert REPLAYED not in first.headers
    assert again.headers[REPLAYED] == "true"
    for header in ("etag", "location", "content-type"):
        assert again.headers[header] == first.headers[header]
    assert rounds(game) == 1
    history = game.client.get(game.url("/history")).json()
    assert [h["action"] for h in history] == ["create", "open_round"]


def test_the_same_key_with_another_body_is_refused_with_422(new_game: NewGame) -> None:
    game = new_game()
    assert open_round(game, [0, 3, 5], "k-422").status_code == 201
    other = open_round(game, [0, 4, 5], "k-422")
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert rounds(game) == 1


def test_without_a_key_every_request_writes_as_before(new_game: NewGame) -> None:
    game = new_game()
    assert open_round(game, [0, 3, 5], None).status_code == 201
    game.complete(1, [20, 14, 8])
    assert open_round(game, [0, 3, 5], None).status_code == 201
    assert rounds(game) == 2


@pytest.mark.parametrize(
    "key",
    ["", "a" * 256, "two words", "tab\tkey", "ä-umlaut", '""'],
    ids=["empty", "256", "space", "tab", "non-ascii", "empty-quoted"],
)
def test_a_malformed_key_is_refused_with_400(new_game: NewGame, key: str) -> None:
    game = new_game()
    answer = game.client.post(
        game.url("/rounds"),
        json={"stacks": [0, 3, 5]},
        headers=[*game.auth.items(), (KEY, key.encode("utf-8"))],
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "bad_idempotency_key"
    assert rounds(game) == 0


def test_a_key_of_255_visible_characters_and_a_quoted_key_are_taken(new_game: NewGame) -> None:
    game = new_game()
    long_key = "".join(chr(33 + i % 94) for i in range(255))
    assert open_round(game, [0, 3, 5], long_key).status_code == 201
    assert open_round(game, [0, 3, 5], long_key).headers[REPLAYED] == "true"
    game.complete(1, [20, 14, 8])
    # The draft's own form, a structured-field string, names the same key as without quotes.
    assert open_round(game, [2, 0, 5], '"quoted-key"').status_code == 201
    assert open_round(game, [2, 0, 5], "quoted-key").headers[REPLAYED] == "true"
    assert rounds(game) == 2


def test_a_refusal_is_not_kept_so_the_retry_runs_anew(new_game: NewGame) -> None:
    game = new_game()
    stale = open_round(game, [0, 3, 5], "after-conflict", **{"If-Match": '"7"'})
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    fresh = open_round(game, [0, 3, 5], "after-conflict", **{"If-Match": '"1"'})
    assert fresh.status_code == 201, fresh.text
    assert REPLAYED not in fresh.headers
    assert rounds(game) == 1


def test_the_key_belongs_to_its_credential(new_game: NewGame) -> None:
    game = new_game()
    assert open_round(game, [0, 3, 5], "shared-key").status_code == 201
    stranger = game.client.post(
        game.url("/rounds"),
        json={"stacks": [0, 3, 5]},
        headers={"Authorization": "Bearer not-the-token", KEY: "shared-key"},
    )
    assert stranger.status_code == 403  # not the kept answer of the game's writer


def test_the_same_key_on_another_game_is_another_key(new_game: NewGame) -> None:
    one, two = new_game(), new_game()
    assert open_round(one, [0, 3, 5], "per-game").status_code == 201
    other = open_round(two, [0, 3, 5], "per-game")
    assert other.status_code == 201 and REPLAYED not in other.headers
    assert rounds(one) == rounds(two) == 1


def test_a_created_game_is_replayed_with_its_token_which_the_database_keeps_sealed(
    client: TestClient, app: FastAPI
) -> None:
    body = {"players": ["Anna", "Ben"], "target": 50}
    first = client.post("/api/games", json=body, headers={KEY: "new-game-1"})
    again = client.post("/api/games", json=body, headers={KEY: "new-game-1"})
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["edit_token"] == first.json()["edit_token"]
    assert again.headers[REPLAYED] == "true"
    token = first.json()["edit_token"].encode()
    with app.state.engine.connect() as conn:
        rows = conn.execute(text("SELECT body FROM api_idempotency_keys")).scalars().all()
        keys = conn.execute(text("SELECT key_hash, scope FROM api_idempotency_keys")).all()
    assert rows and all(token not in bytes(row) for row in rows if row is not None)
    assert all("new-game-1" not in key for key, _ in keys)


def test_a_retry_while_the_first_request_runs_is_answered_409(
    new_game: NewGame, app: FastAPI
) -> None:
    game = new_game()
    path = game.url("/rounds")
    body = b'{"stacks":[0,3,5]}'
    store = IdempotencyStore(app.state.engine)
    claim = store.claim(
        "running-key",
        scope=f"POST {path}",
        credential=f"Bearer {game.token}",
        request_hash=fingerprint("POST", path, b"", body),
    )
    assert claim.state == "new"  # as if a first request had just begun
    answer = game.client.post(
        path,
        content=body,
        headers={**game.auth, KEY: "running-key", "Content-Type": "application/json"},
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "idempotency_key_in_use"
    assert answer.headers["retry-after"] == "1"
    assert rounds(game) == 0


def test_a_first_request_that_died_is_taken_over_by_its_retry(
    new_game: NewGame, app: FastAPI
) -> None:
    game = new_game()
    path = game.url("/rounds")
    body = b'{"stacks":[0,3,5]}'
    IdempotencyStore(app.state.engine).claim(
        "dead-key",
        scope=f"POST {path}",
        credential=f"Bearer {game.token}",
        request_hash=fingerprint("POST", path, b"", body),
        now=datetime.now(UTC) - idempotency.ABANDONED - timedelta(seconds=1),
    )
    answer = game.client.post(
        path,
        content=body,
        headers={**game.auth, KEY: "dead-key", "Content-Type": "application/json"},
    )
    assert answer.status_code == 201, answer.text
    assert rounds(game) == 1


def test_a_key_expires_after_a_day(new_game: NewGame, app: FastAPI) -> None:
    game = new_game()
    path = game.url("/rounds")
    body = b'{"stacks":[0,3,5]}'
    store = IdempotencyStore(app.state.engine)
    claim = store.claim(
        "old-key",
        scope=f"POST {path}",
        credential=f"Bearer {game.token}",
        request_hash=fingerprint("POST", path, b"", body),
        now=datetime.now(UTC) - idempotency.KEEP - timedelta(minutes=1),
    )
    store.keep("old-key", claim.key_id, KeptAnswer(201, [], b"{}"))
    answer = game.client.post(
        path,
        content=body,
        headers={**game.auth, KEY: "old-key", "Content-Type": "application/json"},
    )
    assert answer.status_code == 201 and REPLAYED not in answer.headers
    assert rounds(game) == 1


def test_an_answer_too_large_to_keep_is_not_replayed(
    new_game: NewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game()
    monkeypatch.setattr(idempotency, "MAX_KEPT_BODY", 10)
    first = open_round(game, [0, 3, 5], "too-large")
    again = open_round(game, [0, 3, 5], "too-large")
    assert first.status_code == 201
    assert again.status_code == 409
    assert again.json()["code"] == "idempotent_answer_not_kept"
    assert again.headers["location"] == first.headers["location"]
    assert rounds(game) == 1


def test_every_kind_of_write_is_replayed_once(new_game: NewGame, client: TestClient) -> None:
    game = new_game()
    opened = open_round(game, [0, 3, 5], "w-open")
    version = opened.json()["version"]
    writes: list[tuple[str, str, dict[str, Any] | None, dict[str, str]]] = [
        ("PUT", "/rounds/1", {"middle": [20, 14, 8]}, {}),
        ("PUT", "/rounds/1", {"stacks": [0, 4, 5], "middle": [20, 14, 8]}, {}),
        ("POST", "/undo", None, {"If-Match": f'"{version + 2}"'}),
        ("POST", "/finish", None, {}),
        ("POST", "/score", None, {}),
        ("DELETE", "/rounds/1", None, {}),
    ]
    for index, (method, suffix, body, extra) in enumerate(writes):
        headers = {**game.auth, **extra, KEY: f"w-{index}"}
        answers = [
            client.request(method, game.url(suffix), json=body, headers=headers) for _ in range(2)
        ]
        assert answers[0].status_code < 300, (method, suffix, answers[0].text)
        assert answers[1].status_code == answers[0].status_code
        assert answers[1].json() == answers[0].json()
        assert answers[1].headers[REPLAYED] == "true"
    history = [h["action"] for h in client.get(game.url("/history")).json()]
    assert history == [
        "create",
        "open_round",
        "complete_round",
        "correct_round",
        "undo",
        "finish",
        "score",
        "remove_round",
    ]


def test_a_group_game_is_created_once(client: TestClient) -> None:
    group = client.post("/api/groups", json={"name": "Tuesdays", "members": ["Anna", "Ben"]})
    assert group.status_code == 201, group.text
    auth = {"Authorization": f"Bearer {group.json()['token']}"}
    url = f"/api/groups/{group.json()['id']}/games"
    body = {"players": ["Anna", "Ben"], "target": 50}
    first = client.post(url, json=body, headers={**auth, KEY: "group-game"})
    again = client.post(url, json=body, headers={**auth, KEY: "group-game"})
    assert first.status_code == again.status_code == 201, again.text
    assert again.json() == first.json() and again.headers[REPLAYED] == "true"
    assert len(client.get(url).json()) == 1


# ------------------------------------------------------------ two processes
@pytest.fixture
def two_apps(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one SQLite file, as two server processes on one database."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    one = create_app(Settings(data_dir=tmp_path / "one", database_url=url))
    two = create_app(Settings(data_dir=tmp_path / "two", database_url=url))
    with TestClient(one) as first, TestClient(two) as second:
        yield first, second


def test_a_retry_that_reaches_another_process_is_answered_the_same(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    first, second = two_apps
    created = first.post("/api/games", json={"players": ["Anna", "Ben"]})
    game_id, token = created.json()["id"], created.json()["edit_token"]
    headers = {"Authorization": f"Bearer {token}", KEY: "across-processes"}
    url = f"/api/games/{game_id}/rounds"
    one = first.post(url, json={"stacks": [0, 4]}, headers=headers)
    two = second.post(url, json={"stacks": [0, 4]}, headers=headers)
    assert one.status_code == two.status_code == 201
    assert two.json() == one.json() and two.headers[REPLAYED] == "true"
    assert len(second.get(f"/api/games/{game_id}").json()["rounds"]) == 1


def test_openapi_names_the_header_on_every_write(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in (
        ("/api/games", "post"),
        ("/api/games/{game_id}/rounds", "post"),
        ("/api/games/{game_id}/rounds/{n}", "put"),
        ("/api/games/{game_id}/undo", "post"),
        ("/api/groups/{group_id}/games", "post"),
    ):
        operation = paths[path][method]
        assert "Idempotency-Key" in [p["name"] for p in operation["parameters"]], path
        assert {"400", "409", "422"} <= set(operation["responses"]), path
    assert all(
        p["name"] != "Idempotency-Key"
        for p in paths["/api/games/{game_id}"]["get"].get("parameters", [])
    )


def test_a_body_over_the_limit_is_refused_before_its_key_is_taken(new_game: NewGame) -> None:
    game = new_game()
    big = b'{"stacks": [0, 3, 5], "pad": "' + b"x" * (1024 * 1024) + b'"}'
    headers = {**game.auth, KEY: "too-big", "Content-Type": "application/json"}
    refused = game.client.post(game.url("/rounds"), content=big, headers=headers)
    assert refused.status_code == 413 and refused.json()["code"] == "too_large"
    # The key was never taken: the same key with a body that fits runs.
    assert open_round(game, [0, 3, 5], "too-big").status_code == 201
