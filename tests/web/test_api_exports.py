"""History (T6), CSV and JSON export, and import of an export."""

from __future__ import annotations

from fastapi.testclient import TestClient

from helpers.api import NewGame


def test_t6_history_records_every_change_with_time(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    game.client.put(game.url("/rounds/1"), json={"middle": [13, 14]}, headers=game.auth)
    game.open([0, 2])
    game.client.delete(game.url("/rounds/2"), headers=game.auth)
    response = game.client.get(game.url("/history"))
    assert response.status_code == 200
    entries = response.json()
    assert [e["action"] for e in entries] == [
        "create",
        "open_round",
        "complete_round",
        "correct_round",
        "open_round",
        "remove_round",
    ]
    assert [e["version"] for e in entries] == [1, 2, 3, 4, 5, 6]
    assert entries[3]["round"] == 1
    assert entries[3]["detail"]["before"]["middle"] == {"Anna": 12, "Ben": 14}
    assert entries[3]["detail"]["after"]["middle"] == {"Anna": 13, "Ben": 14}
    assert all(e["at"].endswith("+00:00") for e in entries)
    assert game.token not in response.text


def test_t6_csv_export_lists_rounds_and_totals(new_game: NewGame) -> None:
    game = new_game(["Anna", "Björn"])
    game.play([0, 3], [12, 14])
    game.open([2, 0])
    response = game.client.get(game.url("/export.csv"))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines == [
        "round,caller,Anna stack,Anna middle,Anna points,Anna total,"
        "Björn stack,Björn middle,Björn points,Björn total",
        "1,Anna,0,12,12,12,3,14,8,8",
        "2,Björn,2,,,,0,,,",
    ]


def test_t6_json_export_reimports_as_a_new_game(new_game: NewGame, client: TestClient) -> None:
    game = new_game(["Anna", "Ben", "Cleo"], mode="rounds", rounds=3)
    game.play([0, 3, 5], [12, 14, 5])
    game.open([0, 4, 5])
    game.complete(2, [12, 2, 5], confirm=True)
    exported = client.get(game.url("/export.json"))
    assert exported.status_code == 200
    data = exported.json()
    assert data["format"] == "ligretto-tafel" and data["id"] == game.id
    assert game.token not in exported.text
    imported = client.post("/api/games/import", json=data)
    assert imported.status_code == 201
    body = imported.json()
    assert body["id"] != game.id and body["edit_token"] != game.token
    original = game.get()
    for key in ("players", "mode", "agreed_rounds", "rounds", "totals", "ranking", "status"):
        assert body[key] == original[key], key
    again = client.get(f"/api/games/{body['id']}").json()
    assert again["rounds"] == original["rounds"]


def test_t6_import_refuses_broken_exports_and_stores_nothing(
    new_game: NewGame, client: TestClient
) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    data = client.get(game.url("/export.json")).json()
    data["rounds"][0]["stacks"] = {"Anna": 0, "Ben": 0}
    response = client.post("/api/games/import", json=data)
    assert response.status_code == 422
    assert response.json()["code"] == "two_callers"
    assert response.json()["detail"].startswith("round 1: two empty stacks")
    for bad in ([1, 2], "x", {"players": "AB"}, {"players": ["A", "B"], "rounds": "many"}):
        refused = client.post("/api/games/import", json=bad)
        assert refused.status_code == 422, bad
        assert refused.json()["code"]
