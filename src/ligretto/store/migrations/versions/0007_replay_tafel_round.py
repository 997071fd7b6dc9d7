"""A kept round knows its round number on the Tafel game that scored it.

The board of an online game links each of its rounds to the round's
replay; the board counts its own rounds, which is not the table's count
across games (``n``).  Rounds kept before this have none (``NULL``).

Revision ID: 0007_replay_tafel_round
Revises: 0006_lab_studies
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_replay_tafel_round"
down_revision = "0006_lab_studies"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("live_round_replays") as batch:
        batch.add_column(sa.Column("tafel_round", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_round_replays") as batch:
        batch.drop_column("tafel_round")
