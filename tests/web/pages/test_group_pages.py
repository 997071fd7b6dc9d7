"""A group's pages: creation, the forms of the group link, league, history, members."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

from helpers.tafel_forms import create_group
from ligretto.web.group_charts import histogram_svg, rating_band_svg


def _play(
    client: TestClient, gid: str, players: list[str], stacks: list[int], middle: list[int]
) -> str:
    response = client.post(
        f"/groups/{gid}/edit/games",
        data={"player": players, "mode": "rounds", "rounds": "1"},
    )
    assert response.status_code == 303, response.text
    game_id, token = re.fullmatch(
        r"/g/([\w-]+)/edit\?created=1#t=([\w-]+)", response.headers["location"]
    ).groups()  # type: ignore[union-attr]
    headers = {"Authorization": f"Bearer {token}"}
    assert (
        client.post(
            f"/api/games/{game_id}/rounds", json={"stacks": stacks}, headers=headers
        ).status_code
        == 201
    )
    assert (
        client.put(
            f"/api/games/{game_id}/rounds/1", json={"middle": middle}, headers=headers
        ).status_code
        == 200
    )
    return game_id


def test_a_group_is_created_and_its_page_never_shows_the_token_to_watchers(
    client: TestClient,
) -> None:
    gid, token = create_group(client)
    edit = client.get(f"/groups/{gid}/edit")
    assert edit.status_code == 200 and token in edit.text  # the cookie fills the forms
    client.cookies.clear()
    watch = client.get(f"/groups/{gid}")
    assert watch.status_code == 200
    assert token not in watch.text and "/edit/games" not in watch.text
    assert client.get("/groups/nope").status_code == 404


def test_a_new_name_needs_confirmation_then_the_game_counts(client: TestClient) -> None:
    gid, _ = create_group(client)
    refused = client.post(
        f"/groups/{gid}/edit/games?lang=en",
        data={"player": ["Anna", "Ben"], "new_players": "Dora", "mode": "rounds", "rounds": "1"},
    )
    assert refused.status_code == 422
    assert "Not yet members of the group: Dora" in refused.text
    _play(client, gid, ["Anna", "Ben"], [0, 4], [20, 10])
    _play(client, gid, ["Ben", "Cleo"], [0, 3], [22, 8])
    page = client.get(f"/groups/{gid}?season=all&lang=en")
    assert page.status_code == 200
    league = page.text[page.text.index('class="league family"') :]
    # Anna beat Ben, who beat Cleo
    assert league.index("Anna") < league.index("Ben") < league.index("Cleo")
    assert '<svg class="chart"' in page.text
    # The chart under "Details: how strong is everyone?" speaks of strength,
    # the word its table and its sentence use, not of a "rating".
    strength = page.text[page.text.index('id="strength"') :]
    assert "Strength after each game" in strength and "Strength now: " in strength
    assert "Rating" not in page.text
    assert page.text.count('<a class="game-link" href="/g/') == 2
    # Without the page's script each link says its time in UTC, marked so.
    assert page.text.count(" UTC</time>") == 2
    filtered = client.get(f"/groups/{gid}?member=Cleo&lang=en")
    assert filtered.text.count('<a class="game-link" href="/g/') == 1
    member = client.get(f"/groups/{gid}/members/ben?lang=de")
    assert member.status_code == 200
    assert "Direkter Vergleich" in member.text and "Siegquote" in member.text
    assert member.text.count('<svg class="chart"') == 2  # strength and points
    # The league ranks by wins: the member's chart says "strength", like the
    # group page, and no longer claims the league ranks by it.
    assert "Stärke im Verlauf" in member.text and "Stärke von Ben nach jedem Spiel" in member.text
    assert "Wertung" not in member.text
    assert client.get(f"/groups/{gid}/members/Zoe").status_code == 404


def test_writes_without_the_group_token_are_refused_in_the_page(client: TestClient) -> None:
    gid, _ = create_group(client)
    client.cookies.clear()
    refused = client.post(
        f"/groups/{gid}/edit/members?lang=en", data={"names": "Dora", "token": "wrong"}
    )
    assert refused.status_code == 422
    assert "This needs the group&#39;s link" in refused.text
    assert "Dora" not in client.get(f"/api/groups/{gid}").text


def test_an_existing_game_is_added_by_its_edit_link(client: TestClient) -> None:
    gid, token = create_group(client, "Anna")
    game = client.post("/api/games", json={"players": ["Anna", "Zoe"]}).json()
    link = f"http://x/g/{game['id']}/edit#t={game['edit_token']}"
    refused = client.post(
        f"/groups/{gid}/edit/add-game?lang=en", data={"link": link, "token": token}
    )
    assert refused.status_code == 422 and "Zoe" in refused.text
    added = client.post(
        f"/groups/{gid}/edit/add-game", data={"link": link, "token": token, "confirm_new": "1"}
    )
    assert added.status_code == 303
    assert client.get(f"/api/groups/{gid}").json()["members"] == ["Anna", "Zoe"]
    bad = client.post(
        f"/groups/{gid}/edit/add-game?lang=en", data={"link": "nonsense", "token": token}
    )
    assert "There is no game at this link" in bad.text


@pytest.mark.parametrize(
    "svg",
    [
        rating_band_svg(
            [25.0, 27.5, 26.0], [8.3, 7.1, 6.0], title="R <1>", description="d", x_label="games"
        ),
        histogram_svg([-12, -4, 0, 3, 3, 17, 25], title="P", description="d & e", x_label="points"),
        histogram_svg([5], title="P", description="d", x_label="points"),
    ],
)
def test_group_charts_are_well_formed_svg_with_a_title(svg: str) -> None:
    root = ET.fromstring(str(svg))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("role") == "img"
    assert root.find(f"{ns}title") is not None


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("de", "Die Statistik wird vorbereitet"),
        ("en", "Statistics are being prepared"),
        ("nb", "Statistikken blir forberedt"),
    ],
)
def test_a_large_groups_pages_say_they_are_being_prepared_and_reload_until_ready(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, language: str, title: str
) -> None:
    import time

    from ligretto.store import group_queries

    gid, _ = create_group(client)
    _play(client, gid, ["Anna", "Ben"], [0, 4], [20, 10])
    client.cookies.clear()
    # Every group counts as large: nothing is kept yet, so every page is prepared.
    monkeypatch.setattr(group_queries, "PREPARE_ABOVE_ROUNDS", 0)
    for path in (f"/groups/{gid}", f"/groups/{gid}/members/anna"):
        first = client.get(f"{path}?lang={language}")
        assert first.status_code == 202, path
        assert title in first.text
        assert '<meta http-equiv="refresh" content="5">' in first.text
        assert first.headers["retry-after"] == "5"
        assert first.headers["cache-control"] == "no-store"
        for _ in range(200):  # the background work is short here; ask again until it is kept
            page = client.get(f"{path}?lang={language}")
            if page.status_code != 202:
                break
            time.sleep(0.05)
        assert page.status_code == 200, path
        assert title not in page.text
    assert client.get("/groups/nope0000000000000000").status_code == 404
