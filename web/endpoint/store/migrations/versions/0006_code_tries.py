"""Wrong sign-in codes are counted per code, in the database, so every process sees them: a
code's first three characters name it (`locator`), and `wrong_tries` counts the wrong codes
tried with them (web/endpoint/player/codes.py); at five the code ends.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the locator and the wrong tries (0005 left no code to fill them for)."""
    with op.batch_alter_table("sign_in_codes") as table:
        table.add_column(sa.Column("locator", sa.String(8), nullable=False, server_default=""))
        table.add_column(sa.Column("wrong_tries", sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_sign_in_codes_locator", "sign_in_codes", ["locator"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_sign_in_codes_locator", "sign_in_codes")
    with op.batch_alter_table("sign_in_codes") as table:
        table.drop_column("wrong_tries")
        table.drop_column("locator")
