"""Refused requests of online play end in a clear answer and change nothing.

The seat link with any token text, the table cap on every way to open a
table, names under the one name rule (T1), the Tafel limits on the forms.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.live_wire import tables_of
from helpers.profiles import examples
from ligretto.live.registry import TableCapError, TableUnreachableError
from ligretto.store.live_tables import TableElsewhereError
from ligretto.tafel.limits import MAX_AGREED_ROUNDS, MAX_NAME_LENGTH, MAX_TARGET
from ligretto.tafel.names import InvalidNameError, clean_name


def open_table(client: TestClient, **spec: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"seats": 3, "name": "Anna", **spec})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def seat_token(client: TestClient, table: dict[str, Any]) -> str:
    with client.websocket_connect(f"/play/{table['code']}/ws") as ws:
        ws.send_text(json.dumps({"v": 1, "type": "join", "host_token": table["host_token"]}))
        while (message := ws.receive_json())["type"] != "welcome":
            pass
    token: str = message["token"]
    return token


# --------------------------------------------------------------------------
# the seat link
# --------------------------------------------------------------------------

# JSON may carry any code point, a lone surrogate too (RFC 8259 allows the
# escape; Python reads it as a str that cannot be encoded).
ODD_TOKENS = ['"\\u00e4"', '"\\ud800"', '"\\udfff\\ud800"', '"x\\u0000y"', '"\\u00e4\\ud83d"']


@pytest.mark.parametrize("token", ODD_TOKENS)
@pytest.mark.parametrize("exists", [True, False])
def test_a_seat_link_for_any_token_text_is_a_clear_refusal(
    app_client: TestClient, token: str, exists: bool
) -> None:
    table = open_table(app_client)
    code = table["code"] if exists else "ZZZZZZ"
    before = app_client.get(f"/api/tables/{table['code']}").json()
    response = app_client.post(
        f"/play/{code}/seat-link",
        content=f'{{"token": {token}}}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code in (404, 422), response.text
    body = response.json()
    assert set(body) == {"detail", "code"}
    assert body["code"] in ("bad_token", "no_such_table", "invalid_request")
    if response.status_code == 404:
        assert body["code"] == ("bad_token" if exists else "no_such_table")
    assert app_client.get(f"/api/tables/{table['code']}").json() == before


@settings(max_examples=examples(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(token=st.text(max_size=30))
def test_no_token_text_breaks_the_seat_link(app_client: TestClient, token: str) -> None:
    table = open_table(app_client)
    response = app_client.post(
        f"/play/{table['code']}/seat-link",
        content=json.dumps({"token": token}),
        headers={"content-type": "application/json"},
    )
    assert response.status_code in (404, 422)
    assert set(response.json()) == {"detail", "code"}


def test_refused_seat_link_input_is_named_not_echoed(app_client: TestClient) -> None:
    table = open_table(app_client)
    response = app_client.post(f"/play/{table['code']}/seat-link", json={"tokn": "secret-ish"})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_request"
    assert "token" in body["detail"] and "secret-ish" not in response.text


def test_the_seat_token_makes_the_link_and_the_host_token_does_not(
    app_client: TestClient,
) -> None:
    table = open_table(app_client)
    token = seat_token(app_client, table)
    assert token != table["host_token"]
    link = app_client.post(f"/play/{table['code']}/seat-link", json={"token": token})
    assert link.status_code == 200
    assert link.json()["url"].endswith(f"#seat={token}")
    host = app_client.post(f"/play/{table['code']}/seat-link", json={"token": table["host_token"]})
    assert host.status_code == 404
    assert host.json() == {
        "detail": "no seat at this table belongs to this token",
        "code": "bad_token",
    }


# --------------------------------------------------------------------------
# the table cap
# --------------------------------------------------------------------------


@pytest.fixture
def full_server(app_client: TestClient) -> TestClient:
    """A server that runs as many tables as it takes (one, here)."""
    open_table(app_client)
    tables_of(app_client).max_tables = len(tables_of(app_client))
    return app_client


def test_the_api_answers_the_table_cap_with_503_and_retry_after(full_server: TestClient) -> None:
    before = len(tables_of(full_server))
    response = full_server.post("/api/tables", json={"seats": 2, "name": "Anna"})
    assert response.status_code == 503
    assert response.headers["retry-after"] == "60"
    body = response.json()
    assert body["code"] == "too_many_tables" and "Nothing was changed" in body["detail"]
    assert set(body) == {"detail", "code"}
    assert len(tables_of(full_server)) == before


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "as many tables as it can run"),
        ("de", "so viele Tische, wie er betreiben kann"),
        ("nb", "så mange bord som den kan drive"),
    ],
)
def test_the_forms_answer_the_table_cap_with_a_translated_page(
    full_server: TestClient, lang: str, text: str
) -> None:
    before = len(tables_of(full_server))
    form = {"name": "Cleo", "seats": "5", "mode": "rounds", "rounds": "7", "seat1": "greedy"}
    response = full_server.post(f"/play?lang={lang}", data=form, follow_redirects=False)
    assert response.status_code == 503
    assert response.headers["retry-after"] == "60"
    assert text in response.text
    # Nothing typed is lost: the form comes back as it was sent.
    assert 'value="Cleo"' in response.text and 'value="7"' in response.text
    quick = full_server.post(
        f"/play/quick?lang={lang}", data={"name": "Dora"}, follow_redirects=False
    )
    assert quick.status_code == 503 and text in quick.text
    assert quick.headers["retry-after"] == "60" and 'value="Dora"' in quick.text
    assert len(tables_of(full_server)) == before


WHY_NOT_NOW = {
    "full": {
        "en": "as many tables as it can run right now. This page tries again",
        "de": "so viele Tische, wie er betreiben kann. Diese Seite versucht",
        "nb": "så mange bord som den kan drive. Denne siden prøver igjen",
    },
    "away": {
        "en": "cannot reach its database just now",
        "de": "erreicht seine Datenbank gerade nicht",
        "nb": "når ikke databasen sin akkurat nå",
    },
    "elsewhere": {
        "en": "is being taken over by another server process",
        "de": "wird gerade von einem anderen Serverprozess übernommen",
        "nb": "blir nå overtatt av en annen serverprosess",
    },
}


@pytest.mark.parametrize("lang", ["en", "de", "nb"])
@pytest.mark.parametrize("cause", list(WHY_NOT_NOW))
def test_a_table_that_cannot_be_opened_now_says_why_and_comes_back(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch, cause: str, lang: str
) -> None:
    registry = tables_of(app_client)
    error: Exception = {
        "full": TableCapError(registry.max_tables),
        "away": TableUnreachableError(),
        "elsewhere": TableElsewhereError("ABC123"),
    }[cause]

    async def find(code: str) -> None:
        raise error

    monkeypatch.setattr(registry, "find", find)
    page = app_client.get(f"/play/ABC123?lang={lang}")
    assert page.status_code == 503 and int(page.headers["retry-after"]) > 0
    assert '<meta http-equiv="refresh" content="5">' in page.text  # it tries again
    said = [text for other in WHY_NOT_NOW.values() for text in other.values() if text in page.text]
    assert said == [WHY_NOT_NOW[cause][lang]]  # this cause's words, and no other's


# --------------------------------------------------------------------------
# the one name rule (T1)
# --------------------------------------------------------------------------

BAD_NAMES = ["An\x07na", "Anna\u200b", "\u202eAnna", "Anna\nLena", "\u3164", "x" * 41]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_the_api_refuses_a_name_the_tafel_refuses(app_client: TestClient, name: str) -> None:
    before = len(tables_of(app_client))
    response = app_client.post("/api/tables", json={"seats": 2, "name": name})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_request" and "name" in body["detail"]
    assert len(tables_of(app_client)) == before


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("An\x07na", "A name cannot hold control or invisible characters."),
        ("Anna\u200b", "A name cannot hold control or invisible characters."),
        ("Anna " + "x" * MAX_NAME_LENGTH, f"A name has at most {MAX_NAME_LENGTH} characters."),
    ],
)
@pytest.mark.parametrize("path", ["/play", "/play/quick"])
def test_the_forms_refuse_a_name_the_tafel_refuses(
    app_client: TestClient, name: str, message: str, path: str
) -> None:
    before = len(tables_of(app_client))
    response = app_client.post(path, data={"name": name, "seats": "3"}, follow_redirects=False)
    assert response.status_code == 422
    assert message in response.text
    assert len(tables_of(app_client)) == before


def test_a_name_refused_in_german_is_refused_in_german(app_client: TestClient) -> None:
    response = app_client.post("/play?lang=de", data={"name": "An\x07na"})
    assert response.status_code == 422
    assert "keine Steuerzeichen" in response.text


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    name=st.text(
        st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
        min_size=1,
        max_size=MAX_NAME_LENGTH,
    )
)
def test_the_form_takes_exactly_the_names_the_tafel_takes(
    app_client: TestClient, name: str
) -> None:
    try:
        expected: str | None = clean_name(name)
    except InvalidNameError:
        expected = None
    if not name.strip():
        return  # "enter your name"
    response = app_client.post("/play/quick", data={"name": name}, follow_redirects=False)
    if expected is None:
        assert response.status_code == 422
        return
    assert response.status_code == 303, response.text
    code = re.fullmatch(r"/play/(\w{6})#t=[\w-]+", response.headers["location"])
    assert code is not None
    table = app_client.get(f"/api/tables/{code[1]}").json()
    assert table["seats"][0]["name"] == expected


# --------------------------------------------------------------------------
# the Tafel limits on the form (T1)
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "ok"),
    [
        ("target_other", MAX_TARGET, True),
        ("target_other", MAX_TARGET + 1, False),
        ("rounds", MAX_AGREED_ROUNDS, True),
        ("rounds", MAX_AGREED_ROUNDS + 1, False),
    ],
)
def test_the_form_takes_the_tafel_limits(
    app_client: TestClient, field: str, value: int, ok: bool
) -> None:
    form = {"seats": "2", "target": "other", "target_other": "99", "rounds": "8", field: value}
    if field == "rounds":
        form["mode"] = "rounds"
    response = app_client.post("/play", data=form, follow_redirects=False)
    assert response.status_code == (303 if ok else 422)
