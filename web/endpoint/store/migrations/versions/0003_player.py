"""The player's side: spend limits, progress and choices, book hashes, sign-in codes, try plays.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_ACCOUNT_COLUMNS = (
    # the limits in force (null: none) and a pending raise/removal (pending_at null: none)
    ("daily_limit_pence", True),
    ("weekly_limit_pence", True),
    ("daily_pending_pence", True),
    ("daily_pending_at", True),
    ("weekly_pending_pence", True),
    ("weekly_pending_at", True),
)
_SPEND_COLUMNS = ("spend_day", "spend_day_pence", "spend_week", "spend_week_pence")


def upgrade() -> None:
    """Add the columns and tables of the player's side."""
    with op.batch_alter_table("accounts") as batch:
        for name, nullable in _ACCOUNT_COLUMNS:
            batch.add_column(sa.Column(name, sa.BigInteger, nullable=nullable))
        # the spend cache, kept with the debit: the start (ms) of the day/week it counts and
        # the stakes of that day/week
        for name in _SPEND_COLUMNS:
            batch.add_column(sa.Column(name, sa.BigInteger, nullable=False, server_default="0"))
    with op.batch_alter_table("plays") as batch:
        batch.add_column(sa.Column("book_hash", sa.String(64), nullable=True))
        batch.add_column(
            sa.Column("progress_event", sa.Integer, nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("choices", sa.Text, nullable=False, server_default="[]"))
    op.create_index(
        "ix_plays_unhashed",
        "plays",
        ["id"],
        sqlite_where=sa.text("book_hash IS NULL"),
        postgresql_where=sa.text("book_hash IS NULL"),
    )
    with op.batch_alter_table("pools") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="paid"))
    op.create_index("ix_pools_kind_game", "pools", ["kind", "game", "id"])
    op.create_table(
        "try_plays",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("play_number", sa.BigInteger, nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("model", sa.String(64), nullable=False),
        sa.Column("pool_ref", sa.Integer, sa.ForeignKey("pools.id"), nullable=False),
        sa.Column("pool_index", sa.Integer, nullable=False),
        sa.Column("prize_pence", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("pool_ref", "pool_index", name="uq_try_plays_entry"),
    )
    op.create_table(
        "sign_in_codes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("used_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_sign_in_codes_account", "sign_in_codes", ["account_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_sign_in_codes_account", "sign_in_codes")
    op.drop_table("sign_in_codes")
    op.drop_table("try_plays")
    op.drop_index("ix_pools_kind_game", "pools")
    op.drop_index("ix_plays_unhashed", "plays")
    with op.batch_alter_table("pools") as batch:
        batch.drop_column("kind")
    with op.batch_alter_table("plays") as batch:
        for name in ("choices", "progress_event", "book_hash"):
            batch.drop_column(name)
    with op.batch_alter_table("accounts") as batch:
        for name in reversed(_SPEND_COLUMNS):
            batch.drop_column(name)
        for name, _nullable in reversed(_ACCOUNT_COLUMNS):
            batch.drop_column(name)
