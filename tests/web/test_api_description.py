"""``/openapi.json`` is the API's description, encoded once (web/api/description.py)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from ligretto.web.api.description import prepare


def test_the_description_is_the_apis_and_the_same_bytes_each_time(
    app: FastAPI, client: TestClient
) -> None:
    first = client.get("/openapi.json")
    second = client.get("/openapi.json")
    assert first.status_code == second.status_code == 200
    assert first.headers["content-type"] == "application/json"
    assert first.json() == app.openapi()
    assert "/api/games" in first.json()["paths"]
    assert first.content == second.content
    assert app.state.api_description.body == first.content


def test_prepared_before_serving_it_is_answered_without_building(
    app: FastAPI, client: TestClient
) -> None:
    prepare(app)
    kept = app.state.api_description.body
    assert isinstance(kept, bytes) and kept
    assert client.get("/openapi.json").content == kept


def test_the_docs_page_still_points_at_it(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "/openapi.json" in page.text
