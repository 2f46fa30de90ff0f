"""The seller: how this process sells plays on its database, one implementation a database
chosen once at start (sales/checkout.py): sales/sqlite_seller.py and sales/postgres_seller.py, and
test mode's wrapper around either (web/endpoint/testmode/).

Every seller sells the same sale: debit the price (within the balance and the spend limits, and
only while the account is not logged out of play, web/endpoint/player/playtime.py, nor on a break
or self-excluded, web/endpoint/player/protections.py), take the pool's next entry, record the
play and its ledger row, all in one transaction; the record and the answer are built in one
place (web/endpoint/sales/sale.py). Sellers differ only in how the statements reach the
database and how purchases are grouped (web/endpoint/sales/batch.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine.game import Game
from web.endpoint.errors import ApiError
from web.endpoint.player import limits, playtime, protections
from web.endpoint.pools.cache import PoolCache
from web.endpoint.pools.pools import PoolRow, Selling
from web.endpoint.sales.sale import Answer, Records
from web.endpoint.sales.statements import Statements
from web.endpoint.store.database import Database

if TYPE_CHECKING:
    from web.endpoint.player.accounts import Account

SPARE_AT = 50  # lay out the next pool when 1/50 of the current one is left

Requests = list[tuple["Account", str]]  # a batch's purchases: (account, Idempotency-Key)


class Seller(Protocol):
    """One way to sell: a purchase at a time, and a batch of purchases of one game."""

    batches: bool  # True: concurrent purchases are gathered into `sell_batch` (batch.py)
    retries_lost: bool  # True: a purchase whose connection was lost is tried again on a new one

    def sell(self, account: Account, game: Game, key: str | None) -> Answer:
        """Buy a play in one transaction; raises PoolExhausted (nothing changed) when a pool
        must be laid out first, ApiError 402/403 when the debit is refused."""
        ...

    def sell_batch(self, game: Game, requests: Requests) -> list[Answer | None]:
        """Sell purchases of a game together; the answer of each, or None for one to buy on
        its own (which gives its exact answer). Any error rolls the whole batch back."""
        ...


@dataclass(frozen=True)
class SaleParts:
    """What every seller sells with: the database and its statements, the records' builder,
    the pools on sale and their files, and the ledger's clock (integer milliseconds)."""

    db: Database
    sql: Statements
    records: Records
    selling: Selling
    pool_cache: PoolCache
    now_ms: Callable[[], int]
    rules: playtime.Rules  # the play-time rules: a debit refuses a logged-out account

    def debit_params(self, now: int) -> dict[str, int]:
        """The parameters of a sale's debit at `now` besides its own: the spend limits' day
        and week, and the play-time rules."""
        return limits.period_params(now) | self.rules.params

    def refusal(self, state: Any, price: int, now: int) -> ApiError:
        """Why a purchase's debit at `now` was refused, from the account's row as
        `Statements.admission` reads it (read only then): on a break or self-excluded (403
        break_taken, self_excluded), logged out of play (403 cooling_off, as the admission
        answers), a spend limit (403 limit_reached), else the balance (402)."""
        refused = protections.refusal(protections.of_admission(state), now)
        if refused is None:
            refused = playtime.refused(playtime.Row.of(state[-3:]), self.rules, now)
        if refused is None:
            refused = limits.Limits(state[: len(limits.COLUMNS)], now).refusal(price)
        if refused is not None:
            return refused
        return ApiError(402, "insufficient_funds", "The balance does not cover this play.")

    def spare_at(self, pool: PoolRow, index: int) -> None:
        """Lay out the game's next pool in the background when this sale leaves 1/SPARE_AT."""
        if index == pool.size - pool.size // SPARE_AT:
            threading.Thread(
                target=self.pool_cache.prepare_spare, args=(pool.game,), daemon=True
            ).start()
