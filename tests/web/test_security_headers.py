"""Every answer carries the security headers, and the policy allows no inline code."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from ligretto.web.security_headers import content_security_policy


@pytest.mark.parametrize(
    "path", ["/", "/play", "/static/css/tafel.css", "/api/games/nope", "/no/such/page"]
)
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"
    policy = response.headers["content-security-policy"]
    assert policy == content_security_policy()
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert directives["script-src"].startswith("'self' 'sha256-")


def test_the_only_inline_script_is_the_import_map_the_policy_names(client: TestClient) -> None:
    page = client.get("/").text
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", page, re.S)
    executable = [body for attrs, body in inline if "application/json" not in attrs]
    assert len(executable) == 1 and 'type="importmap"' in page
    assert " style=" not in page


def test_the_api_docs_get_their_own_policy(client: TestClient) -> None:
    policy = client.get("/docs").headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and policy != content_security_policy()


def test_every_page_kind_asks_for_no_referrer_in_header_and_meta(client: TestClient) -> None:
    """docs/limits.md promises ``no-referrer``: the meta tag never weakens the header."""
    game = client.post("/api/games", json={"players": ["Anna", "Ben"]}).json()
    gid, token = game["id"], game["edit_token"]
    group = client.post("/api/groups", json={"name": "Donnerstag", "members": ["Anna"]}).json()
    table = client.post("/api/tables", json={"seats": 2, "name": "Anna"}).json()
    edit = {"X-Edit-Token": token}
    pages = {
        "/": {},
        "/?lang=nb": {},
        "/rules": {},
        "/offline": {},
        "/play": {},
        f"/play/{table['code']}": {},
        "/play/NOPE9": {},
        "/groups/new": {},
        f"/groups/{group['id']}": {},
        f"/groups/{group['id']}/edit": {},
        f"/groups/{group['id']}/members/Anna": {},
        f"/g/{gid}": {},
        f"/g/{gid}/history": {},
        f"/g/{gid}/edit": edit,
        f"/g/{gid}/edit/history": edit,
        f"/g/{gid}/edit/{token}": {},  # an old link: the redirect and the page it leads to
        "/g/nope": {},
        "/no/such/page": {},
    }
    for path, headers in pages.items():
        response = client.get(path, headers=headers)
        assert response.headers["referrer-policy"] == "no-referrer", path
        if "text/html" not in response.headers["content-type"]:
            continue
        metas = re.findall(r'<meta name="referrer" content="([^"]*)">', response.text)
        assert metas == ["no-referrer"], (path, metas)
    refused = client.post(f"/g/{gid}/edit/stacks", data={}, headers={"Origin": "https://x.example"})
    assert re.findall(r'<meta name="referrer" content="([^"]*)">', refused.text) == ["no-referrer"]
