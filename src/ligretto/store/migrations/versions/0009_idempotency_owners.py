"""Idempotency keys know their owner and client: how many each keeps is bounded.

``owner`` is the SHA-256 of the write's token (or, without one, of its
client), ``client`` the SHA-256 of the client address as the rate limits
count it; both indexed with ``created_at`` for the counts of the last
minute and of the last 24 hours. Keys kept before have neither and expire
within a day.

Revision ID: 0009_idempotency_owners
Revises: 0008_member_keys
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_idempotency_owners"
down_revision = "0008_member_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_idempotency_keys") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
    op.create_index(
        "ix_api_idempotency_keys_owner", "api_idempotency_keys", ["owner", "created_at"]
    )
    op.create_index(
        "ix_api_idempotency_keys_client", "api_idempotency_keys", ["client", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_api_idempotency_keys_client", table_name="api_idempotency_keys")
    op.drop_index("ix_api_idempotency_keys_owner", table_name="api_idempotency_keys")
    with op.batch_alter_table("api_idempotency_keys") as batch:
        batch.drop_column("client")
        batch.drop_column("owner")
