"""``POST /api/games/{id}/undo``: the last save or removal of a round, taken back exactly (T6)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.api import ApiGame, NewGame
from ligretto.serve_process import ServerThread
from ligretto.web.app import create_app
from ligretto.web.settings import Settings

# Every field of the board that an Undo must put back as it was.
BOARD = ("rounds", "totals", "ranking", "status", "winners", "closed", "scored", "pending_round")


def board(game: ApiGame) -> dict[str, Any]:
    body = game.get()
    return {key: body[key] for key in BOARD}


def undo(game: ApiGame, version: int | str | None, **headers: str) -> Any:
    sent = {**game.auth, **headers}
    if version is not None:
        sent["If-Match"] = f'"{version}"'
    return game.client.post(game.url("/undo"), headers=sent)


def test_t6_undo_of_saved_stacks_takes_the_round_away(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [20, 14, 8])
    before = board(game)
    opened = game.open([2, 0, 4])
    assert opened.status_code == 201
    answer = undo(game, opened.json()["version"])
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["version"] == opened.json()["version"] + 1
    assert answer.headers["etag"] == f'"{body["version"]}"'
    assert body["round"]["n"] == 2 and body["round"]["stacks"] == {"Anna": 2, "Ben": 0, "Cleo": 4}
    assert board(game) == before
    last = game.client.get(game.url("/history")).json()[-1]
    assert last["action"] == "undo" and last["round"] == 2
    assert last["detail"]["undone"] == "open_round"


def test_t6_undo_of_a_saved_middle_makes_the_round_wait_for_it_again(new_game: NewGame) -> None:
    game = new_game()
    opened = game.open([0, 3, 5])
    before = board(game)
    done = game.complete(1, [20, 14, 8])
    assert done.json()["totals"] == {"Anna": 20, "Ben": 8, "Cleo": -2}
    answer = undo(game, done.json()["version"])
    assert answer.status_code == 200, answer.text
    assert answer.json()["round"]["middle"] is None
    assert answer.json()["pending_round"] == 1
    assert board(game) == before
    # The round takes its middle again as before.
    assert game.complete(1, [20, 14, 8]).status_code == 200
    assert opened.status_code == 201


def test_t6_undo_of_a_correction_brings_the_earlier_counts_back(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [20, 14, 8])
    # An implausible round, confirmed (T3): the Undo keeps its confirmation.
    opened = game.open([4, 0, 9])
    confirmed = game.complete(opened.json()["round"]["n"], [2, 18, 1], confirm=True)
    assert confirmed.status_code == 200, confirmed.text
    before = board(game)
    assert before["rounds"][1]["confirmed"] is True
    corrected = game.client.put(
        game.url("/rounds/2"),
        json={"stacks": [4, 0, 8], "middle": [12, 18, 11]},
        headers=game.auth,
    )
    assert corrected.status_code == 200, corrected.text
    assert board(game) != before
    answer = undo(game, corrected.json()["version"])
    assert answer.status_code == 200, answer.text
    assert board(game) == before


def test_t6_undo_of_a_removal_brings_the_round_back_at_its_place(new_game: NewGame) -> None:
    game = new_game(mode="rounds", rounds=2)
    game.play([0, 3, 5], [20, 14, 8])
    game.play([2, 0, 4], [11, 19, 9])
    scored = game.client.post(game.url("/score"), headers=game.auth)
    assert scored.status_code == 200
    before = board(game)
    assert before["closed"] and before["scored"] and before["status"] == "finished"
    removed = game.client.delete(game.url("/rounds/2"), headers=game.auth)
    assert removed.status_code == 200
    assert board(game)["closed"] is False and len(board(game)["rounds"]) == 1
    answer = undo(game, removed.json()["version"])
    assert answer.status_code == 200, answer.text
    assert answer.json()["round"]["n"] == 2
    # Round 2 is back as it was, and with it Beenden and Werten (T5).
    assert board(game) == before


def test_t6_undo_twice_takes_back_only_the_last_change(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [20, 14, 8])
    opened = game.open([2, 0, 4])
    first = undo(game, opened.json()["version"])
    assert first.status_code == 200
    after_first = game.get()
    second = undo(game, first.json()["version"])
    assert second.status_code == 422
    assert second.json()["code"] == "nothing_to_undo" and second.json()["rule"] == "T6"
    assert game.get() == after_first  # nothing changed, not even the version


def test_t6_undo_after_another_phones_change_is_refused_and_changes_nothing(
    new_game: NewGame,
) -> None:
    game = new_game()
    saved = game.play([0, 3, 5], [20, 14, 8])
    game.open([2, 0, 4])  # another phone, meanwhile
    meanwhile = game.get()
    answer = undo(game, saved["version"])
    assert answer.status_code == 409
    assert answer.json()["code"] == "version_conflict"
    assert answer.json()["version"] == meanwhile["version"]
    assert game.get() == meanwhile


def test_t6_undo_needs_the_edit_token_and_the_version(new_game: NewGame) -> None:
    game = new_game()
    opened = game.open([0, 3, 5])
    version = opened.json()["version"]
    state = game.get()
    wrong = game.client.post(
        game.url("/undo"),
        headers={"Authorization": "Bearer not-the-token", "If-Match": f'"{version}"'},
    )
    assert wrong.status_code == 403 and wrong.json()["code"] == "forbidden"
    bare = game.client.post(game.url("/undo"), headers={"If-Match": f'"{version}"'})
    assert bare.status_code == 403
    unversioned = undo(game, None)
    assert unversioned.status_code == 428 and unversioned.json()["code"] == "precondition_required"
    star = undo(game, None, **{"If-Match": "*"})
    assert star.status_code == 428
    assert game.get() == state
    missing = game.client.post(
        "/api/games/no-such-game-id-here/undo",
        headers={**game.auth, "If-Match": '"2"'},
    )
    assert missing.status_code == 404


def test_t6_only_round_changes_can_be_undone(new_game: NewGame) -> None:
    game = new_game()
    created = undo(game, 1)  # nothing but the game's creation yet
    assert created.status_code == 422 and created.json()["code"] == "nothing_to_undo"
    game.play([0, 3, 5], [20, 14, 8])
    finished = game.client.post(game.url("/finish"), headers=game.auth)
    assert finished.status_code == 200
    refused = undo(game, finished.json()["version"])
    assert refused.status_code == 422 and refused.json()["code"] == "nothing_to_undo"
    assert game.get()["closed"] is True


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    thread = ServerThread(create_app(Settings(data_dir=tmp_path, database_url=None)))
    base = thread.start()
    try:
        yield base
    finally:
        thread.stop()


def _versions(lines: Iterator[str]) -> Iterator[int]:
    event = ""
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "version":
            yield int(json.loads(line.split(":", 1)[1])["version"])


def test_t6_watchers_hear_an_undo_like_any_change(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as writer:
        created = writer.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
        gid, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
        with (
            httpx.Client(base_url=server, timeout=10) as watcher,
            watcher.stream("GET", f"/api/games/{gid}/events") as stream,
        ):
            versions = _versions(stream.iter_lines())
            assert next(versions) == 1
            opened = writer.post(f"/api/games/{gid}/rounds", json={"stacks": [0, 3]}, headers=auth)
            assert next(versions) == 2
            undone = writer.post(
                f"/api/games/{gid}/undo", headers={**auth, "If-Match": opened.headers["etag"]}
            )
            assert undone.status_code == 200
            assert next(versions) == 3
        assert writer.get(f"/api/games/{gid}").json()["rounds"] == []


def test_t6_a_correction_to_the_same_counts_records_nothing_for_undo(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [20, 14, 8])
    opened = game.open([2, 0, 4])  # the last real change
    version = opened.json()["version"]
    history = game.client.get(game.url("/history")).json()
    same = game.client.put(
        game.url("/rounds/1"),
        json={"stacks": [0, 3, 5], "middle": [20, 14, 8]},
        headers=game.auth,
    )
    assert same.status_code == 200, same.text
    assert same.json()["version"] == version and same.headers["etag"] == f'"{version}"'
    assert same.json()["round"]["middle"] == {"Anna": 20, "Ben": 14, "Cleo": 8}
    assert game.client.get(game.url("/history")).json() == history
    # Undo takes back the change before, the saved stacks of round 2.
    answer = undo(game, version)
    assert answer.status_code == 200, answer.text
    assert answer.json()["round"]["n"] == 2 and game.get()["rounds_count"] == 1
    assert game.client.get(game.url("/history")).json()[-1]["detail"]["undone"] == "open_round"
