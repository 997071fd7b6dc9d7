"""What an import and every other body refuse: keys twice, players as an object,
foreign values kept in the history, and texts that cannot be encoded (lone
surrogates) — each a clear 422 (never a 500), with nothing stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from ligretto.tafel.limits import MAX_NAME_LENGTH, MAX_TARGET

NewGame = Callable[..., Any]  # the ``new_game`` fixture (tests/web/conftest.py)
JSON = {"Content-Type": "application/json"}


def games_stored(app: FastAPI) -> int:
    with app.state.engine.connect() as conn:
        count: int = conn.execute(text("SELECT count(*) FROM tafel_games")).scalar_one()
    return count


@pytest.fixture
def export(new_game: NewGame, client: TestClient) -> dict[str, Any]:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    data: dict[str, Any] = client.get(game.url("/export.json")).json()
    return data


def test_a_key_given_twice_anywhere_in_an_import_is_refused(
    app: FastAPI, client: TestClient, export: dict[str, Any]
) -> None:
    whole = json.dumps(export)
    players = json.dumps(export["players"])
    first_round = json.dumps(export["rounds"][0]["stacks"])
    bodies = [
        # {"players": [...], "players": [...], ...}
        whole.replace('"players": ', '"players": ["Cleo", "Dan"], "players": ', 1),
        whole.replace(first_round, first_round[:-1] + ', "Anna": 5}', 1),
    ]
    assert players in bodies[0]
    before = games_stored(app)
    for body in bodies:
        response = client.post("/api/games/import", content=body.encode(), headers=JSON)
        assert response.status_code == 422, response.text
        answer = response.json()
        assert answer["code"] == "bad_import"
        assert "appears twice" in answer["detail"]
    assert games_stored(app) == before
    accepted = client.post("/api/games/import", content=whole.encode(), headers=JSON)
    assert accepted.status_code == 201, accepted.text


def test_players_as_an_object_are_refused_not_read_as_their_keys(
    app: FastAPI, client: TestClient, export: dict[str, Any]
) -> None:
    before = games_stored(app)
    for players in ({"Anna": 1, "Ben": 2}, "AnnaBen", None):
        response = client.post("/api/games/import", json={**export, "players": players})
        assert response.status_code == 422, (players, response.text)
        assert response.json()["code"] == "bad_import"
        assert "players must be a list" in response.json()["detail"]
    assert games_stored(app) == before


def test_an_import_keeps_no_foreign_value_in_the_history(
    client: TestClient, export: dict[str, Any]
) -> None:
    big = {"x" * 10: ["y" * 1000] * 700}  # about 700 KB
    sent = {**export, "id": big, "note": big}
    response = client.post("/api/games/import", json=sent)
    assert response.status_code == 201, response.text
    history = client.get(f"/api/games/{response.json()['id']}/history")
    assert history.status_code == 200
    entries = history.json()
    assert [e["action"] for e in entries] == ["import"]
    assert entries[0]["detail"] == {"players": ["Anna", "Ben"], "rounds": 1}
    assert len(history.content) < 1000


def test_an_import_that_is_not_json_or_not_declared_json_is_refused(
    app: FastAPI, client: TestClient, export: dict[str, Any]
) -> None:
    before = games_stored(app)
    for body, headers in (
        (b"{", JSON),
        (b"\xff\xfe", JSON),
        (b"[" * 100_000, JSON),
        (json.dumps(export).encode(), {"Content-Type": "text/plain"}),
    ):
        response = client.post("/api/games/import", content=body, headers=headers)
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "invalid_request"
    for body in (b"[]", b"null", b"3"):
        response = client.post("/api/games/import", content=body, headers=JSON)
        assert response.status_code == 422
        assert response.json()["code"] == "bad_import"
    assert games_stored(app) == before


LONE = '"\\ud800"'  # a lone surrogate, as JSON writes it: no UTF-8 form


def lone(template: str) -> str:
    """*template* with each ``@`` replaced by the lone surrogate's JSON."""
    return template.replace("@", LONE)


def test_lone_surrogates_never_cause_a_500_anywhere(
    app: FastAPI, client: TestClient, new_game: NewGame, export: dict[str, Any]
) -> None:
    game = new_game(["Anna", "Ben"])
    auth = {**game.auth, **JSON}
    whole = json.dumps(export)
    probes: list[tuple[str, str, str, dict[str, str]]] = [
        ("POST", game.url("/rounds"), lone('{"stacks": {@: 0, "Ben": 3}}'), auth),
        ("POST", game.url("/rounds"), lone('{"stacks": {"Anna": @, "Ben": 3}}'), auth),
        ("POST", game.url("/rounds"), lone('{"stacks": [@, 3]}'), auth),
        ("POST", game.url("/rounds"), lone("{@: 1}"), auth),
        ("POST", "/api/games", lone('{"players": [@, "Ben"]}'), JSON),
        ("POST", "/api/games", lone('{"players": ["A", "B"], "mode": @}'), JSON),
        ("POST", "/api/games/import", lone('{"players": [@, "B"]}'), JSON),
        ("POST", "/api/games/import", lone('{"players": ["A", "B"], "deck": @}'), JSON),
        ("POST", "/api/games/import", whole.replace('"Anna": 0', f"{LONE}: 0", 1), JSON),
        ("POST", "/api/games/import", lone("{@: 1, @: 2}"), JSON),
        ("POST", "/api/tables", lone('{"name": @}'), JSON),
        ("POST", "/play/ABCD/seat-link", lone("{@: 1}"), JSON),
        ("POST", "/play/ABCD/seat-link", lone('{"token": @}'), JSON),
    ]
    before = games_stored(app)
    for method, url, body, headers in probes:
        response = client.request(method, url, content=body.encode(), headers=headers)
        assert response.status_code in (404, 422), (url, body, response.text)
        answer = response.json()
        assert answer["detail"], (url, body)
    assert games_stored(app) == before
    assert game.get()["version"] == 1


def test_an_import_with_a_lone_surrogate_beside_the_game_stores_only_the_game(
    client: TestClient, export: dict[str, Any]
) -> None:
    # The id and other keys of an export are not part of the game: they are
    # neither kept nor repeated, so they cannot break the answer either.
    body = json.dumps(export).replace(f'"id": "{export["id"]}"', f'"id": {LONE}', 1)
    assert LONE in body
    response = client.post("/api/games/import", content=body.encode(), headers=JSON)
    assert response.status_code == 201, response.text
    history = client.get(f"/api/games/{response.json()['id']}/history").json()
    assert history[0]["detail"] == {"players": ["Anna", "Ben"], "rounds": 1}


def test_the_schema_takes_the_name_limits_from_the_domain(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    players = schema["components"]["schemas"]["GameIn"]["properties"]["players"]
    assert players["items"]["maxLength"] == MAX_NAME_LENGTH
    assert f"at most {MAX_NAME_LENGTH} characters" in players["description"]
    target = schema["components"]["schemas"]["GameIn"]["properties"]["target"]
    assert str(MAX_TARGET) in target["description"]
    # A name the domain accepts (trimmed to 40) is not refused by the schema.
    name = " " + "N" * MAX_NAME_LENGTH + " "
    created = client.post("/api/games", json={"players": [name, "Ben"]})
    assert created.status_code == 201, created.text
    assert created.json()["players"][0] == name.strip()
