"""The initial ledger: accounts, transactions, pools, plays, test reservations.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the first version of every table."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("public_id", sa.String(32), nullable=False, unique=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("balance_pence", sa.BigInteger, nullable=False),
        sa.CheckConstraint("balance_pence >= 0", name="ck_accounts_balance"),
    )
    op.create_table(
        "transactions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("amount_pence", sa.BigInteger, nullable=False),
        sa.Column("play_number", sa.BigInteger, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("play_number", "kind", name="uq_transactions_play_kind"),
    )
    op.create_index("ix_transactions_account", "transactions", ["account_id"])
    op.create_table(
        "pools",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("pool_id", sa.String(64), nullable=False, unique=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("model", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("root", sa.String(64), nullable=False),
        sa.Column("next_index", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_pools_game", "pools", ["game", "id"])
    op.create_table(
        "plays",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("play_number", sa.BigInteger, nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("model", sa.String(64), nullable=False),
        sa.Column("pool_ref", sa.Integer, sa.ForeignKey("pools.id"), nullable=False),
        sa.Column("pool_index", sa.Integer, nullable=False),
        sa.Column("prize_pence", sa.BigInteger, nullable=False),
        sa.Column("composition", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("token", sa.Text, nullable=False),
        sa.Column("idempotency_key", sa.String(128), nullable=True),
        sa.Column("purchased_at", sa.BigInteger, nullable=False),
        sa.Column("finished_at", sa.BigInteger, nullable=True),
        sa.Column("finished_by", sa.String(8), nullable=True),
        sa.UniqueConstraint("pool_ref", "pool_index", name="uq_plays_entry"),
        sa.UniqueConstraint("account_id", "idempotency_key", name="uq_plays_idempotency"),
    )
    op.create_index("ix_plays_account", "plays", ["account_id", "id"])
    op.create_index("ix_plays_status", "plays", ["status", "purchased_at"])
    op.create_table(
        "reservations",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("pool_ref", sa.Integer, sa.ForeignKey("pools.id"), nullable=False),
        sa.Column("pool_index", sa.Integer, nullable=False),
        sa.UniqueConstraint("pool_ref", "pool_index", name="uq_reservations_entry"),
    )


def downgrade() -> None:
    """Drop every table."""
    for name in ("reservations", "plays", "pools", "transactions", "accounts"):
        op.drop_table(name)
