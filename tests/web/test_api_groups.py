"""``/api/groups``: tokens, If-Match, games of a group, history, statistics, league, export."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.groups import simulated_group


def _group(client: TestClient, members: list[str] | None = None) -> dict[str, Any]:
    response = client.post(
        "/api/groups", json={"name": "Thursday table", "members": members or ["Anna", "Ben"]}
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    assert response.headers["ETag"] == '"1"'
    return data


def _auth(token: str, version: int | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    return headers


def _play(
    client: TestClient, game: dict[str, Any], rounds: list[tuple[list[int], list[int]]]
) -> None:
    headers = {"Authorization": f"Bearer {game['edit_token']}"}
    for n, (stacks, middle) in enumerate(rounds, start=1):
        r = client.post(f"/api/games/{game['id']}/rounds", json={"stacks": stacks}, headers=headers)
        assert r.status_code == 201, r.text
        r = client.put(
            f"/api/games/{game['id']}/rounds/{n}", json={"middle": middle}, headers=headers
        )
        assert r.status_code == 200, r.text


def test_a_group_is_created_with_its_token_once_and_read_without_it(client: TestClient) -> None:
    group = _group(client)
    assert group["edit_url"].endswith(f"/groups/{group['id']}/edit#t={group['token']}")
    assert "/edit/" not in group["edit_url"]  # the token never in a path
    read = client.get(f"/api/groups/{group['id']}")
    assert read.status_code == 200
    assert "token" not in read.json() and read.json()["members"] == ["Anna", "Ben"]
    assert client.get("/api/groups/nope").json()["code"] == "group_not_found"


def test_writes_need_the_group_token_and_the_current_version(client: TestClient) -> None:
    group = _group(client)
    gid = group["id"]
    no = client.post(f"/api/groups/{gid}/members", json={"names": ["Cleo"]})
    assert no.status_code == 403 and no.json()["code"] == "forbidden"
    wrong = client.post(f"/api/groups/{gid}/members", json={"names": ["Cleo"]}, headers=_auth("x"))
    assert wrong.status_code == 403
    ok = client.post(
        f"/api/groups/{gid}/members", json={"names": ["Cleo"]}, headers=_auth(group["token"], 1)
    )
    assert ok.status_code == 200 and ok.headers["ETag"] == '"2"'
    stale = client.patch(f"/api/groups/{gid}", json={"name": "X"}, headers=_auth(group["token"], 1))
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    dup = client.post(
        f"/api/groups/{gid}/members", json={"names": ["cleo"]}, headers=_auth(group["token"])
    )
    assert dup.status_code == 422 and dup.json()["code"] == "duplicate_name"
    season = client.patch(
        f"/api/groups/{gid}",
        json={"season": {"start": "2026-09-01", "end": "2026-01-01"}},
        headers=_auth(group["token"]),
    )
    assert season.status_code == 422 and season.json()["code"] == "bad_season"
    season = client.patch(
        f"/api/groups/{gid}",
        json={"season": {"start": "2026-01-01", "end": "2026-06-30"}},
        headers=_auth(group["token"]),
    )
    assert season.json()["season"] == {"start": "2026-01-01", "end": "2026-06-30"}


def test_games_of_the_group_history_stats_and_league(client: TestClient) -> None:
    group = _group(client)
    gid, token = group["id"], group["token"]
    body = {"players": ["Anna", "Ben", "Cleo"], "mode": "rounds", "rounds": 1}
    refused = client.post(f"/api/groups/{gid}/games", json=body, headers=_auth(token))
    assert refused.status_code == 422 and refused.json()["code"] == "new_members"
    assert "Cleo" in refused.json()["detail"]
    made = client.post(
        f"/api/groups/{gid}/games", json={**body, "new_members": ["Cleo"]}, headers=_auth(token)
    )
    assert made.status_code == 201, made.text
    first = made.json()["game"]
    assert made.json()["group"]["members"] == ["Anna", "Ben", "Cleo"]
    _play(client, first, [([0, 3, 5], [20, 12, 5])])
    second = client.post(
        f"/api/groups/{gid}/games",
        json={"players": ["Ben", "Anna"], "mode": "rounds", "rounds": 1},
        headers=_auth(token),
    ).json()["game"]
    _play(client, second, [([2, 0], [10, 15])])
    games = client.get(f"/api/groups/{gid}/games").json()
    assert [g["id"] for g in games] == [second["id"], first["id"]]  # newest first
    assert games[0]["winners"] == ["Anna"]
    assert [g["id"] for g in client.get(f"/api/groups/{gid}/games?member=cleo").json()] == [
        first["id"]
    ]
    assert client.get(f"/api/groups/{gid}/games?mode=target").json() == []
    stats = {s["name"]: s for s in client.get(f"/api/groups/{gid}/stats").json()["members"]}
    assert stats["Anna"]["games"] == 2 and stats["Anna"]["wins"] == 2
    assert stats["Anna"]["longest_streak"] == 2 and stats["Anna"]["stops"] == 2
    assert stats["Ben"]["points"] == 6 + 6
    table = client.get(f"/api/groups/{gid}/league?all=true").json()
    assert table["games"] == 2 and table["rows"][0]["name"] == "Anna"
    rating = table["rows"][0]["rating"]
    assert rating["rating"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
    member = client.get(f"/api/groups/{gid}/members/ANNA").json()
    assert member["stats"]["name"] == "Anna" and member["round_points"] == [20, 15]
    assert len(member["ratings"]) == 2
    assert client.get(f"/api/groups/{gid}/members/Zoe").status_code == 404
    # a correction of a round changes the statistics at once (T6)
    client.put(
        f"/api/games/{first['id']}/rounds/1",
        json={"middle": [19, 12, 5]},
        headers={"Authorization": f"Bearer {first['edit_token']}"},
    )
    stats = {s["name"]: s for s in client.get(f"/api/groups/{gid}/stats").json()["members"]}
    assert stats["Anna"]["points"] == 19 + 15
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/api/groups/{gid}/stats.csv").content.decode("utf-8-sig"))
        )
    )
    assert rows[0][0] == "member" and rows[1][0] == "Anna" and rows[1][6] == "34"
    de = client.get(f"/api/groups/{gid}/stats.csv?style=de").content.decode("utf-8-sig")
    assert de.splitlines()[1].startswith("Anna;2;2;")


def test_an_existing_game_joins_one_group_with_its_edit_token(client: TestClient) -> None:
    group = _group(client)
    gid, token = group["id"], group["token"]
    game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
    path = f"/api/groups/{gid}/games/{game['id']}"
    assert client.put(path, json={"edit_token": "wrong"}, headers=_auth(token)).status_code == 403
    added = client.put(path, json={"edit_token": game["edit_token"]}, headers=_auth(token))
    assert added.status_code == 200 and added.json()["games"] == 1
    again = client.put(path, json={"edit_token": game["edit_token"]}, headers=_auth(token))
    assert again.status_code == 409 and again.json()["code"] == "game_in_group"
    assert client.delete(path, headers=_auth(token)).json()["games"] == 0
    assert client.delete(path, headers=_auth(token)).json()["code"] == "game_not_in_group"
    missing = client.put(
        f"/api/groups/{gid}/games/nope", json={"edit_token": "x"}, headers=_auth(token)
    )
    assert missing.status_code == 404


def test_export_and_import_of_a_whole_group(client: TestClient) -> None:
    group = _group(client)
    gid, token = group["id"], group["token"]
    game = client.post(
        f"/api/groups/{gid}/games",
        json={"players": ["Anna", "Ben"], "mode": "rounds", "rounds": 1},
        headers=_auth(token),
    ).json()["game"]
    _play(client, game, [([0, 3], [20, 12])])
    export = client.get(f"/api/groups/{gid}/export.json")
    assert export.status_code == 200 and token not in export.text
    assert game["edit_token"] not in export.text
    imported = client.post(
        "/api/groups/import", content=export.content, headers={"Content-Type": "application/json"}
    )
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["id"] != gid and copy["games"] == 1 and copy["members"] == ["Anna", "Ben"]
    stats = client.get(f"/api/groups/{copy['id']}/stats").json()["members"]
    assert [s["points"] for s in stats] == [20, 6]
    bad = client.post("/api/groups/import", json={"name": "x", "games": [{"game": {}}]})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_import"
    twice = client.post(
        "/api/groups/import",
        content=b'{"name": "a", "name": "b"}',
        headers={"Content-Type": "application/json"},
    )
    assert twice.status_code == 422


def test_league_default_season_is_the_groups_or_this_year(client: TestClient) -> None:
    group = _group(client)
    gid = group["id"]
    table = client.get(f"/api/groups/{gid}/league").json()
    assert table["season"]["start"].endswith("-01-01")
    assert client.get(f"/api/groups/{gid}/league?year=2020").json()["season"] == {
        "start": "2020-01-01",
        "end": "2020-12-31",
    }
    half = client.get(f"/api/groups/{gid}/league?start=2020-01-01").json()
    assert half["code"] == "bad_season"
    assert client.get(f"/api/groups/{gid}/league?year=0").status_code == 422


def test_a_simulated_group_imports_and_its_league_follows_the_bot_levels(
    client: TestClient,
) -> None:
    from ligretto.tafel.exchange import game_to_json

    members, games = simulated_group(60, seed=2)
    export = {
        "name": "Bots",
        "members": members,
        "games": [
            {
                "played_at": g.played_at.isoformat(),
                "game": game_to_json(
                    g.game, game_id=g.id, version=1, created_at=g.played_at, updated_at=g.played_at
                ),
            }
            for g in games
        ],
    }
    imported = client.post("/api/groups/import", json=export)
    assert imported.status_code == 201, imported.text
    table = client.get(f"/api/groups/{imported.json()['id']}/league?all=true").json()
    assert table["games"] == 60
    assert table["rows"][0]["name"].startswith(("Expert", "Hard"))
    assert table["rows"][-1]["name"].startswith(("Easy", "Medium"))


def test_t1_a_look_alike_name_is_no_new_member(client: TestClient) -> None:
    group = _group(client)
    gid, headers = group["id"], _auth(group["token"])
    # Cyrillic and Greek capital A; Greek capitals only (Ν is drawn like N, ν not like n)
    for alike in ("\u0410nna", "\u0391NNA", "\u0391\u039d\u039d\u0391", "\u0392EN"):
        dup = client.post(f"/api/groups/{gid}/members", json={"names": [alike]}, headers=headers)
        assert dup.status_code == 422 and dup.json()["code"] == "duplicate_name", dup.text
    hidden = client.post(
        f"/api/groups/{gid}/members", json={"names": ["Ben\u034f"]}, headers=headers
    )
    assert hidden.status_code == 422 and hidden.json()["code"] == "bad_name", hidden.text
    assert client.get(f"/api/groups/{gid}").json()["members"] == ["Anna", "Ben"]
    # and the look-alike spelling finds the member it looks like
    found = client.get(f"/api/groups/{gid}/members/\u0410nna")
    assert found.status_code == 200 and found.json()["stats"]["name"] == "Anna", found.text


def test_t6_the_streamed_export_is_the_exchange_format_byte_for_byte(
    client: TestClient,
) -> None:
    from ligretto.store.group_export import EXPORT_BATCH
    from ligretto.tafel.exchange import game_to_json
    from ligretto.tafel.group_exchange import to_text

    members, games = simulated_group(2 * EXPORT_BATCH + 5, seed=3)
    export = {
        "name": "Bøkene på fjellet «Ål»",
        "members": members,
        "season": {"start": "2025-03-01", "end": "2026-02-28"},
        "games": [
            {
                "played_at": g.played_at.isoformat(),
                "game": game_to_json(
                    g.game, game_id=g.id, version=1, created_at=g.played_at, updated_at=g.played_at
                ),
            }
            for g in games
        ],
    }
    gid = client.post("/api/groups/import", json=export).json()["id"]
    queries = client.app.state.groups.queries  # type: ignore[attr-defined]
    whole = to_text(queries.export_json(gid)).encode()
    cold = client.get(f"/api/groups/{gid}/export.json")  # every game read from the database
    assert client.get(f"/api/groups/{gid}/stats").status_code == 200
    warm = client.get(f"/api/groups/{gid}/export.json")  # every game kept by the statistics
    for streamed in (cold, warm):
        assert streamed.status_code == 200
        assert streamed.headers["content-type"] == "application/json"
        assert streamed.headers["content-disposition"] == (
            f'attachment; filename="group-{gid}.json"'
        )
        assert streamed.content == whole
    assert len(streamed.json()["games"]) == len(games)
    missing = client.get("/api/groups/nope0000000000000000/export.json")
    assert missing.status_code == 404 and missing.json()["code"] == "group_not_found"


def test_t6_a_group_import_holds_at_most_max_group_rounds(client: TestClient) -> None:
    from ligretto.tafel.limits import MAX_GROUP_ROUNDS

    # The rounds are counted before any is checked: empty ones will do.
    games = [{"played_at": "2025-01-01T19:00", "game": {"rounds": [{}] * 1000}}]
    body = {"name": "Family", "members": ["Anna"], "games": games * (MAX_GROUP_ROUNDS // 1000 + 1)}
    refused = client.post("/api/groups/import", json=body)
    assert refused.status_code == 422
    assert refused.json()["code"] == "too_many_rounds"
    assert refused.json()["detail"].startswith(f"a group import holds at most {MAX_GROUP_ROUNDS}")


def test_a_group_import_of_too_many_json_values_is_refused_before_parsing(
    client: TestClient,
) -> None:
    from ligretto.web.limits import GROUP_IMPORT_VALUES

    # Empty lists: three bytes each, yet several times that in memory once parsed.
    body = b'{"name":"x","games":[' + b",".join([b"[]"] * (GROUP_IMPORT_VALUES // 5 + 1)) + b"]}"
    refused = client.post(
        "/api/groups/import", content=body, headers={"Content-Type": "application/json"}
    )
    assert refused.status_code == 413 and refused.json()["code"] == "too_large"


def test_a_large_groups_first_statistics_answer_202_and_are_prepared_meanwhile(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from ligretto.store import group_queries

    group = _group(client)
    gid, token = group["id"], group["token"]
    game = client.post(
        f"/api/groups/{gid}/games",
        json={"players": ["Anna", "Ben"], "mode": "rounds", "rounds": 1},
        headers=_auth(token),
    ).json()["game"]
    _play(client, game, [([0, 3], [20, 12])])
    # Every group counts as large: nothing is kept yet, so every answer is prepared.
    monkeypatch.setattr(group_queries, "PREPARE_ABOVE_ROUNDS", 0)
    paths = [
        f"/api/groups/{gid}/stats.csv",
        f"/api/groups/{gid}/league?all=true",
        f"/api/groups/{gid}/members/anna",
        f"/api/groups/{gid}/games",
    ]
    for path in paths:
        first = client.get(path)
        assert first.status_code == 202, path
        assert first.json()["code"] == "preparing"
        assert first.headers["retry-after"] == "5"
        for _ in range(200):  # the background work is short here; ask again until it is kept
            answer = client.get(path)
            if answer.status_code != 202:
                break
            time.sleep(0.05)
        assert answer.status_code == 200, path
    # The table of statistics was prepared for the CSV: the JSON answers at once.
    assert client.get(f"/api/groups/{gid}/stats").json()["members"][0]["points"] == 20
    assert client.get(paths[2]).json()["round_points"] == [20]
    assert client.get(f"/api/groups/{gid}/members/nobody").status_code == 404
    assert client.get("/api/groups/nope0000000000000000/stats").status_code == 404
