"""Group members' keys anew: names compared with other scripts' capitals made Latin.

A member's ``key`` is its name as T1 compares names
(``ligretto.tafel.names.name_key``), kept so that a game's players find
their members' places (colours) in one statement. The rule now makes the
capitals of other scripts that are drawn like Latin ones Latin before it
folds case ("Вen" is "Ben", Cyrillic "ТОМ" is "TOM"), so the keys stored
before are computed again. Of two members of one group that the rule now
finds alike (both accepted before), the first keeps the key and is found
by the name, as ``Group.restore`` finds it; a later one gets a key no name
can have (its place after a control character), so it keeps its row and
its place in the list but is found by no name.

Groups are read a batch at a time; a group whose keys change has its
member rows written again (delete, then insert), as one key may become
another's old one.

Revision ID: 0008_member_keys
Revises: 0007_replay_tafel_round
Create Date: 2026-12-06
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008_member_keys"
down_revision = "0007_replay_tafel_round"
branch_labels = None
depends_on = None

BATCH = 500
"""Groups read at a time: memory for their members, whatever the database holds."""

members = sa.table(
    "tafel_group_members",
    sa.column("group_id", sa.String),
    sa.column("key", sa.Text),
    sa.column("name", sa.Text),
    sa.column("position", sa.Integer),
)
groups = sa.table("tafel_groups", sa.column("id", sa.String))


def member_keys(names: list[str]) -> list[str]:
    """The keys of a group's members, in their order: T1's key, and for a
    later member that key is taken, one that no name can have."""
    # The rule of the code that runs: the keys must be what it looks up.
    from ligretto.tafel.names import name_key

    keys: list[str] = []
    taken: set[str] = set()
    for position, name in enumerate(names):
        key = name_key(name)
        if key in taken:
            key = f"{key}\x01{position}"  # a name holds no control character (T1)
        taken.add(key)
        keys.append(key)
    return keys


def upgrade() -> None:
    conn = op.get_bind()
    ids = list(conn.execute(sa.select(groups.c.id).order_by(groups.c.id)).scalars())
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        rows = conn.execute(
            sa.select(members.c.group_id, members.c.key, members.c.name, members.c.position)
            .where(members.c.group_id.in_(batch))
            .order_by(members.c.group_id, members.c.position)
        ).all()
        by_group: dict[str, list[Any]] = {}
        for row in rows:
            by_group.setdefault(row.group_id, []).append(row)
        for group_id, kept in by_group.items():
            keys = member_keys([row.name for row in kept])
            if keys == [row.key for row in kept]:
                continue
            conn.execute(members.delete().where(members.c.group_id == group_id))
            conn.execute(
                members.insert(),
                [
                    {"group_id": group_id, "key": key, "name": row.name, "position": row.position}
                    for row, key in zip(kept, keys, strict=True)
                ],
            )


def downgrade() -> None:
    # The keys of the earlier rule cannot be computed any more; the new ones
    # stay (a look-alike spelled with another script's capital then finds
    # no member's place, as before this revision).
    pass
