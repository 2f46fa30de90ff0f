"""The player's protections (web/endpoint/player/protections.py): a break or a self-exclusion
stops paid play and TRY until `accounts.paused_until` (the purchase's debit compares it with
its own `now`), the exclusion's term in `excluded_until`, a closed account's `closed_at`; and
the history a player downloads: each break, exclusion and return asked (`protections`) and each
change of a spend limit asked (`limit_changes`).

Revision ID: 0011
Revises: 0010 (the public log)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the accounts' columns and the two history tables."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(
            sa.Column("paused_until", sa.BigInteger, nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("excluded_until", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("closed_at", sa.BigInteger, nullable=True))
    op.create_table(
        "protections",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("length", sa.String(8), nullable=True),
        sa.Column("asked_at", sa.BigInteger, nullable=False),
        sa.Column("ends_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_protections_account", "protections", ["account_id", "id"])
    op.create_table(
        "limit_changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("period", sa.String(8), nullable=False),
        sa.Column("asked_pence", sa.BigInteger, nullable=True),
        sa.Column("asked_at", sa.BigInteger, nullable=False),
        sa.Column("effective_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_limit_changes_account", "limit_changes", ["account_id", "id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_limit_changes_account", "limit_changes")
    op.drop_table("limit_changes")
    op.drop_index("ix_protections_account", "protections")
    op.drop_table("protections")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("closed_at")
        batch.drop_column("excluded_until")
        batch.drop_column("paused_until")
