"""Per-client rate limits: no single client can fill the server for everyone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ligretto.web.app import create_app
from ligretto.web.settings import Settings

PLAYERS = {"players": ["Anna", "Ben"], "mode": "target", "target": 99}


def make_client(tmp_path: Path, **settings: Any) -> TestClient:
    client_address = settings.pop("client", ("203.0.113.7", 50000))
    config = Settings(data_dir=tmp_path, database_url=None, rate_limits=True, **settings)
    return TestClient(create_app(config), client=client_address)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path, rate_create_game="3/minute", rate_table_lookup="4/minute") as c:
        yield c


def test_creating_games_past_the_limit_gets_429_with_retry_after_and_creates_nothing(
    client: TestClient,
) -> None:
    created = [client.post("/api/games", json=PLAYERS) for _ in range(3)]
    assert [r.status_code for r in created] == [201, 201, 201]
    refused = client.post("/api/games", json=PLAYERS)
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert "location" not in refused.headers
    # The start page's form shares the limit and answers with a page in the reader's language.
    page = client.post(
        "/?lang=de", data={"player": ["Anna", "Ben"], "action": "create"}, follow_redirects=False
    )
    assert page.status_code == 429 and "Zu viele Anfragen" in page.text
    # Reading is not limited: the games made before stay readable.
    game_id = created[0].json()["id"]
    assert client.get(f"/api/games/{game_id}").status_code == 200


def test_guessing_table_codes_is_limited_for_pages_lookups_and_websockets(
    client: TestClient,
) -> None:
    answers = [client.get(f"/api/tables/ZZZZZ{i}").status_code for i in range(4)]
    assert answers == [404] * 4
    assert client.get("/play/ZZZZZ9").status_code == 429
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/play/ZZZZZ9/ws"):
        pass
    assert closed.value.code == 1008


def test_limits_count_per_client_address(tmp_path: Path) -> None:
    with make_client(tmp_path, rate_create_table="1/minute") as one:
        assert one.post("/play/quick", data={"name": "Anna"}, follow_redirects=False).is_redirect
        assert one.post("/play/quick", data={"name": "Anna"}).status_code == 429
        assert one.post("/play/practice", data={"name": "Anna"}).status_code == 429
        other = TestClient(one.app, client=("198.51.100.2", 40000))
        assert other.post("/play/quick", data={"name": "Ben"}, follow_redirects=False).is_redirect


def test_a_trusted_proxy_names_the_client_and_an_untrusted_one_does_not(tmp_path: Path) -> None:
    proxy = ("127.0.0.1", 41000)
    with make_client(
        tmp_path, rate_create_game="1/minute", trusted_proxies=["127.0.0.1/32"], client=proxy
    ) as client:

        def create(forwarded: str) -> int:
            headers = {"X-Forwarded-For": forwarded}
            status: int = client.post("/api/games", json=PLAYERS, headers=headers).status_code
            return status

        assert create("192.0.2.1") == 201
        assert create("192.0.2.1") == 429
        assert create("192.0.2.2") == 201  # another person behind the same proxy
        # A client cannot escape its limit by sending the header itself: the
        # right-most address the proxy added is the one that counts.
        assert create("192.0.2.99, 192.0.2.1") == 429
    with make_client(tmp_path, rate_create_game="1/minute") as direct:
        assert direct.post("/api/games", json=PLAYERS).status_code == 201
        spoofed = direct.post("/api/games", json=PLAYERS, headers={"X-Forwarded-For": "192.0.2.3"})
        assert spoofed.status_code == 429


def test_group_imports_and_exports_have_their_own_limits(tmp_path: Path) -> None:
    with make_client(
        tmp_path, rate_group_import="2/minute", rate_group_export="2/minute"
    ) as client:
        group = {"name": "Family", "members": ["Anna", "Ben"], "games": []}
        imported = [client.post("/api/groups/import", json=group) for _ in range(2)]
        assert [r.status_code for r in imported] == [201, 201]
        refused = client.post("/api/groups/import", json=group)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        gid = imported[0].json()["id"]
        exports = [client.get(f"/api/groups/{gid}/export.json").status_code for _ in range(3)]
        assert exports == [200, 200, 429]
        # A game's import keeps its own budget, and reading the group is not limited.
        assert (
            client.post("/api/games/import", json={"players": ["Anna", "Ben"]}).status_code == 201
        )
        assert client.get(f"/api/groups/{gid}").status_code == 200
