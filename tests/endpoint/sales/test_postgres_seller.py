"""The PostgreSQL seller (web/endpoint/sales/postgres_seller.py): batches signed ahead of their one
statement, sold whole when the process knew where the pool stood, else changing nothing and sold
the long way. (Its single sales and batches under load: test_batch.py, on both databases.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import insert

from engine import games
from tests.endpoint.sales.test_batch import check_books
from web.endpoint import tokens
from web.endpoint.errors import ApiError
from web.endpoint.http.services import Services
from web.endpoint.player.accounts import Account
from web.endpoint.sales.postgres_seller import PostgresSeller
from web.endpoint.store.schema import play_time

PRICE = 300
LAB_RICHES = games.get("lab-riches")

# batches are signed ahead on PostgreSQL only (SQLite sells a batch inline, in savepoints)
POSTGRESQL_ONLY = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def signing_ahead(make_app: Callable[..., FastAPI]) -> tuple[Services, PostgresSeller, list[bool]]:
    """A PostgreSQL ledger and its seller, whose batches signed ahead are noted (True: that
    statement sold the batch; False: it changed nothing and the batch went the long way)."""
    app = make_app()
    services: Services = app.state.services
    seller = app.state.services.checkout.seller
    assert isinstance(seller, PostgresSeller)
    services.pools.ensure("lab-riches")
    tried: list[bool] = []
    sell_signed = seller._sell_signed

    def noted(*args: Any) -> bool:  # the real one, its outcome noted
        tried.append(sell_signed(*args))
        return tried[-1]

    seller._sell_signed = noted  # type: ignore[method-assign,assignment]
    return services, seller, tried


@POSTGRESQL_ONLY
def test_a_batch_after_a_draw_of_its_own_is_signed_ahead_and_sold_whole(
    make_app: Callable[..., FastAPI],
) -> None:
    services, seller, tried = signing_ahead(make_app)
    a, b = services.accounts.create(20 * PRICE), services.accounts.create(20 * PRICE)
    first = seller.sell_batch(LAB_RICHES, [(a, "k1"), (b, "k2")])
    assert tried == []  # where the pool stands is not known yet: the long way
    again = seller.sell_batch(LAB_RICHES, [(b, "k3"), (a, "k4"), (a, "k5")])
    assert tried == [True]
    assert all(answer is not None for answer in first + again)
    # each answers the balance its own debit left; the entries follow the first batch's
    balances = [answer["balance_pence"] for answer in again if answer]
    assert balances == [18 * PRICE, 18 * PRICE, 17 * PRICE]
    numbers = sorted(answer["play_number"] for answer in first + again if answer)
    assert numbers == list(range(numbers[0], numbers[0] + 5))
    for answer in again:
        assert answer is not None
        payload = tokens.verify(services.ring, answer["token"])
        assert payload["play_number"] == answer["play_number"]
    assert check_books(services) == {a.pk: 3, b.pk: 2}
    assert (services.accounts.balance(a), services.accounts.balance(b)) == (17 * PRICE, 18 * PRICE)


@POSTGRESQL_ONLY
def test_a_wrong_guess_changes_nothing_and_the_batch_goes_the_long_way(
    make_app: Callable[..., FastAPI],
) -> None:
    services, seller, tried = signing_ahead(make_app)
    elsewhere = make_app().state.services  # another endpoint process, its pool loaded
    elsewhere.pools.ensure("lab-riches")
    other: PostgresSeller = elsewhere.checkout.seller
    a, b = services.accounts.create(20 * PRICE), services.accounts.create(2 * PRICE)
    seller.sell_batch(LAB_RICHES, [(a, "k1")])
    other.sell_batch(LAB_RICHES, [(a, "elsewhere")])  # the pool moved on meanwhile
    moved = seller.sell_batch(LAB_RICHES, [(a, "k2"), (b, "k3")])
    assert tried == [False] and all(answer is not None for answer in moved)
    assert seller.guesses.claim(services.pools.selling.rows()[0].id, 1) is None  # backing off
    short = seller.sell_batch(LAB_RICHES, [(a, "k4"), (b, "k5"), (b, "k6")])
    assert tried == [False]  # sold the long way while backing off: b pays for neither
    assert short[0] is not None and short[1:] == [None, None]
    assert check_books(services) == {a.pk: 4, b.pk: 1}


@POSTGRESQL_ONLY
def test_a_batch_signed_ahead_with_a_purchase_not_paid_changes_nothing(
    make_app: Callable[..., FastAPI],
) -> None:
    services, seller, tried = signing_ahead(make_app)
    a, b = services.accounts.create(20 * PRICE), services.accounts.create(PRICE)
    seller.sell_batch(LAB_RICHES, [(a, "k1")])
    short = seller.sell_batch(LAB_RICHES, [(a, "k2"), (b, "k3"), (b, "k4")])
    assert tried == [False]  # b covers one of its two: nothing was sold by the guess
    assert short[0] is not None and short[1:] == [None, None]  # b's each bought on its own
    used = seller.sell_batch(LAB_RICHES, [(a, "k1"), (a, "k5")])  # k1 bought before
    assert used[0] is None and used[1] is not None
    assert check_books(services) == {a.pk: 3}
    assert services.accounts.balance(b) == PRICE and services.accounts.balance(a) == 17 * PRICE


class Noted:
    """A psycopg cursor whose statements are noted (the real cursor does the work)."""

    def __init__(self, cursor: Any, executed: list[str]) -> None:
        self.cursor = cursor
        self.executed = executed

    def execute(self, query: str, params: Any = None) -> Any:
        self.executed.append(query)
        return self.cursor.execute(query, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)


def playing(services: Services, account: Account, began_ms_ago: int) -> None:
    """Give the account a run of play that began that long ago, its last play now."""
    now = services.clock.now_ms()
    with services.db.begin() as conn:
        conn.execute(
            insert(play_time).values(
                account_id=account.pk,
                run_started_at=now - began_ms_ago,
                last_play_at=now,
                reality_due_at=now,
            )
        )


@POSTGRESQL_ONLY
def test_a_logged_out_account_is_refused_by_each_debit_and_nothing_is_taken(
    make_app: Callable[..., FastAPI],
) -> None:
    """The log-out of play is in each sale statement's debit (pg_statements: TAKE,
    BATCH_SALE, BATCH_DEBIT): a logged-out account's purchase is not sold by a batch signed
    ahead (it sells none of the batch), nor the long way (the others are), nor on its own (403
    cooling_off, the play_time row read only then); no money, entry or play is taken. An
    account within its session is sold as before: a batch signed ahead whole, a single sale
    in its two statements."""
    services, seller, tried = signing_ahead(make_app)
    session = 3_600_000  # the operator's default hour of play, in ms
    a, b = services.accounts.create(20 * PRICE), services.accounts.create(20 * PRICE)
    seller.sell_batch(LAB_RICHES, [(a, "k1"), (b, "k2")])  # the long way: the pool is known
    playing(services, a, session - 1)  # a millisecond of its hour left
    playing(services, b, session)  # its hour is up: logged out now
    within = seller.sell_batch(LAB_RICHES, [(a, "k3"), (a, "k4")])
    assert tried == [True] and None not in within  # signed ahead and sold whole
    mixed = seller.sell_batch(LAB_RICHES, [(a, "k5"), (b, "k6")])
    assert tried == [True, False]  # b logged out: the statement signed ahead sold nothing
    assert mixed[0] is not None and mixed[1] is None  # the long way: a's paid; b's on its own
    executed: list[str] = []
    pipeline = seller._pipeline

    @contextmanager
    def noted() -> Iterator[tuple[Any, Any]]:
        with pipeline() as (pg, cursor):
            yield pg, Noted(cursor, executed)

    seller._pipeline = noted  # type: ignore[method-assign]
    with pytest.raises(ApiError) as refused:
        seller.sell(b, LAB_RICHES, "k6")
    assert (refused.value.status, refused.value.code) == (403, "cooling_off")
    sql = services.checkout.sql
    assert executed == [seller.sql.take, sql.admission.sql]  # the row read on refusal only
    executed.clear()
    assert seller.sell(a, LAB_RICHES, "k7")["balance_pence"] == 15 * PRICE
    assert executed == [seller.sql.take, seller.sql.add_sale.sql]
    assert check_books(services) == {a.pk: 5, b.pk: 1}
    assert (services.accounts.balance(a), services.accounts.balance(b)) == (15 * PRICE, 19 * PRICE)
