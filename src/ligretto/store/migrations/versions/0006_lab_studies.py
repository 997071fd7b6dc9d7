"""The strategy lab's studies: what each simulates, its state and its result.

Revision ID: 0006_lab_studies
Revises: 0005_round_replays
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_lab_studies"
down_revision = "0005_round_replays"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lab_studies",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("owner", sa.String(100), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_lab_studies"),
    )
    op.create_index("ix_lab_studies_created_at", "lab_studies", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_lab_studies_created_at", table_name="lab_studies")
    op.drop_table("lab_studies")
