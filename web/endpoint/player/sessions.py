"""Sessions: the credential a device holds (cookie or bearer token), each a row of `sessions`
that logging out ends, and that ends itself after LOTTERY_SESSION_IDLE_SECONDS unused
(docs/api.md, docs/endpoint.md, Sessions).

A credential is HMAC-signed (web/endpoint/tokens.py), so a forged one is refused without the
database. A genuine one is then checked against its row, keyed by the SHA-256 of the credential's
signed part (the database holds nothing a credential can be made from): ended or idle, refused.
That check is made about once a CHECK_MS per session and process (its result kept until the
session's next instant on a grid of its own, web/endpoint/recheck.py, so sessions begun together
are not read together), and the row's last use written at most once a TOUCH_MS, so a busy
session costs the database nothing per request; a logout is seen by the process that made it at
once, by the others within CHECK_MS.

Credentials issued before sessions had rows (no nonce) are adopted: their row is made the first
time one is seen, unless its account logged out every device since (accounts.sessions_ended_at).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, delete, exc, insert, select, update

from web.endpoint import recheck, tokens
from web.endpoint.errors import ApiError
from web.endpoint.keys import b64url_decode
from web.endpoint.player.accounts import Account
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database
from web.endpoint.store.prepared import Prepared
from web.endpoint.store.schema import accounts, sessions, sign_in_codes

CHECK_MS = 1_000  # a process reads a session's row again within this
TOUCH_MS = 60_000  # a session's last use is written again after this
MAX_CACHED = 100_000  # sessions a process remembers checking (forgotten all at once beyond)


@dataclass(frozen=True)
class Checked:
    """A credential found good: until when that holds, its account, and when it expires
    (epoch ms)."""

    until: int
    account: Account
    expires_at: int


def session_id(text: str) -> str:
    """A credential's session id: the SHA-256 (hex) of its signed part."""
    return hashlib.sha256(text.partition(".")[0].encode()).hexdigest()


class Sessions:
    """The sessions of one database: issued, checked (idle ones refused), ended."""

    def __init__(
        self, db: Database, secret: bytes, clock: Callable[[], float], settings: Settings
    ) -> None:
        self.db = db
        self.secret = secret
        self.clock = clock
        self.ttl_seconds = settings.session_ttl_seconds
        self.idle_ms = settings.session_idle_seconds * 1000
        self._checked: dict[str, Checked] = {}  # credential -> its last check
        s = sessions.c  # the row a check reads, compiled once (a Core query costs more to build)
        self._row = Prepared(
            select(s.account_id, s.ended_at, s.last_used_at).where(
                s.session_id == bindparam("sid")
            ),
            db.engine.dialect,
        )

    def draw(self) -> tuple[int, str]:
        """A new session's issue time (epoch seconds) and random nonce, which with its account
        make its credential: drawn once before work tried again (a sign-in code's use), so a
        try after one whose commit went through names the same session (`issued`)."""
        return int(self.clock()), secrets.token_hex(16)

    def credential(self, account: Account, drawn: tuple[int, str]) -> str:
        """The credential of the account's session drawn so (`draw`)."""
        issued, nonce = drawn
        return tokens.issue_session(self.secret, f"{account.pk}/{account.public_id}", issued, nonce)

    def issued(self, account: Account, drawn: tuple[int, str], conn: Connection) -> str | None:
        """The credential drawn so, if its session's row is the account's already (written by
        an earlier try whose commit went through), else None."""
        text = self.credential(account, drawn)
        s = sessions.c
        found = conn.execute(
            select(s.account_id).where(s.session_id == session_id(text), s.account_id == account.pk)
        ).scalar()
        return text if found is not None else None

    def issue(
        self,
        account: Account,
        conn: Connection | None = None,
        drawn: tuple[int, str] | None = None,
    ) -> str:
        """A new credential for the account, and its session's row: written in the given
        connection's transaction (a sign-in code's use, `SignInCodes.sign_in`), else in one
        of its own; its issue time and nonce those drawn (`draw`), else new ones."""
        text = self.credential(account, drawn or self.draw())
        now = int(self.clock() * 1000)
        row = insert(sessions).values(
            session_id=session_id(text), account_id=account.pk, created_at=now, last_used_at=now
        )
        if conn is not None:
            conn.execute(row)
            return text
        with self.db.begin() as own:
            own.execute(row)
        return text

    async def check(self, text: str) -> Account:
        """The account of a credential; 401 unauthenticated if it is forged, expired, ended or
        idle too long. The same credential checked a moment ago (until its session's next
        instant on its grid, `recheck.due`: within CHECK_MS) is taken without its signature
        checked again (it is the very text that passed) or its row read, but not once it has
        expired."""
        now = int(self.clock() * 1000)
        seen = self._checked.get(text)
        if seen is not None and now < seen.until and now < seen.expires_at:
            return seen.account
        try:
            subject, issued = tokens.read_session(self.secret, text, now / 1000, self.ttl_seconds)
            pk, public_id = subject.split("/")
            account = Account(int(pk), public_id)
        except (tokens.TokenError, ValueError):
            raise ApiError(401, "unauthenticated", "The session is invalid or expired.") from None
        sid = session_id(text)
        if not await self.db.run_again(self._still_open, sid, account.pk, now, text):
            self._checked.pop(text, None)
            raise ApiError(401, "unauthenticated", "The session has ended; start a new one.")
        if len(self._checked) >= MAX_CACHED:
            self._checked.clear()
        until = recheck.due(now, CHECK_MS, int(sid[:8], 16))  # spread over the second
        self._checked[text] = Checked(until, account, (issued + self.ttl_seconds) * 1000)
        return account

    def _still_open(self, sid: str, pk: int, now: int, text: str) -> bool:
        """True when the session's row says it is open (adopted when it has none); its last use
        written when TOUCH_MS old, its end when idle too long. The row is read on its own (one
        round trip on PostgreSQL: `Database.read`); a write, rare, in a transaction of its own."""
        with self.db.read() as conn:
            row = self._row.row(conn, sid=sid)
        if row is None:
            with self.db.begin() as conn:
                return self._adopt(conn, sid, pk, now, text)
        account_id, ended_at, last_used_at = row
        if ended_at is not None or account_id != pk:
            return False
        idle = now - last_used_at > self.idle_ms
        if idle or now - last_used_at >= TOUCH_MS:
            with self.db.begin() as conn:
                written = {"ended_at": now} if idle else {"last_used_at": now}
                s = sessions.c
                conn.execute(update(sessions).where(s.session_id == sid).values(**written))
        return not idle

    def _adopt(self, conn: Any, sid: str, pk: int, now: int, text: str) -> bool:
        """A credential from before sessions had rows: its row now, unless its account has
        logged out every device since it was issued."""
        if _nonce_of(text):
            return False  # a credential of a session whose row is gone
        ended = conn.execute(
            select(accounts.c.sessions_ended_at).where(accounts.c.id == pk)
        ).scalar()
        if ended is not None:
            return False
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(sessions).values(
                        session_id=sid, account_id=pk, created_at=now, last_used_at=now
                    )
                )
        except exc.IntegrityError:  # adopted by another request at the same moment
            pass
        return True

    def prune(self) -> int:
        """Delete the rows of sessions past their lifetime (whatever ended them): unused for
        longer than a credential lives, so no credential can name them; returns how many."""
        cutoff = int(self.clock() * 1000) - self.ttl_seconds * 1000
        with self.db.begin() as conn:
            gone = conn.execute(delete(sessions).where(sessions.c.last_used_at < cutoff))
        return int(gone.rowcount)

    def end(self, text: str, account: Account) -> int:
        """Log one device out: end the credential's session (0 if it had ended)."""
        sid = session_id(text)
        self._checked.pop(text, None)
        s = sessions.c
        with self.db.begin() as conn:
            ended = conn.execute(
                update(sessions)
                .where(s.session_id == sid, s.account_id == account.pk, s.ended_at.is_(None))
                .values(ended_at=int(self.clock() * 1000))
            ).rowcount
        return int(ended)

    def forget(self, account: Account) -> None:
        """Forget the account's credentials this process has checked (its sessions have just
        ended: every check reads their rows again)."""
        for text, seen in list(self._checked.items()):
            if seen.account.pk == account.pk:
                self._checked.pop(text, None)

    def end_all(self, account: Account) -> int:
        """Log every device of the account out: end all its sessions, those from before
        sessions had rows included, and its unused sign-in codes (one made with a stolen
        credential would let its thief back in); returns how many sessions were open."""
        self.forget(account)
        now = int(self.clock() * 1000)
        s = sessions.c
        with self.db.begin() as conn:
            conn.execute(
                update(accounts).where(accounts.c.id == account.pk).values(sessions_ended_at=now)
            )
            ended = conn.execute(
                update(sessions)
                .where(s.account_id == account.pk, s.ended_at.is_(None))
                .values(ended_at=now)
            ).rowcount
            conn.execute(
                delete(sign_in_codes).where(
                    sign_in_codes.c.account_id == account.pk, sign_in_codes.c.used_at.is_(None)
                )
            )
        return int(ended)


def _nonce_of(text: str) -> str:
    """The nonce of a credential's signed part ("" for one issued before sessions had rows)."""
    try:
        parts = b64url_decode(text.partition(".")[0]).decode().split(":")
    except ValueError:
        return ""
    return parts[2] if len(parts) == 3 else ""
