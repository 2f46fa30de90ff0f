"""Sign-in codes are stored as HMAC-SHA256 under a key derived from the session secret
(web/endpoint/player/codes.py), no longer as a plain SHA-256 a copy of the database gives away.

The codes stored before cannot be rehashed (only their SHA-256 is known) and can never match
again: they are deleted, used ones too (a used code is spent; its hash only helps a reader
reverse it). A player whose unused code is dropped asks for another; it lived 10 minutes.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Delete the codes stored as plain SHA-256."""
    op.execute(sa.text("DELETE FROM sign_in_codes"))


def downgrade() -> None:
    """Nothing to restore: the codes deleted were at most 10 minutes from expiring."""
