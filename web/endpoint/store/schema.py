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
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("public_id", String(32), nullable=False, unique=True),
    Column("created_at", BigInteger, nullable=False),
    Column("balance_pence", BigInteger, nullable=False),
    # spend limits in force (null: none) and a pending raise or removal (pending_at null: none)
    Column("daily_limit_pence", BigInteger, nullable=True),
    Column("weekly_limit_pence", BigInteger, nullable=True),
    Column("daily_pending_pence", BigInteger, nullable=True),
    Column("daily_pending_at", BigInteger, nullable=True),
    Column("weekly_pending_pence", BigInteger, nullable=True),
    Column("weekly_pending_at", BigInteger, nullable=True),
    # the spend cache, updated with the debit: the start (ms) of the UTC day / ISO week it
    # counts, and the stakes bought in it
    Column("spend_day", BigInteger, nullable=False, server_default="0"),
    Column("spend_day_pence", BigInteger, nullable=False, server_default="0"),
    Column("spend_week", BigInteger, nullable=False, server_default="0"),
    Column("spend_week_pence", BigInteger, nullable=False, server_default="0"),
    # when the account last logged out every device: credentials from before sessions had rows
    # are refused from then on (web/endpoint/player/sessions.py)
    Column("sessions_ended_at", BigInteger, nullable=True),
    # the player's protections (web/endpoint/player/protections.py): paid play and TRY are
    # refused before paused_until (a break's end; protections.FOREVER while self-excluded and
    # not yet asked back), the exclusion's term, and when the account was closed
    Column("paused_until", BigInteger, nullable=False, server_default="0"),
    Column("excluded_until", BigInteger, nullable=True),
    Column("closed_at", BigInteger, nullable=True),
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
    Column("kind", String(8), nullable=False, server_default="paid"),  # "paid" or "try"
    Index("ix_pools_game", "game", "id"),
    Index("ix_pools_kind_game", "kind", "game", "id"),
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
    Column("book_hash", String(64), nullable=True),  # SHA-256 hex of the canonical book bytes
    Column("progress_event", Integer, nullable=False, server_default="0"),
    Column("choices", Text, nullable=False, server_default="[]"),  # JSON list of ints
    UniqueConstraint("pool_ref", "pool_index", name="uq_plays_entry"),
    UniqueConstraint("account_id", "idempotency_key", name="uq_plays_idempotency"),
    Index("ix_plays_account", "account_id", "id"),
    Index("ix_plays_status", "status", "purchased_at"),
    # the plays whose book the hasher has still to hash (web/endpoint/sales/hashes.py): few, briefly
    Index(
        "ix_plays_unhashed",
        "id",
        sqlite_where=text("book_hash IS NULL"),
        postgresql_where=text("book_hash IS NULL"),
    ),
)

# Free (TRY mode) plays: drawn from pools of kind "try"; never money, never in My Games.
try_plays = Table(
    "try_plays",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("play_number", BigInteger, nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("game", String(32), nullable=False),
    Column("model", String(64), nullable=False),
    Column("pool_ref", Integer, ForeignKey("pools.id"), nullable=False),
    Column("pool_index", Integer, nullable=False),
    Column("prize_pence", BigInteger, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    UniqueConstraint("pool_ref", "pool_index", name="uq_try_plays_entry"),
)

# One-time sign-in codes: only their HMAC-SHA256 under a key the database lacks (codes.py).
sign_in_codes = Table(
    "sign_in_codes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code_hash", String(64), nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("used_at", BigInteger, nullable=True),
    # the code's first characters, which name it (in the clear), and the wrong codes tried
    # against it; it ends at codes.MAX_WRONG_TRIES
    Column("locator", String(8), nullable=False, server_default=""),
    Column("wrong_tries", Integer, nullable=False, server_default="0"),
    Index("ix_sign_in_codes_account", "account_id"),
    Index("ix_sign_in_codes_locator", "locator"),
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

# When a pool stopped selling ("retired" by an operator, or "sold_out"): from then on its key
# and entries are public (web/endpoint/pools/reveal.py). A separate table, so the pools row read by
# every sale keeps its shape.
pool_closings = Table(
    "pool_closings",
    metadata,
    Column("pool_ref", Integer, ForeignKey("pools.id"), primary_key=True),
    Column("closed_at", BigInteger, nullable=False),
    Column("reason", String(16), nullable=False),
)

# A device's session: one row a credential, keyed by the SHA-256 of the credential's signed
# part; ended by logging out (this device, or every device) or by being idle too long.
sessions = Table(
    "sessions",
    metadata,
    Column("session_id", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("last_used_at", BigInteger, nullable=False),  # written at most once a minute
    Column("ended_at", BigInteger, nullable=True),
    Index("ix_sessions_account", "account_id"),
    Index("ix_sessions_last_used", "last_used_at"),  # pruning (sessions.Sessions.prune)
)

# An account's run of play (web/endpoint/player/playtime.py): when it began, its last paid purchase,
# when its next reality check is due and when the last one was acknowledged. One row an account,
# made by its first paid purchase; every device of the account reads the same row.
play_time = Table(
    "play_time",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("run_started_at", BigInteger, nullable=False),
    Column("last_play_at", BigInteger, nullable=False),
    Column("reality_due_at", BigInteger, nullable=False),
    Column("reality_acked_at", BigInteger, nullable=True),
)

# What a committed pool needs to sell, recall and reveal, so that instances on separate hosts
# share only the database (web/endpoint/pools/vault.py): its public commitment and chunk roots,
# and its key and entries sealed (encrypted) with the operator's pool-encryption key.
pool_data = Table(
    "pool_data",
    metadata,
    Column("pool_id", String(64), primary_key=True),
    Column("commitment", Text, nullable=False),
    Column("chunks", LargeBinary, nullable=False),
    Column("sealed", LargeBinary, nullable=False),
)

# The public log (web/endpoint/log/; docs/log.md): each record appended in the transaction of
# the fact it tells (a sale, a pool committed, closed or revealed), sequenced later by whichever
# instance's sequencer takes the head's lock: it gives the pending rows, in id order, their
# log_index and stores the tree's nodes.
log_entries = Table(
    "log_entries",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("data", LargeBinary, nullable=False),  # the record's canonical JSON bytes
    Column("log_index", BigInteger, nullable=True, unique=True),  # set when sequenced
    Column("play_number", BigInteger, nullable=True, unique=True),  # a sale's
    Column("created_at", BigInteger, nullable=False),
    # the entries still to sequence: few, briefly (like ix_plays_unhashed)
    Index(
        "ix_log_entries_pending",
        "id",
        sqlite_where=text("log_index IS NULL"),
        postgresql_where=text("log_index IS NULL"),
    ),
)

# The tree's stored nodes (engine.tlog.tree.appended): (level, n) hashes leaves n * 2**level up
# to (n + 1) * 2**level.
log_nodes = Table(
    "log_nodes",
    metadata,
    Column("level", SmallInteger, primary_key=True),
    Column("n", BigInteger, primary_key=True),
    Column("hash", LargeBinary, nullable=False),
)

# One row (id 1): the tree's size and root, locked by the sequencer for its whole transaction.
log_head = Table(
    "log_head",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("size", BigInteger, nullable=False),
    Column("root", LargeBinary, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

# Every checkpoint signed: the note with the log's signature, and the witnesses' cosignature
# lines added once they answer ("" until then).
log_checkpoints = Table(
    "log_checkpoints",
    metadata,
    Column("size", BigInteger, primary_key=True),
    Column("note", Text, nullable=False),
    Column("cosignatures", Text, nullable=False, server_default=""),
    Column("created_at", BigInteger, nullable=False),
)

# Prizes remaining, as the log tells them: each paid pool's tiers (from its commitment record)
# and how many of each its sequenced sale records sold.
log_pool_tiers = Table(
    "log_pool_tiers",
    metadata,
    Column("pool_id", String(64), primary_key=True),
    Column("prize_pence", BigInteger, primary_key=True),
    Column("count", BigInteger, nullable=False),
    Column("sold", BigInteger, nullable=False, server_default="0"),
)

# Every break, self-exclusion and return after one an account asked for, and when each ends
# (kind "break", "exclusion" or "return"; length its id: protections.LENGTHS): what the player
# downloads, and the running break's length (a repeat is refused).
protections = Table(
    "protections",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("length", String(8), nullable=True),
    Column("asked_at", BigInteger, nullable=False),
    Column("ends_at", BigInteger, nullable=False),
    Index("ix_protections_account", "account_id", "id"),
)

# Every change of a spend limit an account asked for (web/endpoint/player/limits.py): the
# period, the limit asked (null: none) and when it takes effect; the player downloads them.
limit_changes = Table(
    "limit_changes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("period", String(8), nullable=False),
    Column("asked_pence", BigInteger, nullable=True),
    Column("asked_at", BigInteger, nullable=False),
    Column("effective_at", BigInteger, nullable=False),
    Index("ix_limit_changes_account", "account_id", "id"),
)
