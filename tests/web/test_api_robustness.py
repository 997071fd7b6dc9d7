"""Bad input gets a clear error and changes nothing; never a 500 (issue 3)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.api import NewGame
from helpers.profiles import examples

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
count_values = st.one_of(st.integers(min_value=-3, max_value=45), json_values)
counts = st.one_of(
    st.dictionaries(st.sampled_from(["Anna", "Ben", "anna", "Zoe", ""]), count_values, max_size=4),
    st.lists(count_values, max_size=4),
    json_values,
)
bodies = st.one_of(
    st.fixed_dictionaries({"stacks": counts}),
    st.fixed_dictionaries({"middle": counts}, optional={"stacks": counts, "confirm": json_values}),
    json_values,
)


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=bodies,
    method_path=st.sampled_from(
        [("post", "/rounds"), ("put", "/rounds/1"), ("put", "/rounds/2"), ("delete", "/rounds/1")]
    ),
)
def test_no_round_body_causes_a_500_or_a_change_when_refused(
    new_game: NewGame, body: Any, method_path: tuple[str, str]
) -> None:
    game = new_game(["Anna", "Ben"])
    assert game.open([0, 3]).status_code == 201
    before = game.get()
    method, path = method_path
    response = game.client.request(method, game.url(path), json=body, headers=game.auth)
    assert response.status_code in (200, 201, 404, 422), response.text
    answer = response.json()
    if response.status_code >= 400:
        assert isinstance(answer["detail"], str) and answer["detail"]
        assert isinstance(answer["code"], str)
        assert game.get() == before
    else:
        assert answer["version"] == before["version"] + 1


@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"players": st.one_of(st.lists(st.text(max_size=45), max_size=18), json_values)},
            optional={
                "mode": st.one_of(st.sampled_from(["target", "rounds"]), json_values),
                "target": count_values,
                "rounds": count_values,
                "deck": st.one_of(st.sampled_from(["ligretto", "cards"]), json_values),
                "row_storage": json_values,
            },
        ),
    )
)
def test_no_create_or_import_body_causes_a_500(client: TestClient, body: Any) -> None:
    for path in ("/api/games", "/api/games/import"):
        response = client.post(path, json=body)
        assert response.status_code in (201, 422), response.text
        if response.status_code == 422:
            assert response.json()["detail"]


def test_odd_paths_and_raw_bodies_never_500(new_game: NewGame, client: TestClient) -> None:
    game = new_game(["Anna", "Ben"])
    probes = [
        ("get", "/api/games/" + "x" * 5000),
        ("get", "/api/games/%00%ff"),
        ("get", game.url("/rounds/abc")),
        ("get", game.url("/rounds/99999999999999999999999")),
        ("get", game.url("/rounds/-1")),
        ("delete", game.url("/rounds/0")),
        ("get", "/api/games/..%2F..%2Fetc/history"),
    ]
    for method, path in probes:
        response = client.request(method, path, headers=game.auth)
        assert response.status_code in (404, 422), (path, response.status_code)
    for raw in (b"{", b"\xff\xfe", b"null", b"[]", b'{"stacks": NaN}', b"9" * 5000):
        response = client.post(
            game.url("/rounds"),
            content=raw,
            headers={**game.auth, "Content-Type": "application/json"},
        )
        assert response.status_code == 422, (raw, response.text)
        error = response.json()
        assert error["code"] == "invalid_request" and error["detail"], raw
    for raw in (b"{", b"\xff\xfe", b'{"stacks": NaN'):
        response = client.post(
            game.url("/rounds"),
            content=raw,
            headers={**game.auth, "Content-Type": "application/json"},
        )
        assert "cannot be read as JSON" in response.json()["detail"], raw
    assert game.get()["version"] == 1


def test_a_body_that_is_not_a_json_object_gets_a_message_saying_so(new_game: NewGame) -> None:
    game = new_game(["Anna", "Ben"])
    url = game.url("/rounds")
    cases: list[tuple[dict[str, Any], str]] = [
        # curl -d without -H sends a form: the answer names the missing header
        (
            {
                "content": b'{"stacks": [0, 3]}',
                "headers": {"Content-Type": "application/x-www-form-urlencoded"},
            },
            "Content-Type: application/json",
        ),
        ({"content": b'{"stacks": [0, 3]}', "headers": {}}, "Content-Type: application/json"),
        ({"json": [0, 3]}, "a JSON object"),
        ({"json": None}, "a JSON object"),
        ({}, "a JSON object"),
    ]
    for request, words in cases:
        headers = {**game.auth, **request.pop("headers", {})}
        response = game.client.post(url, headers=headers, **request)
        assert response.status_code == 422, request
        error = response.json()
        assert error["code"] == "invalid_request"
        assert words in error["detail"], (request, error)
    assert game.get()["version"] == 1
