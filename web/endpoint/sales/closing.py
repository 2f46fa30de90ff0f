"""Closing an account (POST /api/account/close; docs/player.md, docs/api.md): its unfinished
plays finished and their prizes credited, then its balance paid out, then the account closed
and unlinked from every device, all in one transaction.

The ledger's records stay (plays, transactions, the account's row: the operator must keep
them); what links the account to a device goes: its sessions' rows (each credential is then
refused: web/endpoint/player/sessions.py) and its sign-in codes. A closed account buys nothing
(its `paused_until` is protections.FOREVER, so the purchase's debit refuses it) and cannot be
signed in to again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError
from web.endpoint.player import protections
from web.endpoint.player.accounts import Account
from web.endpoint.player.sessions import Sessions
from web.endpoint.sales.settlement import finish_play
from web.endpoint.sales.statements import Statements
from web.endpoint.store.database import Database
from web.endpoint.store.schema import accounts, plays, sessions, sign_in_codes, transactions
from web.endpoint.times import iso


@dataclass(frozen=True)
class Closing:
    """Closes the accounts of a database at the ledger's clock."""

    db: Database
    sql: Statements
    clock: Clock
    devices: Sessions  # forgets a closed account's credentials it had checked

    def close(self, account: Account) -> dict[str, Any]:
        """Settle and close the account; 409 account_closed if it is already."""
        now = self.clock.now_ms()
        a = accounts.c
        with self.db.begin() as conn:
            row = conn.execute(
                select(a.closed_at).where(a.id == account.pk).with_for_update()
            ).one()
            if row.closed_at is not None:
                raise ApiError(409, "account_closed", "This account is closed already.")
            unfinished = conn.execute(
                select(plays.c.play_number)
                .where(plays.c.account_id == account.pk, plays.c.status == "purchased")
                .order_by(plays.c.play_number)
            ).scalars()
            prizes = settled = 0
            for number in list(unfinished):
                prize = finish_play(self.sql, conn, account.pk, number, now, "closed")
                if prize is not None:
                    settled, prizes = settled + 1, prizes + prize
            balance = int(self.sql.balance.value(conn, account=account.pk))
            if balance:
                conn.execute(
                    insert(transactions).values(
                        account_id=account.pk,
                        kind="closure",
                        amount_pence=-balance,
                        created_at=now,
                    )
                )
            conn.execute(
                update(accounts)
                .where(a.id == account.pk)
                .values(
                    balance_pence=0,
                    closed_at=now,
                    paused_until=protections.FOREVER,
                    sessions_ended_at=now,
                )
            )
            conn.execute(delete(sessions).where(sessions.c.account_id == account.pk))
            conn.execute(delete(sign_in_codes).where(sign_in_codes.c.account_id == account.pk))
        self.devices.forget(account)
        return {
            "closed_at": iso(now),
            "plays_settled": settled,
            "prizes_pence": prizes,
            "paid_out_pence": balance,
        }
