"""``/api/games``: creation (T1), reading, finish and score (T4, T5), OpenAPI."""

from __future__ import annotations

import base64
import itertools

from fastapi.testclient import TestClient

from helpers.api import NewGame


def test_t1_create_target_game_returns_id_token_and_urls(client: TestClient) -> None:
    response = client.post("/api/games", json={"players": [" Anna", "Ben"], "mode": "target"})
    assert response.status_code == 201
    body = response.json()
    assert body["players"] == ["Anna", "Ben"]
    assert body["mode"] == "target" and body["target"] == 99
    assert body["status"] == "playing" and body["rounds"] == [] and body["version"] == 1
    assert len(body["id"]) >= 16 and len(body["edit_token"]) >= 32
    assert body["watch_url"].endswith(f"/g/{body['id']}")
    # The pages' own edit link: the token in the fragment, which no server sees.
    assert body["edit_url"].endswith(f"/g/{body['id']}/edit#t={body['edit_token']}")
    assert response.headers["location"] == f"/api/games/{body['id']}"
    assert response.headers["etag"] == '"1"'


def test_t1_create_rounds_game_with_cards_and_row_storage(client: TestClient) -> None:
    players = [f"P{i}" for i in range(16)]
    response = client.post(
        "/api/games",
        json={
            "players": players,
            "mode": "rounds",
            "rounds": 8,
            "deck": "cards",
            "row_storage": True,
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["mode"], body["agreed_rounds"], body["target"]) == ("rounds", 8, None)
    assert (body["deck"], body["row_storage"]) == ("cards", True)


def test_t1_ids_are_unguessable(client: TestClient) -> None:
    created = [client.post("/api/games", json={"players": ["A", "B"]}).json() for _ in range(5)]
    ids = {body["id"] for body in created}
    tokens = {body["edit_token"] for body in created}
    assert len(ids) == len(tokens) == 5
    for body in created:
        # URL-safe base64 of random bytes: at least 64 bits of id, 128 of token.
        assert len(base64.urlsafe_b64decode(body["id"] + "==")) * 8 >= 64
        assert len(base64.urlsafe_b64decode(body["edit_token"] + "==")) * 8 >= 128
    # Not counting up: neighbouring ids share no long prefix.
    ordered = sorted(ids)
    assert all(a[:8] != b[:8] for a, b in itertools.pairwise(ordered))


def test_t1_bad_games_refused_with_a_clear_message(client: TestClient) -> None:
    cases = [
        ({"players": ["Anna"]}, "too_few_players", "at least 2 players"),
        ({"players": [f"P{i}" for i in range(13)]}, "too_many_players", "up to 16"),
        ({"players": ["Anna", "anna"]}, "duplicate_name", "already taken by Anna"),
        # Cyrillic and Greek capital A: drawn like Latin A, so the same player
        ({"players": ["Anna", "\u0410nna"]}, "duplicate_name", "already taken by Anna"),
        ({"players": ["Anna", "\u0391nna"]}, "duplicate_name", "already taken by Anna"),
        # capitals whose small letters look like no Latin one: Cyrillic В, Т О М
        ({"players": ["Ben", "\u0412en"]}, "duplicate_name", "already taken by Ben"),
        ({"players": ["TOM", "\u0422\u041e\u041c"]}, "duplicate_name", "already taken by TOM"),
        ({"players": ["Anna", "Anna\ufe00"]}, "bad_name", "invisible"),
        ({"players": ["Anna", "Anna\U000e0100"]}, "bad_name", "invisible"),
        ({"players": ["Anna", ""]}, "empty_name", "empty"),
        ({"players": ["Anna", "B" * 41]}, "name_too_long", "at most 40"),
        ({"players": ["A", "B"], "target": 0}, "bad_target", "1 to 1000"),
        ({"players": ["A", "B"], "target": 1001}, "bad_target", "1 to 1000"),
        ({"players": ["A", "B"], "mode": "rounds"}, "bad_rounds", "agreed number"),
        ({"players": ["A", "B"], "mode": "rounds", "rounds": 101}, "bad_rounds", "1 to 100"),
        ({"players": ["A", "B"], "mode": "rounds", "rounds": 3, "target": 99}, "bad_target", ""),
        ({"players": ["A", "B"], "mode": "forever"}, "invalid_request", "mode"),
        ({"players": "Anna, Ben"}, "invalid_request", "players"),
        ({"players": ["A", "B"], "colour": "red"}, "invalid_request", "colour"),
        ({}, "invalid_request", "players"),
        # JSON true is no number and "yes" no boolean: nothing is coerced.
        ({"players": ["A", "B"], "target": True}, "invalid_request", "target"),
        ({"players": ["A", "B"], "target": "99"}, "invalid_request", "target"),
        ({"players": ["A", "B"], "mode": "rounds", "rounds": True}, "invalid_request", "rounds"),
        ({"players": ["A", "B"], "row_storage": "yes"}, "invalid_request", "row_storage"),
        ({"players": ["A", "B"], "row_storage": 1}, "invalid_request", "row_storage"),
    ]
    for body, code, words in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, body
        error = response.json()
        assert error["code"] == code, (body, error)
        assert words in error["detail"], (body, error)


def test_get_game_shows_rounds_totals_ranking_without_token(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [12, 14, 5])
    response = game.client.get(game.url())
    assert response.status_code == 200
    body = response.json()
    assert "edit_token" not in body and game.token not in response.text
    assert body["rounds"] == [
        {
            "n": 1,
            "stacks": {"Anna": 0, "Ben": 3, "Cleo": 5},
            "middle": {"Anna": 12, "Ben": 14, "Cleo": 5},
            "points": {"Anna": 12, "Ben": 8, "Cleo": -5},
            "caller": "Anna",
            "complete": True,
            "confirmed": False,
            "totals": {"Anna": 12, "Ben": 8, "Cleo": -5},
        }
    ]
    assert body["totals"] == {"Anna": 12, "Ben": 8, "Cleo": -5}
    assert body["ranking"] == [
        {"player": "Anna", "total": 12, "rank": 1},
        {"player": "Ben", "total": 8, "rank": 2},
        {"player": "Cleo", "total": -5, "rank": 3},
    ]
    assert (body["status"], body["winners"], body["version"]) == ("playing", [], 3)
    assert response.headers["etag"] == '"3"'


def test_unknown_game_is_404(client: TestClient) -> None:
    for path in ("/api/games/doesnotexist", "/api/games/x/history", "/api/games/x/export.csv"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json() == {
            "detail": "there is no game with this id",
            "code": "game_not_found",
        }


def test_t4_tie_at_99_goes_to_tiebreak_then_one_alone_wins(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben"])
    for _ in range(3):
        game.play([0, 1], [30, 32])  # +30 each
    body = game.play([0, 1], [10, 12])  # 100, 100
    assert (body["status"], body["winners"]) == ("tiebreak", [])
    body = game.play([1, 0], [20, 10])  # 118, 110
    assert (body["status"], body["winners"], body["finished"]) == ("finished", ["Anna"], True)
    refused = game.open([0, 1])
    assert refused.status_code == 422
    assert refused.json()["code"] == "game_finished"


def test_t4_target_game_finished_early_by_the_table(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    response = game.client.post(game.url("/finish"), headers=game.auth)
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["closed"], body["winners"]) == ("finished", True, ["Anna"])


def test_t5_rounds_game_tied_after_last_round_has_two_winners(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben", "Cleo"], mode="rounds", rounds=2)
    game.play([0, 2, 4], [15, 12, 6])
    body = game.play([2, 0, 4], [12, 15, 6])  # 23, 23, -4
    assert body["status"] == "finished"
    finished = game.client.post(game.url("/finish"), headers=game.auth)
    assert finished.status_code == 200
    scored = game.client.post(game.url("/score"), headers=game.auth)
    assert scored.status_code == 200
    body = scored.json()
    assert (body["scored"], body["winners"]) == (True, ["Anna", "Ben"])
    assert [s["rank"] for s in body["ranking"]] == [1, 1, 3]
    refused = game.open([0, 1, 2])
    assert refused.status_code == 422
    assert refused.json()["code"] in ("all_rounds_played", "game_finished")


def test_t5_finish_refused_while_a_round_is_pending(new_game: NewGame) -> None:
    game = new_game()
    assert game.open([0, 3, 5]).status_code == 201
    response = game.client.post(game.url("/finish"), headers=game.auth)
    assert response.status_code == 422
    assert response.json()["code"] == "round_pending"
    assert game.get()["closed"] is False


def test_openapi_schema_documents_the_endpoints(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/rounds",
        "/api/games/{game_id}/rounds/{n}",
        "/api/games/{game_id}/finish",
        "/api/games/{game_id}/score",
        "/api/games/{game_id}/history",
        "/api/games/{game_id}/export.csv",
        "/api/games/{game_id}/export.json",
        "/api/games/import",
        "/api/games/{game_id}/events",
    ):
        assert path in paths, path
    assert set(paths["/api/games/{game_id}/rounds/{n}"]) == {"get", "put", "delete"}
