"""PostgreSQL's sale and batch statements, as driver text (psycopg's %(name)s parameters), and
the PostgreSQL seller's own statements (`PostgresStatements`, sales/postgres_seller.py); the
statements every seller shares are sales/statements.py's."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import BigInteger, bindparam, insert, literal, select
from sqlalchemy.engine import Dialect

from web.endpoint.player import limits, playtime, protections
from web.endpoint.sales.sale import LOG_RECORD
from web.endpoint.store.prepared import Prepared
from web.endpoint.store.schema import log_entries, plays, transactions

# The columns of a batch's plays passed in its one JSON parameter (`sales_params`, read by
# json_to_recordset), and their types; the rest are the batch's own (game, model, pool, status,
# time) or their defaults. (Not one array a column: why, in docs/changelog.md,
# "Hashing ahead, and a batch's plays as one JSON parameter".)
SALE_FIELDS = {
    "play_number": "bigint",
    "account_id": "integer",
    "pool_index": "integer",
    "prize_pence": "bigint",
    "composition": "text",
    "seed": "text",
    "token": "text",
    "idempotency_key": "text",
    "book_hash": "text",
}


# Text shared by the batch statements (PostgresSeller.sell_batch). A batch's purchases as
# rows (`n` its position in the arrays), those whose Idempotency-Key the account has not used,
# and how many each account buys:
BATCH_REQUESTS = (
    "req AS (SELECT * FROM unnest(%(accounts)s::integer[], %(keys)s::text[])"
    " WITH ORDINALITY AS r(account, key, n)),"
    " fresh AS (SELECT account, key, n FROM req WHERE NOT EXISTS (SELECT FROM plays"
    " WHERE account_id = req.account AND idempotency_key = req.key)),"
    " need AS (SELECT account, count(*) AS c FROM fresh GROUP BY account)"
)
# ...and the ledger rows of the plays a `sale` CTE inserted.
BATCH_LEDGER_ROWS = (
    "INSERT INTO transactions (account_id, kind, amount_pence, play_number, created_at)"
    " SELECT account_id, 'purchase', %(amount_pence)s, play_number, purchased_at"
    " FROM sale ORDER BY play_number"
)


def sales_params(sales: list[dict[str, Any]]) -> dict[str, Any]:
    """The parameters of a batch's statement that carry its sales, in the batch's order:
    `sales`, their plays' SALE_FIELDS as a JSON array of objects, and their public log records
    as two arrays sent in binary (`logs`, the records' bytes, and `log_plays`, their play
    numbers: in the JSON, as hex, they doubled its size and were parsed a second time, while
    the pool row was locked)."""
    rows = [{name: sale[name] for name in SALE_FIELDS} for sale in sales]
    return {
        "sales": json.dumps(rows, separators=(",", ":")),
        "logs": [sale[LOG_RECORD] for sale in sales],
        "log_plays": [sale["play_number"] for sale in sales],
    }


def batch_log(condition: str) -> str:
    """The `logged` CTE inserting a batch's public log records from its `logs` and
    `log_plays` parameters, in play number order (a batch's entries are consecutive entries
    of one pool, so that is their index order, and the order of the rows' ids: docs/log.md,
    "Sequencing"); `condition` as batch_plays'."""
    return (
        "logged AS (INSERT INTO log_entries (data, play_number, created_at)"
        " SELECT l.data, l.play_number, %(purchased_at)s"
        " FROM unnest(%(logs)b::bytea[], %(log_plays)b::bigint[]) AS l(data, play_number)"
        f"{condition} ORDER BY l.play_number)"
    )


def batch_plays(condition: str) -> str:
    """The `sale` CTE inserting a batch's plays from its `sales` parameter (SALE_FIELDS), the
    rest of each row the batch's own; `condition` (" WHERE ...", or "") decides whether it
    does."""
    fields = ", ".join(f"{name} {kind}" for name, kind in SALE_FIELDS.items())
    return (
        "sale AS (INSERT INTO plays (game, model, pool_ref, status, purchased_at,"
        f" {', '.join(SALE_FIELDS)})"
        " SELECT %(game)s, %(model)s, %(pool_ref)s, 'purchased', %(purchased_at)s, s.*"
        f" FROM json_to_recordset(%(sales)s::json) AS s({fields}){condition}"
        " RETURNING account_id, play_number, purchased_at)"
    )


# The debit and, only when it succeeded, the draw, in one statement (for
# PostgresSeller.sell). The debit is refused when the balance does not cover the price, a
# spend limit would be passed, the account is logged out of play at %(now)s, or it is on a
# break or self-excluded then (protections.PG_OPEN). Its row:
# (balance after the debit or NULL when it was refused, the pool's new next_index or NULL
# when the pool is spent).
TAKE = (
    "WITH debit AS (UPDATE accounts SET balance_pence = balance_pence - %(price)s,"
    f" {limits.PG_SETS}"
    " WHERE id = %(account)s AND balance_pence >= %(price)s"
    f" AND {limits.PG_WITHIN} AND {playtime.PG_PLAYING} AND {protections.PG_OPEN}"
    " RETURNING balance_pence),"
    " draw AS (UPDATE pools SET next_index = next_index + 1"
    " WHERE id = %(pool)s AND next_index < size AND EXISTS (SELECT FROM debit)"
    " RETURNING next_index)"
    " SELECT (SELECT balance_pence FROM debit), (SELECT next_index FROM draw)"
)


# For PostgresSeller.sell_batch. The debits of a batch and its draw in one statement: each
# account pays for all its purchases whose Idempotency-Key it has not used, or (balance short,
# a limit passed, logged out of play, on a break or self-excluded) for none; rows locked in
# id order (no deadlock between batches); then, only if some were paid, the draw of as many
# consecutive entries as purchases paid (the pool row locked after the accounts, as a single
# sale does). One row per purchase paid: (its position in the arrays, the account's balance
# after, how many it paid, the pool's new next_index or NULL when fewer entries are left).
BATCH_DEBIT = (
    f"WITH {BATCH_REQUESTS},"
    " locked AS (SELECT id FROM accounts WHERE id IN (SELECT account FROM need)"
    " ORDER BY id FOR UPDATE),"
    " debit AS (UPDATE accounts a"
    " SET balance_pence = a.balance_pence - %(price)s * need.c,"
    f" {limits.PG_BATCH_SETS}"
    " FROM need, locked WHERE a.id = need.account AND locked.id = a.id"
    " AND a.balance_pence >= %(price)s * need.c"
    f" AND {limits.PG_BATCH_WITHIN} AND {playtime.PG_BATCH_PLAYING}"
    f" AND {protections.PG_BATCH_OPEN}"
    " RETURNING a.id, a.balance_pence, need.c),"
    " paid AS (SELECT fresh.n, debit.balance_pence, debit.c FROM fresh"
    " JOIN debit ON debit.id = fresh.account),"
    " draw AS (UPDATE pools SET next_index = next_index + (SELECT count(*) FROM paid)"
    " WHERE id = %(pool)s AND EXISTS (SELECT FROM paid)"
    " AND next_index + (SELECT count(*) FROM paid) <= size RETURNING next_index)"
    " SELECT paid.n, paid.balance_pence, paid.c, (SELECT next_index FROM draw)"
    " FROM paid ORDER BY paid.n"
)


# For a batch (PostgresSeller.sell_batch): its plays, their public log records and their
# ledger rows in one statement (one JSON parameter, an object a play: SALE_FIELDS and "log"),
# instead of one a play.
ADD_SALES = f"WITH {batch_plays('')}, {batch_log('')} {BATCH_LEDGER_ROWS}"


# For PostgresSeller.sell_batch when it knows where the pool stands (its own
# last draw): a whole batch in one statement, its plays signed before it is sent. Only when
# every purchase is paid (each account covers all its purchases within its limits, is
# not logged out of play, on a break nor self-excluded, no key used before)
# and the pool's next entry is still %(first)s does it debit, draw %(n)s entries and
# insert the plays (SALE_FIELDS, in the order of the accounts' arrays), their public log
# records and their ledger rows; otherwise it changes nothing (the accounts and the pool row
# stay locked until the transaction ends) and returns no row. The accounts are locked in id order,
# then the pool row, as every sale does. Its rows: as BATCH_DEBIT's.
BATCH_SALE = (
    f"WITH {BATCH_REQUESTS},"
    " locked AS (SELECT * FROM accounts WHERE id IN (SELECT account FROM need)"
    " ORDER BY id FOR UPDATE),"
    " able AS (SELECT count(*) AS k FROM locked a JOIN need ON need.account = a.id"
    f" WHERE a.balance_pence >= %(price)s * need.c AND {limits.PG_BATCH_WITHIN}"
    f" AND {playtime.PG_BATCH_PLAYING} AND {protections.PG_BATCH_OPEN}),"
    " go AS (SELECT next_index FROM pools WHERE id = %(pool)s"
    " AND next_index = %(first)s AND next_index + %(n)s <= size"
    " AND (SELECT count(*) FROM fresh) = %(n)s"
    " AND (SELECT k FROM able) = (SELECT count(*) FROM need) FOR UPDATE),"
    " debit AS (UPDATE accounts a"
    " SET balance_pence = a.balance_pence - %(price)s * need.c,"
    f" {limits.PG_BATCH_SETS}"
    " FROM need WHERE a.id = need.account AND EXISTS (SELECT FROM go)"
    " RETURNING a.id, a.balance_pence, need.c),"
    " draw AS (UPDATE pools SET next_index = next_index + %(n)s"
    " WHERE id = %(pool)s AND EXISTS (SELECT FROM go) RETURNING next_index),"
    f" {batch_plays(' WHERE EXISTS (SELECT FROM draw)')},"
    f" {batch_log(' WHERE EXISTS (SELECT FROM draw)')},"
    f" ledger AS ({BATCH_LEDGER_ROWS})"
    " SELECT fresh.n, debit.balance_pence, debit.c, (SELECT next_index FROM draw)"
    " FROM fresh JOIN debit ON debit.id = fresh.account ORDER BY fresh.n"
)


class PostgresStatements:
    """The PostgreSQL seller's own statements: the play, its public log record and its ledger
    row in one (`add_sale`, one round trip fewer while the pool row is locked), and the sale's
    and batches' text."""

    take = TAKE
    batch_debit = BATCH_DEBIT
    add_sales = ADD_SALES
    batch_sale = BATCH_SALE

    def __init__(self, dialect: Dialect) -> None:
        p = bindparam
        sale = (
            insert(plays)
            .values({c.name: p(c.name) for c in plays.columns if c.name != "id"})
            .returning(plays.c.account_id, plays.c.play_number, plays.c.purchased_at)
            .cte("sale")
        )
        logged = (
            insert(log_entries)
            .values(data=p(LOG_RECORD), play_number=p("play_number"), created_at=p("purchased_at"))
            .cte("logged")
        )
        columns = ["account_id", "kind", "amount_pence", "play_number", "created_at"]
        picked = select(
            sale.c.account_id,
            literal("purchase"),
            p("amount_pence", type_=BigInteger),
            sale.c.play_number,
            sale.c.purchased_at,
        )
        self.add_sale = Prepared(
            insert(transactions).from_select(columns, picked).add_cte(sale).add_cte(logged),
            dialect,
        )
