"""SQLite's log records take their index as they are appended (web/endpoint/log/entries.py,
`index_at_append`): the records still pending when a ledger is upgraded are given theirs now,
in id order after the last placed, the order the sequencer would have placed them in. No
change on PostgreSQL, whose sequencer goes on placing its records.

Revision ID: 0012
Revises: 0011 (the player's protections)
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Number SQLite's pending records."""
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    last = conn.exec_driver_sql("SELECT max(log_index) FROM log_entries").scalar()
    start = 0 if last is None else int(last) + 1
    pending = "SELECT id FROM log_entries WHERE log_index IS NULL ORDER BY id"
    ids = list(conn.exec_driver_sql(pending).scalars())
    if ids:
        conn.exec_driver_sql(
            "UPDATE log_entries SET log_index = ? WHERE id = ?",
            [(start + k, int(entry)) for k, entry in enumerate(ids)],
        )


def downgrade() -> None:
    """Nothing to undo: a numbered record is what the sequencer makes of a pending one."""
