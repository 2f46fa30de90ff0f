"""Pools live in the database, so endpoint instances on separate hosts share only it: each
committed pool's commitment and chunk roots, and its key and entries sealed with the
operator's pool-encryption key (web/endpoint/pools/vault.py). Pools committed before are
moved in by `build.py migrate-pools` (docs/deployment.md).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the pool_data table."""
    op.create_table(
        "pool_data",
        sa.Column("pool_id", sa.String(64), primary_key=True),
        sa.Column("commitment", sa.Text, nullable=False),
        sa.Column("chunks", sa.LargeBinary, nullable=False),
        sa.Column("sealed", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("pool_data")
