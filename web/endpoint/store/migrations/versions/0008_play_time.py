"""Play time per account: the run of play that logs out after the play session, its
cooling-off, and the reality check's next time (web/endpoint/player/playtime.py).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the play_time table."""
    op.create_table(
        "play_time",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("run_started_at", sa.BigInteger, nullable=False),
        sa.Column("last_play_at", sa.BigInteger, nullable=False),
        sa.Column("reality_due_at", sa.BigInteger, nullable=False),
        sa.Column("reality_acked_at", sa.BigInteger, nullable=True),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("play_time")
