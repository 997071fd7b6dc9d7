"""Per-client rate limits: no single client can fill the server for everyone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from ligretto.web.app import create_app
from ligretto.web.ratelimit import RateLimits
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


def test_a_tables_rounds_and_replays_count_as_looking_it_up(client: TestClient) -> None:
    # A kept round's list, its replay and its page answer differently for a
    # code in use: they share the lookups' limit, so codes cannot be guessed
    # through them either.
    answers = [
        client.get("/api/tables/ZZZZZ1/rounds").status_code,
        client.get("/api/tables/ZZZZZ2/rounds/1/replay").status_code,
        client.get("/play/ZZZZZ3/rounds/1/replay").status_code,
        client.get("/api/tables/ZZZZZ4").status_code,
    ]
    assert 429 not in answers
    for path in (
        "/api/tables/ZZZZZ5/rounds",
        "/api/tables/ZZZZZ6/rounds/1/replay",
        "/play/ZZZZZ7/rounds/1/replay",
    ):
        refused = client.get(path)
        assert refused.status_code == 429, path
        assert 1 <= int(refused.headers["retry-after"]) <= 60


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


def _create_from(app_client: TestClient, address: str) -> int:
    """Create a game as the client at ``address`` (the ASGI peer); the status."""
    other = TestClient(app_client.app, client=(address, 40000))
    status: int = other.post("/api/games", json=PLAYERS).status_code
    return status


def test_ipv6_clients_count_by_their_64_and_ipv4_clients_by_their_address(
    tmp_path: Path,
) -> None:
    with make_client(tmp_path, rate_create_game="1/minute") as client:
        assert _create_from(client, "2001:db8:1:2::1") == 201
        # Another address of the same /64 is the same household or phone.
        assert _create_from(client, "2001:db8:1:2:ffff:ffff:ffff:fffe") == 429
        assert _create_from(client, "2001:db8:1:3::1") == 201  # the next /64
        assert _create_from(client, "192.0.2.1") == 201
        assert _create_from(client, "192.0.2.2") == 201  # IPv4: each address its own
        # An IPv4 address written as IPv6 by a dual-stack socket is that address.
        assert _create_from(client, "::ffff:192.0.2.1") == 429


@pytest.mark.parametrize(
    ("prefix", "second", "expected"),
    [
        (48, "2001:db8:1:ff::1", 429),  # one /48: one client
        (64, "2001:db8:1:ff::1", 201),
        (128, "2001:db8:1:2::2", 201),  # every address its own
    ],
)
def test_the_ipv6_prefix_is_configurable(
    tmp_path: Path, prefix: int, second: str, expected: int
) -> None:
    with make_client(
        tmp_path, rate_create_game="1/minute", rate_limit_ipv6_prefix=prefix
    ) as client:
        assert _create_from(client, "2001:db8:1:2::1") == 201
        assert _create_from(client, second) == expected


def test_the_ipv4_prefix_is_configurable(tmp_path: Path) -> None:
    with make_client(tmp_path, rate_create_game="1/minute", rate_limit_ipv4_prefix=24) as client:
        assert _create_from(client, "192.0.2.1") == 201
        assert _create_from(client, "192.0.2.200") == 429
        assert _create_from(client, "192.0.3.1") == 201


def test_ipv6_clients_behind_a_trusted_proxy_count_by_their_64(tmp_path: Path) -> None:
    with make_client(
        tmp_path,
        rate_create_game="1/minute",
        trusted_proxies=["127.0.0.1"],
        client=("127.0.0.1", 41000),
    ) as client:

        def create(forwarded: str) -> int:
            headers = {"X-Forwarded-For": forwarded}
            status: int = client.post("/api/games", json=PLAYERS, headers=headers).status_code
            return status

        assert create("2001:db8:5:6::10") == 201
        assert create("2001:db8:5:6:abcd::99") == 429
        assert create("2001:db8:5:7::10") == 201


def test_the_prefixes_are_read_from_the_environment_and_checked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LIGRETTO_RATE_LIMIT_IPV6_PREFIX", "56")
    monkeypatch.setenv("LIGRETTO_RATE_LIMIT_IPV4_PREFIX", "24")
    limits = Settings(data_dir=tmp_path).rate_limit_settings()
    assert (limits.ipv4_prefix, limits.ipv6_prefix) == (24, 56)
    for name, value in (("ipv6", "129"), ("ipv4", "33"), ("ipv6", "-1")):
        monkeypatch.setenv(f"LIGRETTO_RATE_LIMIT_{name.upper()}_PREFIX", value)
        with pytest.raises(ValidationError, match=f"rate_limit_{name}_prefix"):
            Settings(data_dir=tmp_path)
        monkeypatch.delenv(f"LIGRETTO_RATE_LIMIT_{name.upper()}_PREFIX")
    with pytest.raises(ValueError, match="ipv6_prefix must be between 0 and 128"):
        RateLimits(ipv6_prefix=129)


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
