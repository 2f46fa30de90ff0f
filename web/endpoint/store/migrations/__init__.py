"""Alembic schema migrations of the endpoint's ledger (run by database.migrate)."""
