"""Groups: members, and which games belong to a group.

Revision ID: 0003_groups
Revises: 0002_live_tables
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_groups"
down_revision = "0002_live_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tafel_groups",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("season_start", sa.Date(), nullable=True),
        sa.Column("season_end", sa.Date(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tafel_groups"),
    )
    op.create_table(
        "tafel_group_members",
        sa.Column("group_id", sa.String(32), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["tafel_groups.id"],
            name="fk_tafel_group_members_group_id_tafel_groups",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", "key", name="pk_tafel_group_members"),
    )
    op.create_table(
        "tafel_group_games",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("group_id", sa.String(32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["tafel_games.id"],
            name="fk_tafel_group_games_game_id_tafel_games",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["tafel_groups.id"],
            name="fk_tafel_group_games_group_id_tafel_groups",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_tafel_group_games"),
    )
    op.create_index("ix_tafel_group_games_group", "tafel_group_games", ["group_id", "played_at"])


def downgrade() -> None:
    op.drop_index("ix_tafel_group_games_group", table_name="tafel_group_games")
    op.drop_table("tafel_group_games")
    op.drop_table("tafel_group_members")
    op.drop_table("tafel_groups")
