"""The Tafel's and the groups' forms posted as a phone without JavaScript does."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

TOKENS: dict[str, str] = {}
"""The edit token of each game these tests created, by its edit page address."""


def create(client: TestClient, players: list[str], **fields: str) -> str:
    """Create a game; its edit page's address (``/g/{id}/edit``, the token is kept aside)."""
    data: dict[str, str | list[str]] = {"player": players, "action": "create"}
    data.update(fields)
    response = client.post("/", data=data)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    # The token travels in the fragment, never in the path or the query.
    match = re.fullmatch(r"(/g/[\w-]+/edit)\?created=1#t=([\w-]+)", location)
    assert match, location
    edit, secret = match.groups()
    TOKENS[edit] = secret
    welcome = client.get(location.split("#")[0]).text
    assert "Game created. Everyone can watch it on their phone:" in welcome
    # The phone's edit cookie (pages without JavaScript) puts it into the forms.
    assert f'name="token" value="{secret}"' in welcome
    return edit


def game_id(edit: str) -> str:
    return edit.split("/")[2]


def token(edit: str) -> str:
    return TOKENS[edit]


def version(html: str) -> str:
    match = re.search(r'name="version" value="(\d+)"', html)
    assert match
    return match.group(1)


def stacks(client: TestClient, edit: str, values: dict[int, str], stop: int | None = None):  # type: ignore[no-untyped-def]
    page = client.get(edit).text
    data: dict[str, str] = {"version": version(page)}
    data.update({f"stack-{seat}": v for seat, v in values.items()})
    if stop is not None:
        data["stop"] = str(stop)
    return client.post(f"{edit}/stacks", data=data)


def middle(client: TestClient, edit: str, number: int, values: dict[int, str], **extra: str):  # type: ignore[no-untyped-def]
    page = client.get(edit).text
    data = {"version": version(page), "round": str(number)}
    data.update({f"middle-{seat}": v for seat, v in values.items()})
    data.update(extra)
    return client.post(f"{edit}/middle", data=data)


def totals(client: TestClient, edit: str) -> list[str]:
    html = client.get(edit).text
    return re.findall(r'<div class="total" data-total>([^<]+)</div>', html)


def create_group(client: TestClient, members: str = "Anna\nBen\nCleo") -> tuple[str, str]:
    response = client.post("/groups", data={"name": "Donnerstag", "members": members})
    assert response.status_code == 303
    location = response.headers["location"]
    match = re.fullmatch(r"/groups/([\w-]+)/edit#t=([\w-]+)", location)
    assert match, location
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert f"Path=/groups/{match[1]}/edit" in cookie
    return match[1], match[2]
