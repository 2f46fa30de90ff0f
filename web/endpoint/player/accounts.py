"""Accounts: a guest account granted a demo balance, and its balance (the sum of its
transactions); each operation in one transaction."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, insert, select

from web.endpoint.clock import Clock
from web.endpoint.store.database import Database
from web.endpoint.store.schema import accounts, transactions


@dataclass(frozen=True)
class Account:
    """An authenticated caller: the internal key and the public id."""

    pk: int
    public_id: str


class Accounts:
    """The accounts of a database, created at the ledger's clock."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    def create(self, balance_pence: int) -> Account:
        """A guest account granted a demo balance."""
        now = self.clock.now_ms()
        public_id = secrets.token_hex(12)
        with self.db.begin() as conn:
            pk = conn.execute(
                insert(accounts)
                .values(public_id=public_id, created_at=now, balance_pence=balance_pence)
                .returning(accounts.c.id)
            ).scalar_one()
            conn.execute(
                insert(transactions).values(
                    account_id=pk, kind="grant", amount_pence=balance_pence, created_at=now
                )
            )
        return Account(pk, public_id)

    def balance(self, account: Account) -> int:
        """The balance: the sum of the account's transactions."""
        with self.db.begin() as conn:
            total = conn.execute(
                select(func.coalesce(func.sum(transactions.c.amount_pence), 0)).where(
                    transactions.c.account_id == account.pk
                )
            ).scalar_one()
        return int(total)
