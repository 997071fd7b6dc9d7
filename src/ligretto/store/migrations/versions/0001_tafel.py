"""The Tafel: games, rounds, history.

Revision ID: 0001_tafel
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_tafel"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tafel_games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("agreed_rounds", sa.Integer(), nullable=True),
        sa.Column("deck", sa.String(16), nullable=False),
        sa.Column("row_storage", sa.Boolean(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tafel_games"),
    )
    op.create_table(
        "tafel_rounds",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("stacks", sa.Text(), nullable=False),
        sa.Column("middle", sa.Text(), nullable=True),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["tafel_games.id"],
            name="fk_tafel_rounds_game_id_tafel_games",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "n", name="pk_tafel_rounds"),
    )
    op.create_table(
        "tafel_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("round_n", sa.Integer(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["tafel_games.id"],
            name="fk_tafel_events_game_id_tafel_games",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_tafel_events"),
    )
    op.create_index("ix_tafel_events_game_version", "tafel_events", ["game_id", "version"])


def downgrade() -> None:
    op.drop_index("ix_tafel_events_game_version", table_name="tafel_events")
    op.drop_table("tafel_events")
    op.drop_table("tafel_rounds")
    op.drop_table("tafel_games")
