"""Idempotency keys of API writes and the answers their first requests got.

Revision ID: 0004_idempotency_keys
Revises: 0003_groups
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_idempotency_keys"
down_revision = "0003_groups"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_idempotency_keys",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("scope", sa.Text(), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("headers", sa.Text(), nullable=True),
        sa.Column("salt", sa.LargeBinary(), nullable=True),
        sa.Column("body", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key_hash", name="pk_api_idempotency_keys"),
    )
    op.create_index("ix_api_idempotency_keys_created_at", "api_idempotency_keys", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_api_idempotency_keys_created_at", table_name="api_idempotency_keys")
    op.drop_table("api_idempotency_keys")
