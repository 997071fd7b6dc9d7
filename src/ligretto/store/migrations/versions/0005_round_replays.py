"""Every finished online round, replayable: its seed, seats, actions with their times.

The actions of a round being played get their play time (``t_ms``), so a
round restored after a restart keeps the times of what was played before.

Revision ID: 0005_round_replays
Revises: 0004_idempotency_keys
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_round_replays"
down_revision = "0004_idempotency_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_round_replays",
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("tafel_game", sa.String(32), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("code", "n", name="pk_live_round_replays"),
    )
    op.create_index("ix_live_round_replays_tafel_game", "live_round_replays", ["tafel_game"])
    op.create_index("ix_live_round_replays_finished_at", "live_round_replays", ["finished_at"])
    with op.batch_alter_table("live_table_actions") as batch:
        batch.add_column(sa.Column("t_ms", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_table_actions") as batch:
        batch.drop_column("t_ms")
    op.drop_index("ix_live_round_replays_finished_at", table_name="live_round_replays")
    op.drop_index("ix_live_round_replays_tafel_game", table_name="live_round_replays")
    op.drop_table("live_round_replays")
