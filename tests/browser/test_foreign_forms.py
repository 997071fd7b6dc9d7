"""A form on another port of the same host cannot write with the phone's edit cookie.

To a browser ``http://127.0.0.1:<other port>`` is the same *site* as the
server, so it sends the ``SameSite=Strict`` edit cookie along with a form
posted from there, with the other port's ``Origin``; the server refuses it
with a page that says so, and the game keeps its rounds. The game's own forms, on
pages that ask for ``no-referrer`` (so Chromium sends ``Origin: null``), are
saved as before.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, Request, Route, expect

from helpers.browser import LiveServer, NewPage, Shoot
from ligretto.child_process import free_port


def _rounds(page: Page, server: LiveServer, game_id: str) -> int:
    answer = page.request.get(f"{server.url}/api/games/{game_id}")
    count: int = json.loads(answer.text())["rounds_count"]
    return count


def test_a_form_from_another_port_is_refused_and_the_own_form_is_saved(
    live_server: LiveServer, new_page: NewPage, shoot: Shoot
) -> None:
    # Without JavaScript the forms carry the token from the edit cookie only.
    page = new_page(java_script_enabled=False)
    posts: list[Request] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    page.goto(live_server.url + "/")
    for index, name in enumerate(["Anna", "Ben"]):
        page.locator("#names input[name=player]").nth(index).fill(name)
    page.get_by_role("button", name="Create game").last.click()
    match = re.search(r"/g/([\w-]+)/edit", page.url)
    assert match
    game_id = match[1]

    page.locator("input[name=stop][value='0']").check()
    page.locator("#stack-1").fill("4")
    page.get_by_role("button", name="Save stacks").click()
    expect(page.locator(".message.ok")).to_be_visible()
    own = posts[-1].all_headers()
    assert own.get("sec-fetch-site") == "same-origin"
    assert own.get("origin") in (None, "null", live_server.url)
    assert _rounds(page, live_server, game_id) == 1

    # The same form, served from another port of this host.
    elsewhere = f"http://127.0.0.1:{free_port()}"
    form = (
        f'<!doctype html><form method="post" action="{live_server.url}/g/{game_id}/edit/undo">'
        '<button type="submit">Win a prize</button></form>'
    )

    def serve(route: Route) -> None:
        route.fulfill(status=200, content_type="text/html", body=form)

    page.context.route(f"{elsewhere}/**", serve)
    page.goto(f"{elsewhere}/prize")
    page.get_by_role("button", name="Win a prize").click()
    expect(page.locator("h1")).to_have_text("Sent from another site")
    sent = posts[-1].all_headers()
    # (Chromium leaves Sec-Fetch-Site out for a page the test itself serves.)
    assert sent.get("origin") == elsewhere and sent.get("sec-fetch-site") in (None, "same-site")
    assert "tafel_edit_" in (sent.get("cookie") or "")  # it did come along
    shoot(page, "foreign-form-refused")
    assert _rounds(page, live_server, game_id) == 1  # not undone
