"""The /play forms with a group picked (issue 16): the group page's button,
the hidden fields, and refusals of a wrong group that open nothing."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from helpers.live_wire import code_of, tables_of
from ligretto.live.table import Table


def new_group(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/groups", json={"name": "Thursday table", "members": ["Anna"]})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def hidden(page: str, name: str) -> list[str]:
    return re.findall(rf'<input type="hidden" name="{name}" value="([^"]*)"', page)


def table_of(client: TestClient, response: Any) -> Table:
    """The table a form opened (its code from the redirect)."""
    table = tables_of(client).get(code_of(response))
    assert table is not None
    return table


def test_the_group_page_has_the_button_that_posts_to_the_form(app_client: TestClient) -> None:
    group = new_group(app_client)
    page = app_client.get(f"/groups/{group['id']}/edit").text
    form = page[page.index('id="play-online"') :]
    form = form[: form.index("</form>")]
    assert 'action="/play/group"' in page and f'value="{group["id"]}"' in form
    assert "data-group-token" in form and "Play online with this group" in form
    # The read-only page has no such button.
    assert 'id="play-online"' not in app_client.get(f"/groups/{group['id']}").text


def test_the_button_without_script_renders_the_form_with_the_group(
    app_client: TestClient,
) -> None:
    group = new_group(app_client)
    response = app_client.post(
        "/play/group", data={"group": group["id"], "group_token": group["token"]}
    )
    assert response.status_code == 200
    page = response.text
    # Both forms (quick game and own table) carry the group, the note names it.
    assert hidden(page, "group") == [group["id"]] * 2
    assert hidden(page, "group_token") == [group["token"]] * 2
    note = page[page.index('id="group-note"') :]
    assert note.index("Thursday table") < note.index("</div>")
    assert not re.search(r'id="group-note"[^>]* hidden', page)
    # Without a group the note is hidden and the fields are empty.
    plain = app_client.get("/play").text
    assert re.search(r'id="group-note"[^>]* hidden', plain)
    assert hidden(plain, "group") == ["", ""]


def test_a_wrong_token_on_the_button_is_refused(app_client: TestClient) -> None:
    group = new_group(app_client)
    response = app_client.post("/play/group", data={"group": group["id"], "group_token": "nope"})
    assert response.status_code == 403
    assert "link is not right" in response.text
    assert hidden(response.text, "group") == ["", ""]
    missing = app_client.post("/play/group", data={"group": "nosuch", "group_token": "x"})
    assert missing.status_code == 404 and "no such group" in missing.text


def test_the_forms_open_tables_that_record_into_the_group(app_client: TestClient) -> None:
    group = new_group(app_client)
    picked = {"group": group["id"], "group_token": group["token"]}
    quick = app_client.post("/play/quick", data={"name": "Anna", **picked}, follow_redirects=False)
    assert quick.status_code == 303
    table = table_of(app_client, quick)
    assert table.group is not None and table.group.id == group["id"]
    own = app_client.post(
        "/play",
        data={"name": "Ben", "seats": "2", "seat1": "greedy", **picked},
        follow_redirects=False,
    )
    assert own.status_code == 303
    assert table_of(app_client, own).group == table.group
    # The practice round never records into a group.
    practice = app_client.post(
        "/play/practice", data={"name": "Anna", **picked}, follow_redirects=False
    )
    assert table_of(app_client, practice).group is None


def test_a_wrong_group_on_the_forms_opens_nothing(app_client: TestClient) -> None:
    group = new_group(app_client)
    before = len(tables_of(app_client))
    for path, data, status in [
        ("/play/quick", {"name": "Anna", "group": group["id"], "group_token": "nope"}, 403),
        ("/play", {"name": "Anna", "group": group["id"], "group_token": ""}, 403),
        ("/play", {"name": "Anna", "group": "nosuch", "group_token": "x"}, 404),
        # With another error too, the form answers 422 and names both.
        ("/play", {"seats": "99", "group": group["id"], "group_token": "nope"}, 422),
    ]:
        response = app_client.post(path, data=data, follow_redirects=False)
        assert response.status_code == status, (path, data, response.text)
        assert "Nothing was opened" in response.text
        assert group["token"] not in response.text
    assert len(tables_of(app_client)) == before
