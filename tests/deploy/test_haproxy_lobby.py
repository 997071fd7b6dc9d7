"""The lobby and quick match through two processes behind the shipped
HAProxy on one PostgreSQL (issue 47): each process's public tables are
listed by both, a lobby stream on either process (or through the proxy)
sees a table of the other come and go, and two people who ask different
processes for a match meet at one table, reached through the proxy by
its code."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from helpers.haproxy_stack import Stack, client, start_stack
from helpers.live_client import Person
from helpers.lobby_stream import codes, following

# Several processes share one database only on PostgreSQL.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),
]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> Iterator[Stack]:
    started = start_stack(tmp_path_factory.mktemp("lobby-stack"), database_url)
    try:
        yield started
    finally:
        started.stop()


def _codes(base: str) -> set[str]:
    with client(base) as c:
        answer = c.get("/api/lobby")
        assert answer.status_code == 200
        return {t["code"] for t in answer.json()["tables"]}


def _open_public(base: str, name: str) -> str:
    with client(base) as c:
        answer = c.post("/api/tables", json={"name": name, "seats": 3, "public": True})
        assert answer.status_code == 201, answer.text
        code: str = answer.json()["code"]
        return code


def test_each_process_s_public_tables_are_listed_by_every_process(stack: Stack) -> None:
    on_a = _open_public(stack.a.base, "Anna")
    on_b = _open_public(stack.b.base, "Ben")
    for base in (stack.a.base, stack.b.base, stack.proxy.url):
        assert {on_a, on_b} <= _codes(base)


def test_a_lobby_stream_on_either_process_sees_the_others_table_come_and_go(
    stack: Stack,
) -> None:
    with contextlib.ExitStack() as streams:
        on_b = streams.enter_context(
            following(streams.enter_context(client(stack.b.base, timeout=30)))
        )
        through = streams.enter_context(
            following(streams.enter_context(client(stack.proxy.url, timeout=30)))
        )
        for lists in (on_b, through):
            lists.until(lambda _tables: True, "the list when the stream opens")
        with client(stack.a.base) as a:
            opened = a.post("/api/tables", json={"name": "Ella", "seats": 3, "public": True})
            assert opened.status_code == 201, opened.text
            table = opened.json()
            code = table["code"]
            for lists in (on_b, through):
                came = lists.until(lambda t: code in codes(t), "process a's public table")
                assert next(t for t in came if t["code"] == code)["players"] == ["Ella"]
            private = a.put(
                f"/api/tables/{code}/public",
                json={"public": False},
                headers={"Authorization": f"Bearer {table['host_token']}"},
            )
            assert private.status_code == 200, private.text
        for lists in (on_b, through):
            lists.until(lambda t: code not in codes(t), "the table made private on process a")


def _ask(base: str, name: str) -> dict[str, Any]:
    with client(base) as c:
        answer = c.post("/api/lobby/match", json={"name": name, "language": "nb", "players": 3})
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found


def _serves(base: str, code: str) -> bool:
    """Whether the process at ``base`` serves the table (asked directly)."""
    with client(base) as c:
        return c.get(f"/api/tables/{code}").status_code == 200


def test_two_who_ask_different_processes_meet_at_one_table(stack: Stack) -> None:
    # The first asks through the proxy, as a browser does: the proxy learns
    # where the new table lives (its X-Ligretto-Table header). The second
    # asks the other process directly, which finds the table in the lobby.
    first = _ask(stack.proxy.url, "Cleo")
    home = stack.a if _serves(stack.a.base, first["code"]) else stack.b
    other = stack.b if home is stack.a else stack.a
    assert _serves(home.base, first["code"]) and not _serves(other.base, first["code"])
    second = _ask(other.base, "Dora")
    assert second["code"] == first["code"] and second["waiting"] is True
    # Both sit down through the proxy, which routes the table's code to
    # the process that opened it.
    ws = f"ws://{stack.proxy.url.split('://', 1)[1]}/play/{first['code']}/ws"
    cleo, dora = Person(ws, "Cleo"), Person(ws, "Dora")
    try:
        joined = cleo.join(name="Cleo")
        assert joined["type"] == "welcome", joined
        joined = dora.join(name="Dora")
        assert joined["type"] == "welcome", joined
        names = {seat["name"] for seat in dora.table["seats"] if seat["kind"] == "human"}
        assert names == {"Cleo", "Dora"}
    finally:
        cleo.close()
        dora.close()
