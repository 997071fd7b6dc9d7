"""The winner moment on the board: the deciding round, the group's line, the next game first."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from helpers.tafel_forms import create, create_group, middle, stacks
from ligretto.web.pages.view import ordinal


def test_a_won_game_says_which_round_decided_it_and_offers_the_next_game_first(
    client: TestClient,
) -> None:
    edit = create(client, ["Anna", "Ben"], target="other", target_other="30")
    stacks(client, edit, {1: "2"}, stop=0)
    middle(client, edit, 1, {0: "14", 1: "16"})  # 14, 12: Anna ahead
    stacks(client, edit, {0: "1"}, stop=1)
    middle(client, edit, 2, {0: "10", 1: "24"})  # 22, 36: Ben from here on
    page = client.get(edit).text
    assert "Ben wins with 36 points!" in page
    assert "Decided in round 2 of 2: from then on Ben stayed ahead." in page
    # The next game is the first button under the winner, not under "More".
    end = page.index('id="board-end"')
    assert page.index('class="new-same"') > end
    assert page.index('class="new-same"') < page.index('id="more-title"')
    assert page.count('class="new-same"') == 1
    assert 'class="primary big">New game, same players<' in page
    watch = client.get(edit.removesuffix("/edit")).text
    assert "Decided in round 2 of 2" in watch and 'class="new-same"' not in watch
    norsk = client.get(edit, params={"lang": "nb"}).text
    assert "Avgjort i runde 2 av 2: Fra da av lå Ben foran." in norsk


def test_a_game_still_played_keeps_the_next_game_under_more(client: TestClient) -> None:
    edit = create(client, ["Anna", "Ben"])
    page = client.get(edit).text
    assert "Decided in round" not in page
    assert page.index('class="new-same"') > page.index('id="more-title"')


def _won(client: TestClient, gid: str, middle_counts: list[int]) -> str:
    """A target game of the group, won in its one round; its edit page's address."""
    created = client.post(
        f"/groups/{gid}/edit/games",
        data={"player": ["Anna", "Ben"], "mode": "target", "target": "5"},
    )
    assert created.status_code == 303, created.text
    game_id, token = re.fullmatch(
        r"/g/([\w-]+)/edit\?created=1#t=([\w-]+)", created.headers["location"]
    ).groups()  # type: ignore[union-attr]
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/api/games/{game_id}/rounds"
    assert client.post(url, json={"stacks": [0, 3]}, headers=headers).status_code == 201
    assert client.put(f"{url}/1", json={"middle": middle_counts}, headers=headers).is_success
    return f"/g/{game_id}/edit"


def test_a_group_game_tells_a_line_of_the_familys_history(client: TestClient) -> None:
    gid, _ = create_group(client)
    _won(client, gid, [20, 12])  # Anna 20 (the group's first game: no record yet)
    second = _won(client, gid, [24, 12])  # Anna 24: the best round so far
    page = client.get(second).text
    assert "Anna&#39;s 2nd win this year · Best round ever: Anna, 24 points in round 1" in page
    alone = create(client, ["Anna", "Ben"], target="other", target_other="5")
    stacks(client, alone, {1: "3"}, stop=0)
    middle(client, alone, 1, {0: "20", 1: "12"})
    assert "win this year" not in client.get(alone).text  # in no group
    german = client.get(second, params={"lang": "de"}).text
    assert "2. Sieg in diesem Jahr für Anna · Beste Runde aller Zeiten: Anna, 24 Punkte" in german


def test_ordinals_in_english_and_with_a_dot_in_german_and_norwegian() -> None:
    english = [ordinal("en", n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert english == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th",
        "21st", "22nd", "23rd", "101st", "111th", "112th",
    ]  # fmt: skip
    assert ordinal("de", 3) == "3." and ordinal("nb", 12) == "12."
