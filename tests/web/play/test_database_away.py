"""A table the database cannot be asked about just now is "try again", never "no such table".

A table this process does not run is looked up in the database (it may be
one another process served, to be taken here). While that database is
away, the answer must not be "no table with this code": the table page,
the typed code, the API and the table's socket would then give up on a
table that is there (the page stops reconnecting on close code 4404).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ligretto.live.connection import CLOSE_TRY_AGAIN
from ligretto.store.live_tables import LiveTableStore, StoredTable
from ligretto.web.app import create_app
from ligretto.web.play.app_tables import registry_of
from ligretto.web.settings import Settings

CODE = "ABCDEF"  # a well-formed code no table here has


class Away:
    """Switches the tables' store between "away" and answering."""

    def __init__(self, store: LiveTableStore) -> None:
        self.store = store
        self.take = store.take
        self.away = True

    def __call__(self, code: str) -> StoredTable | None:
        if self.away:
            raise sqlite3.OperationalError("unable to open database file")
        return self.take(code)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path, database_url=None))) as c:
        yield c


@pytest.fixture
def away(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Away:
    store = registry_of(client.app).store
    assert store is not None
    switch = Away(store)
    monkeypatch.setattr(store, "take", switch)
    return switch


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "cannot reach its database"),
        ("de", "erreicht seine Datenbank gerade nicht"),
        ("nb", "når ikke databasen sin"),
    ],
)
def test_the_table_page_says_one_moment_and_comes_back(
    client: TestClient, away: Away, language: str, words: str
) -> None:
    page = client.get(f"/play/{CODE}?lang={language}")
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "5"
    assert words in page.text
    assert 'http-equiv="refresh"' in page.text
    away.away = False
    assert client.get(f"/play/{CODE}").status_code == 404  # now it may say so


def test_the_api_answers_503_with_a_code_of_its_own(client: TestClient, away: Away) -> None:
    answer = client.get(f"/api/tables/{CODE}")
    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable"
    assert answer.headers["Retry-After"] == "5"
    away.away = False
    assert client.get(f"/api/tables/{CODE}").json()["code"] == "no_such_table"


def test_a_typed_code_goes_on_to_the_table_page(client: TestClient, away: Away) -> None:
    answer = client.get(f"/play/join?code={CODE.lower()}", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/play/{CODE}"


def test_the_socket_says_try_again_and_closes_so_the_page_reconnects(
    client: TestClient, away: Away
) -> None:
    with client.websocket_connect(f"/play/{CODE}/ws") as socket:
        refusal = socket.receive_json()
        assert refusal["type"] == "refused"
        assert refusal["code"] == "try_again"
        closing = socket.receive()
        assert closing["type"] == "websocket.close"
        assert closing["code"] == CLOSE_TRY_AGAIN
