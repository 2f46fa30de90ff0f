"""The ledger's tables (SQLAlchemy Core); migrations/ creates and evolves them.

Money is integer pence; times are integer milliseconds since the Unix epoch (UTC).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("public_id", String(32), nullable=False, unique=True),
    Column("created_at", BigInteger, nullable=False),
    Column("balance_pence", BigInteger, nullable=False),
    CheckConstraint("balance_pence >= 0", name="ck_accounts_balance"),
)

# Append-only: the balance is the sum of an account's transactions (accounts.balance_pence is
# that sum, kept in the same database transaction as the guard against overdrawing).
transactions = Table(
    "transactions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("amount_pence", BigInteger, nullable=False),
    Column("play_number", BigInteger, nullable=True),
    Column("created_at", BigInteger, nullable=False),
    UniqueConstraint("play_number", "kind", name="uq_transactions_play_kind"),
    Index("ix_transactions_account", "account_id"),
)

pools = Table(
    "pools",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pool_id", String(64), nullable=False, unique=True),
    Column("game", String(32), nullable=False),
    Column("model", String(64), nullable=False),
    Column("size", Integer, nullable=False),
    Column("root", String(64), nullable=False),
    Column("next_index", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Index("ix_pools_game", "game", "id"),
)

plays = Table(
    "plays",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("play_number", BigInteger, nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("model", String(64), nullable=False),
    Column("pool_ref", Integer, ForeignKey("pools.id"), nullable=False),
    Column("pool_index", Integer, nullable=False),
    Column("prize_pence", BigInteger, nullable=False),
    Column("composition", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("token", Text, nullable=False),
    Column("idempotency_key", String(128), nullable=True),
    Column("purchased_at", BigInteger, nullable=False),
    Column("finished_at", BigInteger, nullable=True),
    Column("finished_by", String(8), nullable=True),
    UniqueConstraint("pool_ref", "pool_index", name="uq_plays_entry"),
    UniqueConstraint("account_id", "idempotency_key", name="uq_plays_idempotency"),
    Index("ix_plays_account", "account_id", "id"),
    Index("ix_plays_status", "status", "purchased_at"),
)

# Test mode only: the entry an account's next purchase of a game takes.
reservations = Table(
    "reservations",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("pool_ref", Integer, ForeignKey("pools.id"), nullable=False),
    Column("pool_index", Integer, nullable=False),
    UniqueConstraint("pool_ref", "pool_index", name="uq_reservations_entry"),
)

# Facts about this database, e.g. its random instance id (sessions are bound to it).
meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", String(256), nullable=False),
)
