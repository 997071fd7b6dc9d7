"""The lobby: open public tables, each listed by the process that serves it.

Revision ID: 0010_lobby_listings
Revises: 0009_idempotency_owners
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_lobby_listings"
down_revision = "0009_idempotency_owners"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby_listings",
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(100), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("free_seats", sa.Integer(), nullable=False),
        sa.Column("listing", sa.Text(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("listed_until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_lobby_listings"),
    )
    op.create_index("ix_lobby_listings_listed_until", "lobby_listings", ["listed_until"])


def downgrade() -> None:
    op.drop_index("ix_lobby_listings_listed_until", table_name="lobby_listings")
    op.drop_table("lobby_listings")
