"""A phone passed round the table keeps no cached copy of an answer that carries an edit token.

Every answer that carries or sets a game's or a group's edit token is sent
with ``Cache-Control: no-store``: the edit pages and their forms, the
redirects that set the edit cookie and lead to ``…#t=<token>`` (creating a
game or a group, an old edit link), every API write (a new game's answer
holds its token), and forgetting a game or a group on this browser, which
expires its cookie. Before, the redirects after creating a game or a group
had no Cache-Control at all.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from ligretto.web.security_headers import carries_token


def _no_store(answer: object) -> None:
    headers = answer.headers  # type: ignore[attr-defined]
    assert headers.get_list("cache-control") == ["no-store"], dict(headers)


def test_creating_a_game_or_a_group_on_the_pages_is_never_kept(client: TestClient) -> None:
    created = client.post(
        "/", data={"player": ["Anna", "Ben"], "action": "create"}, follow_redirects=False
    )
    assert created.status_code == 303 and "#t=" in created.headers["location"]
    _no_store(created)
    group = client.post(
        "/groups", data={"name": "Thursday", "member": ["Anna", "Ben"]}, follow_redirects=False
    )
    assert group.status_code == 303 and "#t=" in group.headers["location"]
    _no_store(group)
    game_id, token = (
        created.headers["location"].split("/")[2],
        created.headers["location"].split("#t=")[1],
    )
    _no_store(client.get(f"/g/{game_id}/edit/{token}", follow_redirects=False))
    _no_store(client.get(f"/g/{game_id}/edit", headers={"X-Edit-Token": token}))


def test_every_api_write_is_never_kept(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": ["Anna", "Ben"]})
    assert created.status_code == 201 and "edit_token" in created.json()
    _no_store(created)
    _no_store(client.post("/api/games", json={"players": ["Anna"]}))  # a refusal too


def test_forgetting_expires_the_cookie_and_is_never_kept(client: TestClient) -> None:
    for path, cookie in (
        ("/g/abc/edit/forget", "tafel_edit_abc"),
        ("/groups/xyz/edit/forget", "tafel_group_xyz"),
    ):
        answer = client.post(path)
        assert answer.status_code == 204
        _no_store(answer)
        set_cookie = answer.headers["set-cookie"]
        assert set_cookie.startswith(f"{cookie}=") and "Max-Age=0" in set_cookie


def test_what_carries_a_token() -> None:
    def scope(path: str, method: str = "GET") -> dict[str, str]:
        return {"path": path, "method": method}

    assert carries_token(scope("/g/abc/edit/history"), [])
    assert carries_token(scope("/groups/abc/edit"), [])
    assert carries_token(scope("/api/groups", "POST"), [])
    assert carries_token(scope("/"), [(b"set-cookie", b"tafel_edit_x=t; Path=/g/x/edit")])
    assert carries_token(scope("/play"), [(b"location", b"/play/ABCDEF#t=secret")])
    assert not carries_token(scope("/g/abc"), [])  # the watch page
    assert not carries_token(scope("/api/games/abc"), [])
    assert not carries_token(scope("/"), [(b"set-cookie", b"lang=de")])
