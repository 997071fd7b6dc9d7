"""The /play form refuses forged bot choices by name (no generic seat message)."""

from __future__ import annotations

from fastapi.testclient import TestClient


def _post(client: TestClient, **fields: str):  # type: ignore[no-untyped-def]
    data = {
        "name": "Anna",
        "seats": "3",
        "seat1": "greedy",
        "level1": "easy",
        "seat2": "watchful",
        "level2": "hard",
        "mode": "rounds",
        "rounds": "5",
    }
    data.update(fields)
    return client.post("/play", data=data)


def test_an_unknown_strategy_names_the_seat_and_the_value_escaped(client: TestClient) -> None:
    response = _post(client, seat2="<b>cheat</b>")
    assert response.status_code == 422
    assert "Seat 3: there is no bot strategy “&lt;b&gt;cheat&lt;/b&gt;”." in response.text
    assert "<b>cheat</b>" not in response.text
    assert "A table has 2 to 12 seats" not in response.text
    # The other values stay in the form.
    assert 'value="Anna"' in response.text
    assert 'name="rounds" min="1" max="100" value="5"' in response.text
    assert 'value="rounds" checked' in response.text
    assert '<option value="greedy" selected' in response.text


def test_an_unknown_level_is_named_in_the_readers_language(client: TestClient) -> None:
    response = client.post(
        "/play?lang=de",
        data={"name": "Anna", "seats": "3", "seat1": "greedy", "level1": "godlike"},
    )
    assert response.status_code == 422
    assert "Platz 2: Es gibt keine Bot-Stärke „godlike“." in response.text


def test_choices_of_seats_beyond_the_count_and_open_seats_are_not_checked(
    client: TestClient,
) -> None:
    response = _post(client, seats="2", seat2="forged", level2="forged")
    assert response.status_code == 303
    assert _post(client, seat1="open", level1="forged").status_code == 303
