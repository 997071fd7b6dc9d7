"""Request bodies over the limit get 413 and change nothing (no crash, no memory hog).

1 MiB for every body, 6 MiB for ``POST /api/games/import``; the limit is
checked on ``Content-Length`` and counted on chunked bodies.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from fastapi.testclient import TestClient

from helpers.api import NewGame
from ligretto.web.limits import DEFAULT_LIMIT, IMPORT_LIMIT, MIB, describe

JSON = {"Content-Type": "application/json"}


def padded(body: object, size: int) -> bytes:
    """*body* as JSON, padded with whitespace to exactly *size* bytes (still valid JSON)."""
    text = json.dumps(body).encode()
    assert len(text) <= size
    return text + b" " * (size - len(text))


def chunks(data: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    """A generator body: httpx sends it chunked, without Content-Length."""
    for start in range(0, len(data), size):
        yield data[start : start + size]


def test_an_oversized_api_body_with_content_length_is_refused(
    new_game: NewGame, client: TestClient
) -> None:
    game = new_game(["Anna", "Ben"])
    body = padded({"stacks": {"Anna": 0, "Ben": 3}}, DEFAULT_LIMIT + 1)
    response = client.post(game.url("/rounds"), content=body, headers={**JSON, **game.auth})
    assert response.status_code == 413
    assert response.json() == {
        "detail": "The request body is larger than 1 MiB; nothing was changed.",
        "code": "too_large",
    }
    after = game.get()
    assert after["rounds"] == [] and after["version"] == game.body["version"]


def test_an_oversized_chunked_api_body_is_refused_while_streaming(
    new_game: NewGame, client: TestClient
) -> None:
    game = new_game(["Anna", "Ben"])
    body = padded({"stacks": {"Anna": 0, "Ben": 3}}, 3 * MIB)
    response = client.post(game.url("/rounds"), content=chunks(body), headers={**JSON, **game.auth})
    assert "content-length" not in {k.lower() for k in response.request.headers}
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert game.get()["rounds"] == []


def test_the_limit_itself_is_allowed_one_byte_more_is_not(
    new_game: NewGame, client: TestClient
) -> None:
    game = new_game(["Anna", "Ben"])
    stacks = {"stacks": {"Anna": 0, "Ben": 3}}
    over = client.post(
        game.url("/rounds"),
        content=chunks(padded(stacks, DEFAULT_LIMIT + 1)),
        headers={**JSON, **game.auth},
    )
    assert over.status_code == 413
    exact = client.post(
        game.url("/rounds"),
        content=chunks(padded(stacks, DEFAULT_LIMIT)),
        headers={**JSON, **game.auth},
    )
    assert exact.status_code == 201, exact.text
    assert len(game.get()["rounds"]) == 1


def test_import_takes_more_than_the_default_but_not_without_end(
    new_game: NewGame, client: TestClient
) -> None:
    # The largest game there is: 16 players (ordinary cards, T1), 100 rounds.
    names = [f"Player {i}" for i in range(1, 17)]
    game = new_game(names, mode="rounds", rounds=100, deck="cards")
    for _ in range(100):
        game.play([0] + [5] * 15, [10] * 16)
    export = client.get(game.url("/export.json")).json()
    imported = client.post("/api/games/import", json=export)
    assert imported.status_code == 201, imported.text
    big = client.post("/api/games/import", content=padded(export, 2 * MIB), headers=JSON)
    assert big.status_code == 201, big.text  # over 1 MiB: only the import may
    streamed = client.post(
        "/api/games/import", content=chunks(padded(export, IMPORT_LIMIT)), headers=JSON
    )
    assert streamed.status_code == 201, streamed.text
    too_big = client.post(
        "/api/games/import", content=padded(export, IMPORT_LIMIT + 1), headers=JSON
    )
    assert too_big.status_code == 413
    assert too_big.json()["detail"] == (
        f"The request body is larger than {describe(IMPORT_LIMIT)}; nothing was changed."
    )


def test_an_oversized_page_form_gets_a_translated_page_and_saves_nothing(
    new_game: NewGame, client: TestClient
) -> None:
    game = new_game(["Anna", "Ben"])
    edit = f"/g/{game.id}/edit/{game.token}/stacks?lang=de"
    form = b"stop=0&stack-1=3&pad=" + b"x" * DEFAULT_LIMIT
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    for content in (form, chunks(form)):
        response = client.post(edit, content=content, headers=headers)
        assert response.status_code == 413
        assert response.headers["content-type"].startswith("text/html")
        assert "Zu viele Daten" in response.text
        assert "mehr als 1 MiB" in response.text
        assert game.token not in response.text
    assert game.get()["rounds"] == []
    play = client.post("/play?lang=nb", content=form, headers=headers)
    assert play.status_code == 413 and "For mye data" in play.text


def test_small_bodies_and_reads_pass_through(new_game: NewGame, client: TestClient) -> None:
    game = new_game(["Anna", "Ben"])
    game.play([0, 3], [12, 14])
    assert client.get(game.url("/history")).status_code == 200
    assert client.get(f"/g/{game.id}").status_code == 200
