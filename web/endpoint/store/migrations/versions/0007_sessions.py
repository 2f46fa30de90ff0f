"""Sessions have rows, so a device can log out, an account can log out every device, and a
session idle too long ends (web/endpoint/player/sessions.py). Credentials issued before are adopted
when next seen, unless their account has logged out every device since (sessions_ended_at).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the sessions table and the accounts' sessions_ended_at."""
    op.create_table(
        "sessions",
        sa.Column("session_id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("last_used_at", sa.BigInteger, nullable=False),
        sa.Column("ended_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_index("ix_sessions_last_used", "sessions", ["last_used_at"])
    with op.batch_alter_table("accounts") as table:
        table.add_column(sa.Column("sessions_ended_at", sa.BigInteger, nullable=True))


def downgrade() -> None:
    """Drop them."""
    # Not in batch mode: SQLite (3.35+) drops the column in place, where a batch would copy
    # accounts into a new table, which the other tables' foreign keys forbid.
    op.drop_column("accounts", "sessions_ended_at")
    op.drop_index("ix_sessions_last_used", "sessions")
    op.drop_index("ix_sessions_account", "sessions")
    op.drop_table("sessions")
