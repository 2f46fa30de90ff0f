"""An unfinished play's progress (the event reached, the player's choices, each game's range from
its contract) and its finish by the player, with its final choices (credited once:
web/endpoint/sales/settlement.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from engine import games
from web.endpoint.clock import Clock
from web.endpoint.errors import ApiError, not_found_play
from web.endpoint.player.accounts import Account
from web.endpoint.sales.settlement import finish_play
from web.endpoint.sales.statements import Statements
from web.endpoint.store.database import Database
from web.endpoint.store.schema import plays

# The most choices a play of any game may record (each game's Game.max_choices; Power Puck
# Shot's: one arrow per shot): the bound of the request's schema; merge_choices checks each game's.
MAX_CHOICES = max(game.max_choices for game in games.GAMES)
# The largest choice any game takes, from each game's contract (Game.waits; Power Puck Shot's
# arrows: 0-5): the bound of the request's schema; merge_choices checks each game's own.
MAX_CHOICE = max(game.choice_values for game in games.GAMES) - 1
CHOICES = f"[0-{MAX_CHOICE}, ...]"  # (in the documents and messages)
MAX_EVENT = 10_000  # the largest event index progress may record


def locked_play(conn: Connection, account_pk: int, play_number: int) -> Any:
    """A play of the account, its row locked to the end of the transaction (PostgreSQL)."""
    row = conn.execute(
        select(plays)
        .where(plays.c.play_number == play_number, plays.c.account_id == account_pk)
        .with_for_update()
    ).first()
    if row is None:
        raise not_found_play()
    return row


def merge_choices(game: str, stored: list[int], given: list[int]) -> list[int]:
    """The stored choices extended by the given ones: 422 for choices the game does not take,
    409 choices_conflict when the two disagree where both have a choice."""
    found = games.get(game)
    values = found.choice_values  # its contract: Game.waits
    if len(given) > found.max_choices or any(not 0 <= choice < values for choice in given):
        allowed = f"0..{values - 1}" if values else "none"
        raise ApiError(
            422, "invalid_choices", f"This game's choices are {allowed} (at most {MAX_CHOICES})."
        )
    common = min(len(stored), len(given))
    if stored[:common] != given[:common]:
        raise ApiError(409, "choices_conflict", "These choices differ from the ones recorded.")
    return given if len(given) > len(stored) else stored


def store_progress(conn: Connection, play_number: int, event: int, choices: list[int]) -> None:
    conn.execute(
        update(plays)
        .where(plays.c.play_number == play_number)
        .values(progress_event=event, choices=json.dumps(choices, separators=(",", ":")))
    )


@dataclass(frozen=True)
class Progress:
    """The player's progress through a play and its finish, on a database at the ledger's
    clock (a play past the play timeout is settled, not moved on)."""

    db: Database
    sql: Statements
    clock: Clock
    timeout_ms: int  # LOTTERY_PLAY_TIMEOUT_SECONDS, in ms

    def finish(
        self, account: Account, play_number: int, choices: list[int] | None = None
    ) -> dict[str, Any]:
        """Mark a play finished and credit its prize exactly once; a repeat credits nothing.

        With choices, they are recorded as the play's final choices in the same transaction
        (they must extend the stored ones; after the finish they can no longer change)."""
        sql = self.sql
        with self.db.begin() as conn:
            if choices is not None:
                row = locked_play(conn, account.pk, play_number)
                merged = merge_choices(row.game, json.loads(row.choices), choices)
                if row.status != "purchased" and merged != json.loads(row.choices):
                    raise ApiError(
                        409, "choices_conflict", "The play is finished: its choices are final."
                    )
                store_progress(conn, play_number, row.progress_event, merged)
            now = self.clock.now_ms()
            done = finish_play(sql, conn, account.pk, play_number, now, "player")
            if done is None:
                row = sql.play_outcome.row(conn, number=play_number, account=account.pk)
                if row is None:
                    raise not_found_play()
                done = int(row[0])
            balance = sql.balance.value(conn, account=account.pk)
        return {
            "play_number": play_number,
            "prize_pence": done,
            "balance_pence": int(balance),
            "status": "finished",
        }

    def save(
        self, account: Account, play_number: int, event: int, choices: list[int]
    ) -> dict[str, Any]:
        """PUT /api/plays/{n}/progress: the event the player has reached (never backwards) and
        their choices so far (extending the stored ones), for an unfinished play of the
        account."""
        now = self.clock.now_ms()
        with self.db.begin() as conn:
            row = locked_play(conn, account.pk, play_number)
            finished = row.status != "purchased"
            if not finished and row.purchased_at <= now - self.timeout_ms:
                finish_play(self.sql, conn, account.pk, play_number, now, "auto")  # overdue
                finished = True
            if not finished:
                stored = json.loads(row.choices)
                merged = merge_choices(row.game, stored, choices)
                reached = max(int(row.progress_event), event)
                if merged != stored or reached != row.progress_event:
                    store_progress(conn, play_number, reached, merged)
        if finished:  # (raised after the commit, so an overdue play's settlement stands)
            raise ApiError(409, "play_finished", "The play is finished; its progress is final.")
        return {"play_number": play_number, "event": reached, "choices": merged}
