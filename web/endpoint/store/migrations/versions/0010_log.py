"""The public log (docs/log.md): its records as they are appended (log_entries), the tree's
stored nodes (log_nodes), its head (one row, the empty tree at first), the checkpoints signed
and the prizes remaining per tier of each pool as the log tells them.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the log's tables and its empty head."""
    op.create_table(
        "log_entries",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("log_index", sa.BigInteger, nullable=True, unique=True),
        sa.Column("play_number", sa.BigInteger, nullable=True, unique=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index(
        "ix_log_entries_pending",
        "log_entries",
        ["id"],
        sqlite_where=sa.text("log_index IS NULL"),
        postgresql_where=sa.text("log_index IS NULL"),
    )
    op.create_table(
        "log_nodes",
        sa.Column("level", sa.SmallInteger, primary_key=True),
        sa.Column("n", sa.BigInteger, primary_key=True),
        sa.Column("hash", sa.LargeBinary, nullable=False),
    )
    head = op.create_table(
        "log_head",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("root", sa.LargeBinary, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.bulk_insert(head, [{"id": 1, "size": 0, "root": hashlib.sha256().digest(), "updated_at": 0}])
    op.create_table(
        "log_checkpoints",
        sa.Column("size", sa.BigInteger, primary_key=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("cosignatures", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "log_pool_tiers",
        sa.Column("pool_id", sa.String(64), primary_key=True),
        sa.Column("prize_pence", sa.BigInteger, primary_key=True),
        sa.Column("count", sa.BigInteger, nullable=False),
        sa.Column("sold", sa.BigInteger, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    """Drop them."""
    for table in ("log_pool_tiers", "log_checkpoints", "log_head", "log_nodes"):
        op.drop_table(table)
    op.drop_index("ix_log_entries_pending", "log_entries")
    op.drop_table("log_entries")
