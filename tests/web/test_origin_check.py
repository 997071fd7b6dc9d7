"""Writes to the edit pages come from this site's own pages, or are refused and change nothing.

The edit cookie is ``SameSite=Strict``, but a sibling subdomain or another
port of the same host is the same *site* to a browser: it would send the
cookie along. So a write below ``/g/{id}/edit`` or ``/groups/{id}/edit``
that the browser marks as sent from elsewhere (``Sec-Fetch-Site``, a
foreign ``Origin``) is refused with 403 before anything runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ligretto.web.app import create_app
from ligretto.web.origin_check import is_foreign, own_origin
from ligretto.web.settings import Settings

STACKS = {"stack-0": "0", "stack-1": "4"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client


def _game(client: TestClient) -> tuple[str, str]:
    """A new game whose edit cookie the client now holds (as a phone without JavaScript)."""
    created = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
    game_id, token = created["id"], created["edit_token"]
    moved = client.get(f"/g/{game_id}/edit/{token}")  # an old link: sets the edit cookie
    assert moved.status_code == 303 and f"tafel_edit_{game_id}=" in moved.headers["set-cookie"]
    return game_id, token


def _rounds(client: TestClient, game_id: str) -> int:
    count: int = client.get(f"/api/games/{game_id}").json()["rounds_count"]
    return count


def _post_stacks(client: TestClient, game_id: str, headers: dict[str, str]) -> Any:
    return client.post(f"/g/{game_id}/edit/stacks", data=STACKS, headers=headers)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "cross-site"},
        # A foreign page under no-referrer sends Origin: null; Sec-Fetch-Site still tells.
        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
        # A sibling subdomain or another port: the same site, another origin.
        {"Origin": "http://other.testserver", "Sec-Fetch-Site": "same-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "http://testserver:8080"},
        {"Origin": "https://testserver"},
        {"Origin": "https://evil.example"},
        {"Origin": "not an origin"},
    ],
)
def test_a_cookie_write_from_another_origin_is_refused_and_changes_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    game_id, _ = _game(client)
    refused = _post_stacks(client, game_id, {**headers, "Accept-Language": "de"})
    assert refused.status_code == 403
    assert "text/html" in refused.headers["content-type"]
    assert "Von einer anderen Seite geschickt" in refused.text
    assert "nichts geändert" in refused.text
    assert refused.headers["referrer-policy"] == "no-referrer"  # still a page like any other
    assert _rounds(client, game_id) == 0


@pytest.mark.parametrize(
    "headers",
    [
        {},  # an old browser or curl: neither header
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
        {"Origin": "http://testserver:80"},
        {"Sec-Fetch-Site": "same-origin"},
        # The pages ask for no-referrer: their own forms then send Origin: null.
        {"Sec-Fetch-Site": "same-origin", "Origin": "null"},
        {"Sec-Fetch-Site": "none"},  # typed or bookmarked
    ],
)
def test_a_cookie_write_from_this_site_is_saved(
    client: TestClient, headers: dict[str, str]
) -> None:
    game_id, _ = _game(client)
    saved = _post_stacks(client, game_id, headers)
    assert saved.status_code == 303, saved.text
    assert _rounds(client, game_id) == 1


def test_every_write_below_the_edit_pages_is_checked(client: TestClient) -> None:
    game_id, token = _game(client)
    foreign = {"Sec-Fetch-Site": "same-site", "Accept-Language": "en"}
    for path in ("undo", "finish", "rounds/1", "rounds/1/remove", "no-such-form"):
        answer = client.post(f"/g/{game_id}/edit/{path}", data={}, headers=foreign)
        assert answer.status_code == 403, path
        assert "Sent from another site" in answer.text
    for method in ("PUT", "PATCH", "DELETE"):
        assert client.request(method, f"/g/{game_id}/edit", headers=foreign).status_code == 403
    # A page opened before the token left the address sends its form on, not from here.
    old_form = client.post(f"/g/{game_id}/edit/{token}/stacks", data=STACKS, headers=foreign)
    assert old_form.status_code == 403
    # Reading stays open to every link: only writes are checked.
    assert client.get(f"/g/{game_id}/edit", headers=foreign).status_code == 200
    assert _rounds(client, game_id) == 0


def test_a_group_write_from_another_origin_is_refused(client: TestClient) -> None:
    created = client.post("/groups", data={"name": "Donnerstag", "members": "Anna\nBen"})
    match = re.fullmatch(r"/groups/([\w-]+)/edit#t=[\w-]+", created.headers["location"])
    assert match
    group = match[1]
    foreign = {"Origin": "http://testserver:8443", "Accept-Language": "nb"}
    refused = client.post(f"/groups/{group}/edit/members", data={"names": "Cleo"}, headers=foreign)
    assert refused.status_code == 403
    assert "Sendt fra et annet nettsted" in refused.text
    assert client.get(f"/api/groups/{group}").json()["members"] == ["Anna", "Ben"]
    # The same form from the group's own page is saved.
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    saved = client.post(f"/groups/{group}/edit/members", data={"names": "Cleo"}, headers=own)
    assert saved.status_code == 303
    assert client.get(f"/api/groups/{group}").json()["members"] == ["Anna", "Ben", "Cleo"]


def test_the_api_takes_no_cookie_and_is_not_checked(client: TestClient) -> None:
    """The API's token travels in ``Authorization``, which no other site can make a browser send."""
    game_id, _ = _game(client)
    answer = client.post(
        f"/api/games/{game_id}/rounds",
        json={"stacks": [0, 4]},
        headers={"Origin": "https://evil.example"},  # the cookie alone: refused by the API
    )
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert _rounds(client, game_id) == 0


def _scope(scheme: str, host: str | None, **headers: str) -> dict[str, Any]:
    raw = [(k.lower().replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    if host is not None:
        raw.append((b"host", host.encode()))
    return {"type": "http", "scheme": scheme, "headers": raw, "server": ("10.0.0.5", 8001)}


def test_own_origin_is_scheme_host_and_port_as_the_request_reached_the_server() -> None:
    # Behind a trusted proxy uvicorn has already set the scheme from X-Forwarded-Proto.
    assert own_origin(_scope("https", "tafel.example")) == "https://tafel.example"
    assert own_origin(_scope("https", "Tafel.Example:443")) == "https://tafel.example"
    assert own_origin(_scope("http", "tafel.example:8000")) == "http://tafel.example:8000"
    assert own_origin(_scope("http", "[::1]:80")) == "http://[::1]"
    assert own_origin(_scope("http", None)) == "http://10.0.0.5:8001"  # HTTP/1.0, no Host
    assert not is_foreign(_scope("https", "tafel.example", origin="https://tafel.example:443"))
    assert is_foreign(_scope("https", "tafel.example", origin="http://tafel.example"))
    assert is_foreign(_scope("https", "tafel.example", origin="https://www.tafel.example"))
