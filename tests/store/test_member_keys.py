"""Migration 0008: group members' stored keys follow the name rule that compares capitals (T1)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from helpers.pg_schema import throwaway_schema
from helpers.postgres import postgres_base_url
from ligretto.store import make_engine, migrate, sqlite_url
from ligretto.store.group_repository import member_places
from ligretto.tafel.names import name_key

BEFORE = "0007_replay_tafel_round"
NOW = datetime(2026, 12, 1, tzinfo=UTC)

# Members as the rule before kept them: its keys folded case first, so
# Cyrillic "Вen" and "ТОМ" were names of their own beside "Ben" and "Tom".
BEN, TOM = "\u0412en", "\u0422\u041e\u041c"
STORED = {
    "thursday": [("Anna", "anna"), (BEN, "\u0299en"), (TOM, "\u1d1bo\u028d")],
    "both": [("Ben", "ben"), (BEN, "\u0299en"), ("Cleo", "cleo")],
    "latin": [("Mia", "rnia"), ("Tom", "torn")],
}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of either kind, for one test."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    with throwaway_schema(postgres_base_url()) as url:
        yield url


@pytest.fixture
def engine(fresh_url: str) -> Iterator[Engine]:
    """A database as it was before the migration, with groups, members and a game."""
    eng = make_engine(fresh_url)
    migrate(eng, BEFORE)
    with eng.begin() as conn:
        for group_id, members in STORED.items():
            conn.execute(
                text(
                    "INSERT INTO tafel_groups (id, token_hash, name, version, created_at,"
                    " updated_at) VALUES (:id, 'x', :name, 1, :now, :now)"
                ),
                {"id": group_id, "name": group_id, "now": NOW},
            )
            for position, (name, key) in enumerate(members):
                conn.execute(
                    text(
                        "INSERT INTO tafel_group_members (group_id, key, name, position)"
                        " VALUES (:g, :k, :n, :p)"
                    ),
                    {"g": group_id, "k": key, "n": name, "p": position},
                )
        conn.execute(
            text(
                "INSERT INTO tafel_games (id, token_hash, players, mode, target, agreed_rounds,"
                " deck, row_storage, closed, scored, version, created_at, updated_at)"
                " VALUES ('g1', 'x', :players, 'target', 99, NULL, 'ligretto', false, false,"
                " false, 1, :now, :now)"
            ),
            {"players": '["Anna", "Ben", "TOM"]', "now": NOW},
        )
        conn.execute(
            text(
                "INSERT INTO tafel_group_games (game_id, group_id, played_at)"
                " VALUES ('g1', 'thursday', :now)"
            ),
            {"now": NOW},
        )
    yield eng
    eng.dispose()


def _members(engine: Engine, group_id: str) -> list[tuple[str, str, int]]:
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT name, key, position FROM tafel_group_members WHERE group_id = :g"
                " ORDER BY position"
            ),
            {"g": group_id},
        )
        return [(row.name, row.key, row.position) for row in rows]


def test_0008_gives_every_member_the_key_of_the_rule(engine: Engine) -> None:
    with engine.connect() as conn:
        # before: "Ben" and "TOM" find no member, as their keys were others
        assert member_places(conn, "g1", ["Anna", "Ben", "TOM"]) == (0, None, None)
    migrate(engine)
    assert _members(engine, "thursday") == [
        ("Anna", "anna", 0),
        ("\u0412en", name_key("Ben"), 1),
        ("\u0422\u041e\u041c", name_key("TOM"), 2),
    ]
    with engine.connect() as conn:
        assert member_places(conn, "g1", ["Anna", "Ben", "TOM"]) == (0, 1, 2)
    assert _members(engine, "latin") == [("Mia", "rnia", 0), ("Tom", "torn", 1)]


def test_0008_keeps_two_members_now_alike_and_finds_the_first(engine: Engine) -> None:
    migrate(engine)
    [ben, alike, cleo] = _members(engine, "both")
    assert ben == ("Ben", "ben", 0) and cleo == ("Cleo", "cleo", 2)
    assert alike[0] == "\u0412en" and alike[2] == 1
    assert alike[1] != "ben" and alike[1].startswith("ben")  # kept, found by no name
    migrate(engine)  # a second run changes nothing
    assert _members(engine, "both")[1] == alike
