"""The ledger opened: each service of an endpoint's database (the database, the ledger's clock,
the accounts, the games' pools, the signing keys and the sale's statements), opened once from
its configuration at the edge, by the app's start (web/endpoint/http/services.py `build`) and
the operators' commands (tools/commands/), which hand each part only the services it uses: no
sale or route receives the `Ledger` itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from web.endpoint.clock import Clock
from web.endpoint.keys import KeyRing, load_keyring
from web.endpoint.player.accounts import Accounts
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.layout import LayOut
from web.endpoint.pools.pools import Pools
from web.endpoint.pools.vault import open_vault
from web.endpoint.sales.statements import Statements
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database, private_dir


@dataclass(frozen=True)
class Ledger:
    """An endpoint's services over its database, opened together, handed on one by one."""

    db: Database
    clock: Clock
    accounts: Accounts
    pools: Pools
    pool_cache: PoolCache  # the pools' files and entries, in this process's memory
    ring: KeyRing
    sql: Statements
    play_timeout_ms: int


def open_ledger(
    settings: Settings, clock: Callable[[], float], lay_out: LayOut | None = None
) -> Ledger:
    """The ledger of an endpoint's configuration: its database opened (and migrated), its
    signing keys, its pool-encryption key and its pools' cache directory. The app and the
    operators' commands open it alike."""
    if not settings.database_url or settings.var_dir.exists():
        private_dir(settings.var_dir)  # the SQLite ledger, the development key, the secret
    db = Database(settings.db_url, settings.db_pool_size, settings.db_connect_timeout_seconds)
    db.migrate()
    ring = load_keyring(
        settings.var_dir,
        settings.signing_key_file,
        settings.signing_key_pem,
        settings.retired_keys_dir,
    )
    vault = open_vault(db, settings.var_dir, settings.pool_key, settings.pool_key_file)
    pool_cache = PoolCache(settings.pools_path, vault, settings.pool_size, lay_out)
    time = Clock(clock)
    return Ledger(
        db=db,
        clock=time,
        accounts=Accounts(db, time),
        pools=Pools(db, pool_cache, time),
        pool_cache=pool_cache,
        ring=ring,
        sql=Statements(db.engine.dialect),
        play_timeout_ms=settings.play_timeout_seconds * 1000,
    )
