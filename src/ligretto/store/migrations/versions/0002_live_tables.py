"""Online tables and the actions of their current round (outlive a restart).

Revision ID: 0002_live_tables
Revises: 0001_tafel
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_live_tables"
down_revision = "0001_tafel"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_tables",
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed_reason", sa.String(32), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("owner", sa.String(100), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_live_tables"),
    )
    op.create_table(
        "live_table_actions",
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["code"],
            ["live_tables.code"],
            name="fk_live_table_actions_code_live_tables",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("code", "round_no", "idx", name="pk_live_table_actions"),
    )


def downgrade() -> None:
    op.drop_table("live_table_actions")
    op.drop_table("live_tables")
