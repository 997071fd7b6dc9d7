"""``/api/games/{id}/rounds``: stacks first, then the middle; corrections; tokens; versions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio.to_thread
import pytest

from helpers.api import NewGame


def test_t2_open_round_with_stacks_only_is_pending(new_game: NewGame) -> None:
    game = new_game()
    response = game.open({"Anna": 0, "Ben": 3, "Cleo": 5})
    assert response.status_code == 201
    body = response.json()
    assert body["round"] == {
        "n": 1,
        "stacks": {"Anna": 0, "Ben": 3, "Cleo": 5},
        "middle": None,
        "points": None,
        "caller": "Anna",
        "complete": False,
        "confirmed": False,
        "totals": None,
    }
    assert (body["pending_round"], body["version"]) == (1, 2)
    assert response.headers["location"] == game.url("/rounds/1")
    assert game.get()["rounds"][0]["middle"] is None


def test_t2_two_empty_stacks_refused(new_game: NewGame) -> None:
    game = new_game()
    response = game.open({"Anna": 0, "Ben": 0, "Cleo": 5})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "two_callers" and body["rule"] == "T2"
    assert body["detail"].startswith("two empty stacks: only one player can call Ligretto Stop")
    assert game.get()["rounds"] == [] and game.get()["version"] == 1


def test_t2_stack_values_out_of_range_or_not_whole_refused(new_game: NewGame) -> None:
    game = new_game()
    for bad in (11, -1, 2.5, "3", None, True, 10**30):
        response = game.open({"Anna": 0, "Ben": bad, "Cleo": 5})  # type: ignore[dict-item]
        assert response.status_code == 422, bad
        body = response.json()
        assert body["player"] == "Ben" and body["rule"] == "T2", body
        assert body["code"] in ("out_of_range", "not_a_whole_number")
    assert game.get()["version"] == 1


def test_t2_missing_and_unknown_players_refused(new_game: NewGame) -> None:
    game = new_game()
    missing = game.open({"Anna": 0, "Ben": 3})
    assert missing.status_code == 422
    assert (missing.json()["code"], missing.json()["player"]) == ("missing_player", "Cleo")
    unknown = game.open({"Anna": 0, "Ben": 3, "Cleo": 5, "Zoe": 1})
    assert unknown.status_code == 422
    assert unknown.json()["code"] == "unknown_player"
    assert "Zoe" in unknown.json()["detail"]


def test_t2_second_round_refused_while_one_is_pending(new_game: NewGame) -> None:
    game = new_game()
    assert game.open([0, 3, 5]).status_code == 201
    response = game.open([0, 3, 5])
    assert response.status_code == 422
    assert response.json()["code"] == "round_pending"


def test_t3_complete_round_computes_points_14_minus_6(new_game: NewGame) -> None:
    game = new_game()
    game.open({"Anna": 0, "Ben": 3, "Cleo": 5})
    response = game.complete(1, {"Anna": 12, "Ben": 14, "Cleo": 5})
    assert response.status_code == 200
    body = response.json()
    assert body["round"]["points"] == {"Anna": 12, "Ben": 8, "Cleo": -5}
    assert body["totals"] == {"Anna": 12, "Ben": 8, "Cleo": -5}
    assert body["pending_round"] is None
    assert "rounds" not in body  # writes answer small: no full round list


def test_t3_middle_above_40_minus_stack_refused(new_game: NewGame) -> None:
    game = new_game()
    game.open([0, 3, 5])
    response = game.complete(1, {"Anna": 12, "Ben": 38, "Cleo": 5})
    assert response.status_code == 422
    body = response.json()
    assert (body["code"], body["player"], body["rule"]) == ("out_of_range", "Ben", "T3")
    assert game.get()["pending_round"] == 1


def test_t3_implausible_round_needs_confirm(new_game: NewGame) -> None:
    game = new_game()
    game.open([0, 3, 5])
    refused = game.complete(1, {"Anna": 12, "Ben": 2, "Cleo": 5})
    assert refused.status_code == 422
    assert refused.json()["code"] == "implausible" and refused.json()["player"] == "Ben"
    assert game.get()["pending_round"] == 1
    for not_a_confirmation in ("yes", 1, "true"):
        refused = game.complete(1, {"Anna": 12, "Ben": 2, "Cleo": 5}, confirm=not_a_confirmation)
        assert refused.status_code == 422, not_a_confirmation
        assert "confirm" in refused.json()["detail"]
    assert game.get()["pending_round"] == 1
    saved = game.complete(1, {"Anna": 12, "Ben": 2, "Cleo": 5}, confirm=True)
    assert saved.status_code == 200
    assert saved.json()["round"]["confirmed"] is True
    assert saved.json()["totals"]["Ben"] == -4


def test_t3_row_storage_game_skips_the_plausibility_check(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben"], row_storage=True)
    game.open([0, 6])
    assert game.complete(1, [3, 1]).status_code == 200


def test_t6_correct_a_past_round_with_stacks_and_middle(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [12, 14, 5])
    game.play([0, 3, 5], [12, 14, 5])
    response = game.client.put(
        game.url("/rounds/1"),
        json={"stacks": {"Anna": 2, "Ben": 0, "Cleo": 5}, "middle": [10, 20, 5]},
        headers=game.auth,
    )
    assert response.status_code == 200
    body = response.json()
    assert body["round"]["caller"] == "Ben"
    assert body["totals"] == {"Anna": 18, "Ben": 28, "Cleo": -10}
    assert game.get()["rounds"][1]["totals"] == {"Anna": 18, "Ben": 28, "Cleo": -10}


def test_t6_correction_changing_the_winner_re_decides(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben"], target=50)
    game.play([0, 3], [30, 20])
    body = game.play([0, 3], [30, 20])
    assert body["winners"] == ["Anna"]
    response = game.client.put(
        game.url("/rounds/2"),
        json={"stacks": [3, 0], "middle": [7, 40]},
        headers=game.auth,
    )
    assert response.status_code == 200
    assert (response.json()["winners"], response.json()["status"]) == (["Ben"], "finished")
    reopened = game.client.put(game.url("/rounds/2"), json={"middle": [10, 10]}, headers=game.auth)
    assert reopened.status_code == 200
    assert (reopened.json()["status"], reopened.json()["winners"]) == ("playing", [])


def test_t6_delete_only_the_last_round(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [12, 14, 5])
    game.open([0, 3, 5])
    not_last = game.client.delete(game.url("/rounds/1"), headers=game.auth)
    assert not_last.status_code == 422
    assert not_last.json()["code"] == "not_last_round"
    removed = game.client.delete(game.url("/rounds/2"), headers=game.auth)
    assert removed.status_code == 200
    assert removed.json()["round"]["n"] == 2
    assert removed.json()["rounds_count"] == 1
    assert len(game.get()["rounds"]) == 1


def test_t6_missing_round_is_404(new_game: NewGame) -> None:
    game = new_game()
    for method in ("get", "put", "delete"):
        response = game.client.request(
            method, game.url("/rounds/7"), json={"middle": [1, 1, 1]}, headers=game.auth
        )
        assert response.status_code == 404, method
        assert response.json()["code"] == "no_such_round"


def test_get_single_round(new_game: NewGame) -> None:
    game = new_game()
    game.play([0, 3, 5], [12, 14, 5])
    response = game.client.get(game.url("/rounds/1"))
    assert response.status_code == 200
    assert response.json()["points"] == {"Anna": 12, "Ben": 8, "Cleo": -5}


def test_put_without_counts_refused(new_game: NewGame) -> None:
    game = new_game()
    game.open([0, 3, 5])
    response = game.client.put(game.url("/rounds/1"), json={}, headers=game.auth)
    assert response.status_code == 422
    assert response.json()["code"] == "nothing_to_change"


def test_writes_without_valid_token_are_403_and_change_nothing(new_game: NewGame) -> None:
    game = new_game()
    other = new_game()
    game.open([0, 3, 5])
    attempts = [
        ("post", "/rounds", {"stacks": [0, 1, 2]}),
        ("put", "/rounds/1", {"middle": [12, 14, 5]}),
        ("delete", "/rounds/1", None),
        ("post", "/finish", None),
        ("post", "/score", None),
    ]
    for headers in (
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Bearer {other.token}"},
        {"Authorization": game.token},
        {"Authorization": f"Basic {game.token}"},
    ):
        for method, path, body in attempts:
            response = game.client.request(method, game.url(path), json=body, headers=headers)
            assert response.status_code == 403, (method, path, headers)
            assert response.json()["code"] == "forbidden"
            assert response.headers["www-authenticate"] == "Bearer"
    assert game.get()["version"] == 2


def test_if_match_with_old_version_is_409_and_changes_nothing(new_game: NewGame) -> None:
    game = new_game()
    first = game.client.post(
        game.url("/rounds"), json={"stacks": [0, 3, 5]}, headers={**game.auth, "If-Match": '"1"'}
    )
    assert first.status_code == 201
    stale = game.client.put(
        game.url("/rounds/1"),
        json={"middle": [12, 14, 5]},
        headers={**game.auth, "If-Match": "1"},
    )
    assert stale.status_code == 409
    assert stale.json()["code"] == "version_conflict" and stale.json()["version"] == 2
    assert game.get()["pending_round"] == 1
    fresh = game.client.put(
        game.url("/rounds/1"),
        json={"middle": [12, 14, 5]},
        headers={**game.auth, "If-Match": 'W/"2"'},
    )
    assert fresh.status_code == 200 and fresh.json()["version"] == 3


def test_malformed_if_match_refused(new_game: NewGame) -> None:
    game = new_game()
    response = game.client.post(
        game.url("/rounds"), json={"stacks": [0, 3, 5]}, headers={**game.auth, "If-Match": "abc"}
    )
    assert response.status_code == 422
    assert response.json()["code"] == "bad_if_match"
    assert game.get()["version"] == 1


def test_t3_counts_of_the_wrong_shape_get_a_readable_message(new_game: NewGame) -> None:
    game = new_game()
    game.open([0, 3, 5])
    response = game.client.put(game.url("/rounds/1"), json={"middle": "lots"}, headers=game.auth)
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_request"
    assert body["detail"] == (
        "middle: Input should be a valid dictionary or Input should be a valid list"
    )


def test_write_without_token_is_403_before_the_body_is_judged(new_game: NewGame) -> None:
    game = new_game()
    response = game.client.post(game.url("/rounds"), json={"stacks": "nonsense"})
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert response.headers["www-authenticate"] == "Bearer"


def test_a_round_write_is_one_trip_to_the_thread_pool(
    new_game: NewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's work and the answer's model go to a worker thread together.

    A sync endpoint costs a second trip (FastAPI checks its answer in the
    pool), and with hundreds of watchers on the loop each trip can wait.
    """
    game = new_game()
    trips: list[str] = []
    real = anyio.to_thread.run_sync

    async def counted(func: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(func, "__name__", repr(func)))
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    writes: list[Callable[[], Any]] = [
        lambda: game.open({"Anna": 0, "Ben": 3, "Cleo": 5}),
        lambda: game.complete(1, {"Anna": 10, "Ben": 8, "Cleo": 6}),
        lambda: game.client.get(game.url("/rounds/1")),
        lambda: game.client.delete(game.url("/rounds/1"), headers=game.auth),
    ]
    for write in writes:
        trips.clear()
        response = write()
        assert response.status_code in (200, 201), response.text
        assert len(trips) == 1, trips
