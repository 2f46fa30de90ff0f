"""Pools kept in the database, so that endpoint instances on separate hosts share only it.

A committed pool's row in `pool_data` (written in the transaction that commits its root):

commitment  public: the pool's commitment.json (web/endpoint/pools/files.py)
chunks      public: the roots of its chunks, 32 bytes each
sealed      secret, encrypted: nonce (12 bytes) || AES-256-GCM(pool key 32 bytes || entries,
            associated data "lottery-pool-seal/1 <pool id>"), so a reader of the database
            learns neither the order of future prizes nor the key their seeds derive from, and
            a sealed row moved to another pool's id does not open

The key that seals them (the pool-encryption key) is the operator's, given to every instance
as the signing key is: LOTTERY_POOL_KEY (64 hex digits) or LOTTERY_POOL_KEY_FILE (a file
holding them); with neither, a development key is made once under var/ (one host only). The
database keeps a check value sealed with the key (meta row "pool_key_check"): an instance
given another key refuses to start, saying so, instead of failing on the first pool. The key
is changed with `build.py rotate-pool-key` (`rotate`: every row re-sealed in one transaction).

Each process keeps a pool in memory once opened (web/endpoint/pools/cache.py), and writes its
files under its own LOTTERY_POOL_DIR as a cache (its hashing process and its reveal files read
them). The other pool modules: files.py (a pool's secrets and files), layout.py (the
process that lays a pool out), cache.py (the pools this process holds).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from engine.math.leaves import KEY_BYTES
from engine.math.pool import Pool
from web.endpoint.keys import write_secret_once
from web.endpoint.pools import files
from web.endpoint.store.database import Database
from web.endpoint.store.schema import meta, pool_closings, pool_data, pools

DEV_KEY_NAME = "pool-key"
NONCE_BYTES = 12
CHECK_KEY = "pool_key_check"  # meta row: a known text sealed with the key
CHECK_TEXT = b"lottery pool key check"
CHECK_ID = "(key check)"


class PoolKeyMismatch(ValueError):
    """The pool-encryption key is not the one the database's pools are sealed with."""


def _aad(pool_id: str) -> bytes:
    return f"lottery-pool-seal/1 {pool_id}".encode()


def parse_key(text: str, origin: str) -> bytes:
    """A pool-encryption key from its 64 hex digits; ValueError naming `origin` otherwise."""
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        key = b""
    if len(key) != 32:
        raise ValueError(f"{origin}: the pool-encryption key must be 64 hex digits (32 bytes)")
    return key


def load_key(var_dir: Path, key_hex: str, key_file: Path | None) -> bytes:
    """The pool-encryption key from configuration; a development key under var/ if none is set."""
    if key_hex:
        return parse_key(key_hex, "LOTTERY_POOL_KEY")
    if key_file is not None:
        return parse_key(key_file.read_text(encoding="ascii"), str(key_file))
    path = var_dir / DEV_KEY_NAME
    write_secret_once(path, secrets.token_hex(32).encode())
    return parse_key(path.read_text(encoding="ascii"), str(path))


class Seal:
    """Authenticated encryption of a pool's secrets with the pool-encryption key."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, pool_id: str, secret: bytes) -> bytes:
        """nonce || ciphertext-and-tag of `secret`, bound to the pool id."""
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, secret, _aad(pool_id))

    def open(self, pool_id: str, sealed: bytes) -> bytes:
        """The secret sealed for this pool id; PoolKeyMismatch if the key or the id differ."""
        try:
            return self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], _aad(pool_id))
        except InvalidTag:
            raise PoolKeyMismatch(
                f"pool {pool_id} does not open with this instance's pool-encryption key; every "
                "endpoint instance needs the same LOTTERY_POOL_KEY (docs/deployment.md)"
            ) from None


class PoolVault:
    """The database's pools: stored sealed when committed, opened by any instance."""

    def __init__(self, db: Database, seal: Seal) -> None:
        self.db = db
        self.seal = seal

    def check_key(self) -> None:
        """Record the key's check value (the first instance to start), or refuse
        (PoolKeyMismatch) a key that is not the one the database's pools are sealed with."""
        value = base64.b64encode(self.seal.seal(CHECK_ID, CHECK_TEXT)).decode("ascii")
        with contextlib.suppress(IntegrityError), self.db.begin() as conn:
            conn.execute(insert(meta).values(key=CHECK_KEY, value=value))
            return
        with self.db.begin() as conn:  # (another instance recorded it first)
            found = conn.execute(select(meta.c.value).where(meta.c.key == CHECK_KEY)).scalar_one()
        try:
            self.seal.open(CHECK_ID, base64.b64decode(found))
        except PoolKeyMismatch:
            raise PoolKeyMismatch(
                "this instance's pool-encryption key is not the one the database's pools are "
                "sealed with: give every endpoint instance the same LOTTERY_POOL_KEY (or "
                "LOTTERY_POOL_KEY_FILE), as the signing key (docs/deployment.md, several hosts)"
            ) from None

    def put(self, conn: Connection, pool: Pool) -> None:
        """Store a pool (in the caller's transaction, the one that commits it), unless stored."""
        found = conn.execute(
            select(pool_data.c.pool_id).where(pool_data.c.pool_id == pool.pool_id)
        ).scalar()
        if found is not None:
            return
        commitment = json.dumps(files.commitment(pool), indent=1, ensure_ascii=False)
        conn.execute(
            insert(pool_data).values(
                pool_id=pool.pool_id,
                commitment=commitment + "\n",
                chunks=b"".join(pool.chunk_roots),
                sealed=self.seal.seal(pool.pool_id, pool.key + files.codes_bytes(pool.codes)),
            )
        )

    def closed(self, pool_ids: list[str]) -> set[str]:
        """Those of these pools that are closed (retired or sold out: web/endpoint/pools/reveal.py),
        read on a connection of its own as `get` is."""
        query = (
            select(pools.c.pool_id)
            .join(pool_closings, pool_closings.c.pool_ref == pools.c.id)
            .where(pools.c.pool_id.in_(pool_ids))
        )
        with self.db.engine.connect() as conn:
            return set(conn.execute(query).scalars())

    def get(self, pool_id: str) -> Pool | None:
        """A stored pool, opened and checked against its commitment; None if not stored.

        Read on a connection of its own, outside `Database.begin`: a sale asks for its pool
        inside its own transaction (which, on SQLite, holds the process's write lock)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(pool_data).where(pool_data.c.pool_id == pool_id)).first()
        if row is None:
            return None
        secret = self.seal.open(pool_id, bytes(row.sealed))
        key, entries = secret[:KEY_BYTES], secret[KEY_BYTES:]
        meta_json = json.loads(row.commitment)
        pool = files.from_parts(meta_json, entries, bytes(row.chunks), key, pool_id)
        if pool.pool_id != pool_id:
            raise ValueError(f"the stored pool {pool_id} opens as pool {pool.pool_id}")
        return pool


def move_in(vault: PoolVault, directory: Path) -> list[str]:
    """Store in the database every committed pool it lacks whose files are under `directory`
    (a pool directory from before pools lived in the database), each checked leaf by leaf
    against its files' commitment and the root the database recorded; the ids moved in.
    FileNotFoundError names a committed pool found in neither."""
    moved = []
    with vault.db.begin() as conn:
        lacking = conn.execute(
            select(pools.c.pool_id, pools.c.root)
            .where(pools.c.pool_id.not_in(select(pool_data.c.pool_id)))
            .order_by(pools.c.id)
        ).all()
    for pool_id, root in lacking:
        path = directory / pool_id
        if not path.is_dir():
            raise FileNotFoundError(f"pool {pool_id} is committed but {path} is missing")
        pool = files.load(path, verify=True)
        if pool.pool_id != pool_id or pool.root.hex() != root:
            raise ValueError(f"{path} is not the pool {pool_id} the database committed")
        with vault.db.begin() as conn:
            vault.put(conn, pool)
        moved.append(pool_id)
    return moved


def _reseal(old: Seal, new: Seal, pool_id: str, sealed: bytes) -> tuple[bytes, bytes]:
    """`sealed` opened with the old key and sealed with the new: (the new sealed bytes, the
    SHA-256 of the secret, to check it opens again); PoolKeyMismatch if the old key is wrong."""
    secret = old.open(pool_id, sealed)
    return new.seal(pool_id, secret), hashlib.sha256(secret).digest()


def rotate(vault: PoolVault, new: Seal) -> list[str]:
    """Re-seal every stored pool and the key check (meta "pool_key_check") with the `new`
    key, in ONE transaction: each row is read back and opened with the new key before the
    commit, so it commits whole or not at all. PoolKeyMismatch, with nothing changed, if a
    row does not open with the vault's (old) key; the ids of the pools re-sealed.

    Instances still given the old key then refuse to start (`check_key`): stop them all
    first, rotate, and start them with the new key (docs/deployment.md)."""
    sealed_with: dict[str, bytes] = {}  # pool id (CHECK_ID: the key check) -> SHA-256 of secret
    with vault.db.begin() as conn:
        found = conn.execute(select(meta.c.value).where(meta.c.key == CHECK_KEY)).scalar()
        if found is None:
            raise PoolKeyMismatch("the database has no pool-key check: start an endpoint first")
        again, sealed_with[CHECK_ID] = _reseal(vault.seal, new, CHECK_ID, base64.b64decode(found))
        value = base64.b64encode(again).decode("ascii")
        conn.execute(update(meta).where(meta.c.key == CHECK_KEY).values(value=value))
        ids = conn.execute(select(pool_data.c.pool_id).order_by(pool_data.c.pool_id)).scalars()
        for pool_id in list(ids):
            where = pool_data.c.pool_id == pool_id
            old = conn.execute(select(pool_data.c.sealed).where(where)).scalar_one()
            again, sealed_with[pool_id] = _reseal(vault.seal, new, pool_id, bytes(old))
            conn.execute(update(pool_data).where(where).values(sealed=again))
        # read back in the same transaction: every row opens with the new key, to its secret
        stored = conn.execute(select(meta.c.value).where(meta.c.key == CHECK_KEY)).scalar_one()
        rows = [(CHECK_ID, base64.b64decode(stored))]
        rows += [
            (i, bytes(v)) for i, v in conn.execute(select(pool_data.c.pool_id, pool_data.c.sealed))
        ]
        for pool_id, sealed in rows:
            if hashlib.sha256(new.open(pool_id, sealed)).digest() != sealed_with.pop(pool_id):
                raise ValueError(f"pool {pool_id} does not open to its secret with the new key")
        if sealed_with:  # (a row gone meanwhile)
            raise ValueError(f"not re-sealed: {', '.join(sorted(sealed_with))}")
    vault.seal = new
    return sorted(i for i, _ in rows if i != CHECK_ID)


def open_vault(db: Database, var_dir: Path, key_hex: str, key_file: Path | None) -> PoolVault:
    """The vault of an endpoint's configuration, its key checked against the database."""
    vault = PoolVault(db, Seal(load_key(var_dir, key_hex, key_file)))
    vault.check_key()
    return vault
