"""The SQL of groups: the group row, its members, its games (with their rounds).

Functions of an open connection; the caller owns the transaction (see
:mod:`ligretto.store.groups`). Reads raise :class:`GroupNotFoundError` for
an unknown id. A group's games are read with two statements however many
there are: the game rows, then every round of them in order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from ligretto.store.errors import GroupNotFoundError
from ligretto.store.models import (
    EventRow,
    GameRow,
    GroupGameRow,
    GroupRow,
    MemberRow,
    RoundRow,
)
from ligretto.store.repository import Lock, NewGameRows
from ligretto.store.results import StoredGroup
from ligretto.store.rows import aware, restore_game, restore_round
from ligretto.store.tokens import is_game_id
from ligretto.tafel import Round
from ligretto.tafel.groups import Group
from ligretto.tafel.names import name_key
from ligretto.tafel.stats import PlayedGame, Season


def read_group_row(conn: Connection, group_id: str, lock: Lock | None = None) -> Row[Any]:
    if not is_game_id(group_id):  # the same shape as a game id
        raise GroupNotFoundError(str(group_id))
    query = select(GroupRow.__table__).where(GroupRow.id == group_id)
    if lock == "update":
        query = query.with_for_update()
    elif lock == "share":
        query = query.with_for_update(read=True)
    row = conn.execute(query).one_or_none()
    if row is None:
        raise GroupNotFoundError(group_id)
    return row


def read_members(conn: Connection, group_id: str) -> list[str]:
    """The members' names in the order they joined."""
    return list(
        conn.execute(
            select(MemberRow.name)
            .where(MemberRow.group_id == group_id)
            .order_by(MemberRow.position)
        ).scalars()
    )


def read_group(conn: Connection, group_id: str, lock: Lock | None = None) -> tuple[Row[Any], Group]:
    """The group row and the domain group (trusted: the names were checked when stored)."""
    row = read_group_row(conn, group_id, lock)
    return row, Group.restore(row.name, read_members(conn, group_id))


def count_games(conn: Connection, group_id: str) -> int:
    return int(
        conn.execute(
            select(func.count()).select_from(GroupGameRow).where(GroupGameRow.group_id == group_id)
        ).scalar_one()
    )


def fingerprint(conn: Connection, group_id: str) -> tuple[int, int, int]:
    """(group version, games, sum of the games' versions): changes with any change.

    Every write of a game raises its version, and every change of which
    games belong to the group raises the group's: statistics computed for
    one fingerprint hold until it changes.
    """
    version = read_group_row(conn, group_id).version
    count, total = conn.execute(
        select(func.count(), func.coalesce(func.sum(GameRow.version), 0))
        .select_from(GroupGameRow)
        .join(GameRow, GameRow.id == GroupGameRow.game_id)
        .where(GroupGameRow.group_id == group_id)
    ).one()
    return int(version), int(count), int(total)


def count_rounds(conn: Connection, group_id: str) -> int:
    """How many rounds the group's games hold together (what its statistics read)."""
    return int(
        conn.execute(
            select(func.count())
            .select_from(RoundRow)
            .join(GroupGameRow, GroupGameRow.game_id == RoundRow.game_id)
            .where(GroupGameRow.group_id == group_id)
        ).scalar_one()
    )


def read_game_rows(conn: Connection, group_id: str) -> list[Row[Any]]:
    """The rows of the group's games (players, settings, version, when played), oldest first."""
    return list(
        conn.execute(
            select(GameRow.__table__, GroupGameRow.played_at)
            .join(GroupGameRow, GroupGameRow.game_id == GameRow.id)
            .where(GroupGameRow.group_id == group_id)
            .order_by(GroupGameRow.played_at, GameRow.id)
        ).all()
    )


ROUND_QUERY_CHUNK = 500
"""Game ids per query when the rounds of some games are read (bound parameters)."""


def read_rounds_of(conn: Connection, game_ids: list[str]) -> dict[str, list[Round]]:
    """The rounds of the given games, in order (a few statements for many games)."""
    rounds: dict[str, list[Round]] = defaultdict(list)
    for start in range(0, len(game_ids), ROUND_QUERY_CHUNK):
        chunk = game_ids[start : start + ROUND_QUERY_CHUNK]
        for r in conn.execute(
            select(
                RoundRow.game_id, RoundRow.n, RoundRow.stacks, RoundRow.middle, RoundRow.confirmed
            )
            .where(RoundRow.game_id.in_(chunk))
            .order_by(RoundRow.game_id, RoundRow.n)
        ):
            rounds[r.game_id].append(restore_round(r))
    return rounds


def played_game(row: Row[Any], rounds: list[Round]) -> PlayedGame:
    """A game row and its rounds as a group's game (trusted: checked when stored)."""
    return PlayedGame(row.id, aware(row.played_at), restore_game(row, rounds))


def game_group(conn: Connection, game_id: str) -> str | None:
    """The group a game belongs to, if any."""
    return conn.execute(
        select(GroupGameRow.group_id).where(GroupGameRow.game_id == game_id)
    ).scalar_one_or_none()


def member_places(
    conn: Connection, game_id: str, players: Sequence[str]
) -> tuple[int | None, ...] | None:
    """Each player's place in the member list of the game's group; None without a group.

    One statement: the members of the group the game belongs to, in the
    order they joined (a member's place never changes: members are only
    ever added, at the end).
    """
    keys = conn.execute(
        select(MemberRow.key)
        .join(GroupGameRow, GroupGameRow.group_id == MemberRow.group_id)
        .where(GroupGameRow.game_id == game_id)
        .order_by(MemberRow.position)
    ).scalars()
    places = {key: place for place, key in enumerate(keys)}
    if not places:
        return None
    return tuple(places.get(name_key(player)) for player in players)


def insert_group(
    conn: Connection, group_id: str, token_hash: str, group: Group, now: datetime
) -> None:
    conn.execute(
        insert(GroupRow).values(
            id=group_id,
            token_hash=token_hash,
            name=group.name,
            season_start=None,
            season_end=None,
            version=1,
            created_at=now,
            updated_at=now,
        )
    )
    insert_members(conn, group_id, [m.name for m in group.members], start=0)


def insert_members(conn: Connection, group_id: str, names: list[str], *, start: int) -> None:
    """Add members after the *start* first ones (names already checked by the domain)."""
    from ligretto.tafel.names import name_key

    if names:
        conn.execute(
            insert(MemberRow),
            [
                {"group_id": group_id, "key": name_key(n), "name": n, "position": start + i}
                for i, n in enumerate(names)
            ],
        )


def link_game(conn: Connection, group_id: str, game_id: str, played_at: datetime) -> None:
    conn.execute(
        insert(GroupGameRow).values(group_id=group_id, game_id=game_id, played_at=played_at)
    )


def link_games(conn: Connection, group_id: str, links: list[tuple[str, datetime]]) -> None:
    if links:
        conn.execute(
            insert(GroupGameRow),
            [{"group_id": group_id, "game_id": g, "played_at": at} for g, at in links],
        )


def insert_games(conn: Connection, games: list[NewGameRows], history: list[dict[str, Any]]) -> None:
    """Insert imported games, their rounds and their history rows: three statements."""
    if not games:
        return
    conn.execute(insert(GameRow), [g.game for g in games])
    rounds = [r for g in games for r in g.rounds]
    if rounds:
        conn.execute(insert(RoundRow), rounds)
    if history:
        conn.execute(insert(EventRow), history)


def delete_games(conn: Connection, game_ids: list[str]) -> None:
    """Delete games with their rounds and history (a failed import's)."""
    for start in range(0, len(game_ids), ROUND_QUERY_CHUNK):
        chunk = game_ids[start : start + ROUND_QUERY_CHUNK]
        conn.execute(delete(GameRow).where(GameRow.id.in_(chunk)))


def unlink_game(conn: Connection, group_id: str, game_id: str) -> bool:
    result = conn.execute(
        delete(GroupGameRow).where(
            GroupGameRow.group_id == group_id, GroupGameRow.game_id == game_id
        )
    )
    return bool(result.rowcount)


def update_group(
    conn: Connection, group_id: str, version: int, now: datetime, **values: Any
) -> None:
    conn.execute(
        update(GroupRow)
        .where(GroupRow.id == group_id)
        .values(version=version, updated_at=now, **values)
    )


def season_of(row: Row[Any]) -> Season | None:
    """The group's own season, or None (its seasons are calendar years)."""
    if row.season_start is None or row.season_end is None:
        return None
    return Season(row.season_start, row.season_end)


def stored_group(row: Row[Any], group: Group, games: int) -> StoredGroup:
    """The group row and its domain group as the store hands it out."""
    return StoredGroup(
        row.id,
        row.version,
        group.name,
        tuple(m.name for m in group.members),
        season_of(row),
        games,
        aware(row.created_at),
        aware(row.updated_at),
    )
