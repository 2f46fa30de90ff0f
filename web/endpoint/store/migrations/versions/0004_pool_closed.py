"""When each pool stopped selling: retired by an operator, or sold out (its successor committed).

A closed pool never sells again, so its secret key and the order of its entries can be
revealed (GET /api/pools/{game}/{pool_id}/reveal, docs/math.md "Commit, then reveal").

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the pool_closings table."""
    op.create_table(
        "pool_closings",
        sa.Column("pool_ref", sa.Integer, sa.ForeignKey("pools.id"), primary_key=True),
        sa.Column("closed_at", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    """Drop the pool_closings table."""
    op.drop_table("pool_closings")
