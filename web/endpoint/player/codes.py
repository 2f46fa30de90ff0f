"""One-time sign-in codes: made for an account (POST /api/account/code), used once to sign that
account in on another device (POST /api/session {"code"}), in the transaction that writes the
new session's row; docs/api.md, docs/endpoint.md.

A code is 8 characters (40 bits) from CODE_ALPHABET. The database keeps only its HMAC-SHA256
under a key derived from the session secret, which lives outside the database (the operator's
LOTTERY_SESSION_SECRET, or var/session-secret): a copy of the database alone gives no code
away, where an unsalted SHA-256 of 40 bits is reversed offline in hours. A slow KDF (scrypt,
Argon2) was not chosen: a code is looked up by its hash, so a salt cannot be used, and without
one a KDF only multiplies the attacker's cost by its own, while every sign-in attempt pays it on
the endpoint's two cores; a secret key makes the search impossible at the cost of one HMAC.

Guessing is bounded per code, in the database (so across processes and addresses): a code's
first LOCATOR characters name it, and every wrong code tried with them counts against the live
codes they name; MAX_WRONG_TRIES end a code, and its player asks for a new one. So a code gets
at most five guesses at its other 25 bits, from however many addresses and processes, where
3,000 wrong codes from 3,000 addresses went through before with the real code still working.
(A guesser can end a code it has named five times: the cost is a new code for its player.)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from sqlalchemy import delete, exc, insert, select, update

from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError
from web.endpoint.player.accounts import Account
from web.endpoint.player.sessions import Sessions
from web.endpoint.store.database import Database
from web.endpoint.store.schema import accounts, sign_in_codes
from web.endpoint.times import iso

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 8
CODE_TTL_MS = 10 * 60 * 1000
LOCATOR = 3  # the first characters of a code, which name it (15 bits, stored in the clear)
MAX_WRONG_TRIES = 5  # wrong codes aimed at one code (by its locator) end it
INVALID = "This sign-in code is unknown, expired or used (five wrong tries end a code)."


def code_key(session_secret: bytes) -> bytes:
    """The key of sign-in codes' hashes, derived from the (database-bound) session secret."""
    return hmac.new(session_secret, b"sign-in codes", hashlib.sha256).digest()


def plain_code(code: str) -> str | None:
    """A typed code read leniently (case, hyphen, spaces); None for text that cannot be one."""
    plain = code.upper().replace("-", "").replace(" ", "")
    if len(plain) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in plain):
        return None
    return plain


class SignInCodes:
    """Sign-in codes of one database, hashed under one key."""

    def __init__(self, db: Database, clock: Clock, key: bytes) -> None:
        self.db = db
        self.clock = clock
        self.key = key

    def digest(self, plain: str) -> str:
        """The stored hash of a code (HMAC-SHA256, hex)."""
        return hmac.new(self.key, plain.encode(), hashlib.sha256).hexdigest()

    def new(self, account: Account) -> dict[str, Any]:
        """Make a sign-in code for the account (its earlier unused codes stop working)."""
        now = self.clock.now_ms()
        for _ in range(3):
            plain = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.db.begin() as conn:
                    # The account's row locked first: concurrent requests replace one another's
                    # code in turn (PostgreSQL; SQLite's transactions are serialized already).
                    conn.execute(
                        select(accounts.c.id).where(accounts.c.id == account.pk).with_for_update()
                    )
                    conn.execute(
                        delete(sign_in_codes).where(
                            sign_in_codes.c.account_id == account.pk,
                            sign_in_codes.c.used_at.is_(None),
                        )
                    )
                    conn.execute(
                        insert(sign_in_codes).values(
                            code_hash=self.digest(plain),
                            locator=plain[:LOCATOR],
                            account_id=account.pk,
                            created_at=now,
                            expires_at=now + CODE_TTL_MS,
                        )
                    )
            except exc.IntegrityError:  # the same code as another account's: draw again
                continue
            return {"code": f"{plain[:4]}-{plain[4:]}", "expires_at": iso(now + CODE_TTL_MS)}
        raise ApiError(503, "code_unavailable", "No code could be made; try again.")

    def prune(self) -> int:
        """Delete the codes past their expiry, used or not: none can sign anybody in again (the
        table holds the live codes only, so the sweep's scan is short); returns how many."""
        now = self.clock.now_ms()
        with self.db.begin() as conn:
            gone = conn.execute(delete(sign_in_codes).where(sign_in_codes.c.expires_at <= now))
        return int(gone.rowcount)

    def sign_in(
        self, code: str, devices: Sessions, drawn: tuple[int, str]
    ) -> tuple[Account, int, str]:
        """Sign in with a code: its account, balance and a new session credential, of the
        session `drawn` (`Sessions.draw`); 401 invalid_code for a code that is unknown, expired,
        used or ended by wrong tries (a wrong one counts against the codes its locator names).
        The code is marked used and the session's row written in one transaction, so it is
        tried again as work safe to repeat is (docs/endpoint.md, A lost database): a try lost
        before its commit did neither (the code still works); one whose commit went through
        and whose answer was lost left the code used and the row of the session drawn, which
        the next try (the same draw) finds and answers as the first would have. Another caller
        with the used code drew another session: 401."""
        plain = plain_code(code)
        if plain is None:
            raise ApiError(401, "invalid_code", INVALID)
        now = self.clock.now_ms()
        c = sign_in_codes.c
        digest = self.digest(plain)
        live = (c.used_at.is_(None), c.expires_at > now, c.wrong_tries < MAX_WRONG_TRIES)
        credential = None
        with self.db.begin() as conn:
            pk = conn.execute(
                update(sign_in_codes)
                .where(c.code_hash == digest, *live)
                .values(used_at=now)
                .returning(c.account_id)
            ).scalar()
            if pk is not None:
                row: Any = conn.execute(
                    select(accounts.c.public_id, accounts.c.balance_pence).where(
                        accounts.c.id == pk
                    )
                ).one()
                account = Account(int(pk), row.public_id)
                credential = devices.issue(account, conn, drawn)
            else:  # used already: by this sign-in's earlier try, whose answer was lost?
                row = conn.execute(
                    select(c.account_id, accounts.c.public_id, accounts.c.balance_pence)
                    .join(accounts, accounts.c.id == c.account_id)
                    .where(c.code_hash == digest, c.used_at.is_not(None))
                ).one_or_none()
                if row is not None:
                    account = Account(int(row.account_id), row.public_id)
                    credential = devices.issued(account, drawn, conn)
                if credential is None:
                    conn.execute(
                        update(sign_in_codes)
                        .where(c.locator == plain[:LOCATOR], *live)
                        .values(wrong_tries=c.wrong_tries + 1)
                    )
        if credential is None:  # after the commit: the wrong try is counted
            raise ApiError(401, "invalid_code", INVALID)
        return account, int(row.balance_pence), credential
