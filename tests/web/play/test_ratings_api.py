"""``/api/ratings`` and the quick game at the player's level, in the whole
app (docs/online-play.md, "Bots at your level")."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from ligretto.simulate.level_match import BotResult, matched_bots, rate_game
from ligretto.tafel.ratings import Rating

GAME = {
    "points": 104,
    "bots": [
        {"strategy": "watchful", "level": "medium", "points": 77},
        {"strategy": "stack-first", "level": "hard", "points": 91},
        {"strategy": "greedy", "level": "medium", "points": 30},
    ],
}


def update(client: TestClient, body: dict[str, Any]) -> Any:
    answer = client.post("/api/ratings/update", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_newcomers_won_game_rates_them_by_the_one_rule(app_client: TestClient) -> None:
    answer = update(app_client, {"rating": None, **GAME})
    expected, counted = rate_game(
        None, 104, [BotResult("watchful", "medium", 77), BotResult("stack-first", "hard", 91)]
    )
    assert expected is not None and counted == 2
    assert answer["bots_counted"] == 2  # the greedy bot was never calibrated
    assert answer["rating"]["mu"] == round(expected.mu, 4) > 25
    assert answer["rating"]["sigma"] == round(expected.sigma, 4)
    # The next game goes on from the rating the browser kept.
    again = update(app_client, {"rating": answer["rating"], **GAME})
    assert again["rating"]["mu"] > answer["rating"]["mu"]


def test_a_game_without_a_calibrated_bot_changes_nothing(app_client: TestClient) -> None:
    guests = [{"strategy": "random", "level": "easy", "points": 3}]
    kept = {"mu": 31.5, "sigma": 4.25}
    assert update(app_client, {"rating": kept, "points": 9, "bots": guests}) == {
        "rating": kept,
        "bots_counted": 0,
    }
    assert update(app_client, {"points": 9, "bots": guests}) == {
        "rating": None,
        "bots_counted": 0,
    }


def test_the_match_names_the_bots_and_the_chance(app_client: TestClient) -> None:
    answer = app_client.get("/api/ratings/match", params={"mu": 33.3, "sigma": 4.5})
    assert answer.status_code == 200
    match = matched_bots(Rating(33.3, 4.5))
    assert answer.json() == {
        "bots": [{"strategy": s, "level": lv} for s, lv in match.bots],
        "chance": round(match.chance, 4),
    }


def test_refused_input_is_named_and_changes_nothing(app_client: TestClient) -> None:
    bad_bodies: list[dict[str, Any]] = [
        {"points": 10, "bots": []},
        {"points": 10.5, "bots": GAME["bots"]},
        {"rating": {"mu": 1e9, "sigma": 3}, **GAME},
        {"rating": {"mu": 25, "sigma": 0}, **GAME},
        {**GAME, "bots": [{"strategy": "cheater", "level": "medium", "points": 1}]},
        {**GAME, "bots": [{"strategy": "watchful", "level": "godlike", "points": 1}]},
        {**GAME, "extra": 1},
    ]
    for body in bad_bodies:
        answer = app_client.post("/api/ratings/update", json=body)
        assert answer.status_code == 422, body
        assert answer.json()["code"] == "invalid_request"
    for params in ({"mu": "nan", "sigma": 3}, {"mu": 25}, {"mu": 25, "sigma": 99}):
        answer = app_client.get("/api/ratings/match", params=params)
        assert answer.status_code == 422, params
        assert answer.json()["code"] == "invalid_request"


def test_the_routes_are_in_the_api_description(app_client: TestClient) -> None:
    paths = app_client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/ratings/update"]
    assert "get" in paths["/api/ratings/match"]


def quick_bots(client: TestClient, **fields: str) -> list[tuple[str, str]]:
    response = client.post("/play/quick", data={"name": "Anna", **fields}, follow_redirects=False)
    assert response.status_code == 303
    found = re.fullmatch(r"/play/([A-Z0-9]{6})#t=[\w-]+", response.headers["location"])
    assert found is not None
    seats = client.get(f"/api/tables/{found[1]}").json()["seats"]
    assert seats[0]["name"] == "Anna"
    return [(s["strategy"], s["level"]) for s in seats[1:]]


def test_the_quick_game_seats_the_bots_matched_to_the_rating_sent(
    app_client: TestClient,
) -> None:
    strong = Rating(70.0, 3.0)
    assert quick_bots(app_client, mu="70.0", sigma="3.0") == list(matched_bots(strong).bots)
    assert {lv for _, lv in quick_bots(app_client, mu="70", sigma="3")} <= {"hard", "expert"}
    newcomer = [("watchful", "medium"), ("stack-first", "medium"), ("greedy", "medium")]
    assert quick_bots(app_client) == newcomer
    # A rating that is none (empty, not a number, out of bounds): the newcomer's bots.
    for mu, sigma in (("", ""), ("abc", "3"), ("nan", "3"), ("25", "-1"), ("1e400", "3")):
        assert quick_bots(app_client, mu=mu, sigma=sigma) == newcomer
