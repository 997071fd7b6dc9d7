"""Online tables that record into a group (issue 16): the host picks the
group when the table opens; each game the table opens joins it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.live_wire import FAST, join, receive_until, send, table_until
from ligretto.live.persistence import table_state
from ligretto.live.registry import restore_table
from ligretto.live.scoring.keeper import EndCondition, GroupLink
from ligretto.live.scoring.tafel import TafelScoreKeeper
from ligretto.live.table import Table
from ligretto.rules.options import RuleOptions
from ligretto.store import TafelService
from ligretto.store.database import make_engine, migrate
from ligretto.store.groups import GroupService
from ligretto.store.live_tables import StoredTable
from ligretto.web.app import create_app
from ligretto.web.settings import Settings


@pytest.fixture
def tafel_client(tmp_path: Path) -> Iterator[TestClient]:
    """The whole app: tables keep their score on Tafel games, groups exist."""
    app = create_app(Settings(data_dir=tmp_path, database_url=None))
    app.state.table_settings = FAST
    with TestClient(app) as client:
        yield client


def new_group(client: TestClient, members: list[str] | None = None) -> dict[str, Any]:
    response = client.post(
        "/api/groups", json={"name": "Thursday table", "members": members or ["Anna"]}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def one_round_table(group: dict[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "seats": 3,
        "name": "Anna",
        "end": {"mode": "rounds", "rounds": 1},
        "bots": [{"strategy": "greedy", "level": "expert"}] * 2,
    }
    if group is not None:
        body["group"] = group
    return body


def games_of(client: TestClient, group_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/groups/{group_id}/games")
    assert response.status_code == 200, response.text
    games: list[dict[str, Any]] = response.json()
    return games


def test_each_game_of_a_table_joins_the_group_the_host_picked(tafel_client: TestClient) -> None:
    group = new_group(tafel_client)
    response = tafel_client.post(
        "/api/tables", json=one_round_table({"id": group["id"], "token": group["token"]})
    )
    assert response.status_code == 201, response.text
    created = response.json()
    with tafel_client.websocket_connect(f"/play/{created['code']}/ws") as anna:
        join(anna, token=created["host_token"])
        send(anna, "start")
        first = table_until(anna, lambda t: t["phase"] == "game_over")
        assert first["tafel_game"] is not None
        games = games_of(tafel_client, group["id"])
        assert [g["id"] for g in games] == [first["tafel_game"]]
        # On the Tafel (and so in the group) bots are "Bot 2", without jargon.
        seat_names = [
            s["name"].split(" (")[0] if s["kind"] == "bot" else s["name"] for s in first["seats"]
        ]
        assert games[0]["players"] == seat_names
        assert games[0]["rounds"] == 1 and games[0]["status"] == "finished"
        # The bots joined the group as members (picking the group confirmed them).
        members = tafel_client.get(f"/api/groups/{group['id']}").json()["members"]
        assert members == seat_names
        # Play again: the second game joins the group too.
        send(anna, "play_again")
        second = table_until(anna, lambda t: t["tafel_game"] not in (None, first["tafel_game"]))
    ids = {g["id"] for g in games_of(tafel_client, group["id"])}
    assert ids == {first["tafel_game"], second["tafel_game"]}


def test_a_table_without_a_group_records_into_none(tafel_client: TestClient) -> None:
    group = new_group(tafel_client)
    created = tafel_client.post("/api/tables", json=one_round_table(None)).json()
    with tafel_client.websocket_connect(f"/play/{created['code']}/ws") as anna:
        join(anna, token=created["host_token"])
        send(anna, "start")
        assert receive_until(anna, "round_over")["game_over"] is True
    assert games_of(tafel_client, group["id"]) == []


@pytest.mark.parametrize(
    ("which", "status", "code"),
    [("token", 403, "forbidden"), ("id", 404, "group_not_found")],
)
def test_a_wrong_group_is_refused_and_nothing_opens(
    tafel_client: TestClient, which: str, status: int, code: str
) -> None:
    group = new_group(tafel_client)
    link = {"id": group["id"], "token": group["token"]}
    # One character changed (one that was "x" already would change nothing).
    first = "y" if link[which].startswith("x") else "x"
    link[which] = first + link[which][1:]
    tables = tafel_client.app.state.tables  # type: ignore[attr-defined]
    before = len(tables)
    response = tafel_client.post("/api/tables", json=one_round_table(link))
    assert response.status_code == status, response.text
    assert response.json()["code"] == code
    assert group["token"] not in response.text
    assert len(tables) == before


@pytest.mark.parametrize(
    "group",
    [{"id": "abc"}, {"id": "", "token": "t"}, {"id": "a", "token": "t", "name": "x"}, "abc"],
)
def test_a_malformed_group_is_refused_input(tafel_client: TestClient, group: Any) -> None:
    response = tafel_client.post("/api/tables", json={**one_round_table(None), "group": group})
    assert response.status_code == 422, response.text


def test_the_table_keeps_its_group_when_it_is_stored_and_restored() -> None:
    link = GroupLink("g1", "secret-token")
    table = Table("ABCDEF", seats=2, options=RuleOptions(), end=EndCondition(), host_token="h")
    table.state.group = link
    state = table_state(table.state)
    assert state["group"] == {"id": "g1", "token": "secret-token"}
    restored = restore_table(
        StoredTable("ABCDEF", state, []), scorekeeper=None, settings=FAST, journal=None
    )
    assert restored.group == link
    # A table stored before groups existed comes back without one.
    del state["group"]
    old = restore_table(
        StoredTable("ABCDEF", state, []), scorekeeper=None, settings=FAST, journal=None
    )
    assert old.group is None
    # The token stays out of the link's text form (and so out of logs).
    assert "secret-token" not in repr(link)


def test_a_group_that_refuses_leaves_the_game_on_its_own(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'ligretto.db'}")
    migrate(engine)
    groups = GroupService(engine)
    keeper = TafelScoreKeeper(TafelService(engine), groups=groups)
    group = groups.create_group("Thursday table", ["Anna"])
    with caplog.at_level(logging.ERROR):
        game_id, _ = keeper.create_game(
            ["Anna", "Ben"],
            EndCondition(),
            deck="ligretto",
            row_storage=False,
            group=GroupLink(group.stored.id, "not-the-token"),
        )
    assert keeper.service.get_game(game_id).game.players == ("Anna", "Ben")
    assert groups.get_group(group.stored.id).games == 0
    assert "stands alone" in caplog.text and "not-the-token" not in caplog.text
    # With the right token the same kind of game joins, Ben as a new member.
    game_id, _ = keeper.create_game(
        ["Anna", "Ben"],
        EndCondition(),
        deck="ligretto",
        row_storage=False,
        group=GroupLink(group.stored.id, group.token),
    )
    stored = groups.get_group(group.stored.id)
    assert stored.games == 1 and stored.members == ("Anna", "Ben")
    engine.dispose()
