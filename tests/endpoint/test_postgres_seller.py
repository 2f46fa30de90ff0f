"""The PostgreSQL seller (web/endpoint/postgres_seller.py): batches signed ahead of their one
statement, sold whole when the process knew where the pool stood, else changing nothing and sold
the long way. (Its single sales and batches under load: test_batch.py, on both databases.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI

from engine import games
from tests.endpoint.test_batch import check_books
from web.endpoint import tokens
from web.endpoint.ledger import Ledger
from web.endpoint.postgres_seller import PostgresSeller

PRICE = 300
LAB_RICHES = games.get("lab-riches")

# batches are signed ahead on PostgreSQL only (SQLite sells a batch inline, in savepoints)
POSTGRESQL_ONLY = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def signing_ahead(make_app: Callable[..., FastAPI]) -> tuple[Ledger, PostgresSeller, list[bool]]:
    """A PostgreSQL ledger and its seller, whose batches signed ahead are noted (True: that
    statement sold the batch; False: it changed nothing and the batch went the long way)."""
    app = make_app()
    ledger: Ledger = app.state.services.ledger
    seller = app.state.services.checkout.seller
    assert isinstance(seller, PostgresSeller)
    ledger.ensure_pool("lab-riches")
    tried: list[bool] = []
    sell_signed = seller._sell_signed

    def noted(*args: Any) -> bool:  # the real one, its outcome noted
        tried.append(sell_signed(*args))
        return tried[-1]

    seller._sell_signed = noted  # type: ignore[method-assign,assignment]
    return ledger, seller, tried


@POSTGRESQL_ONLY
def test_a_batch_after_a_draw_of_its_own_is_signed_ahead_and_sold_whole(
    make_app: Callable[..., FastAPI],
) -> None:
    ledger, seller, tried = signing_ahead(make_app)
    a, b = ledger.create_account(20 * PRICE), ledger.create_account(20 * PRICE)
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
        payload = tokens.verify(ledger.ring, answer["token"])
        assert payload["play_number"] == answer["play_number"]
    assert check_books(ledger) == {a.pk: 3, b.pk: 2}
    assert (ledger.balance(a), ledger.balance(b)) == (17 * PRICE, 18 * PRICE)


@POSTGRESQL_ONLY
def test_a_wrong_guess_changes_nothing_and_the_batch_goes_the_long_way(
    make_app: Callable[..., FastAPI],
) -> None:
    ledger, seller, tried = signing_ahead(make_app)
    elsewhere = make_app().state.services  # another endpoint process, its pool loaded
    elsewhere.ledger.ensure_pool("lab-riches")
    other: PostgresSeller = elsewhere.checkout.seller
    a, b = ledger.create_account(20 * PRICE), ledger.create_account(2 * PRICE)
    seller.sell_batch(LAB_RICHES, [(a, "k1")])
    other.sell_batch(LAB_RICHES, [(a, "elsewhere")])  # the pool moved on meanwhile
    moved = seller.sell_batch(LAB_RICHES, [(a, "k2"), (b, "k3")])
    assert tried == [False] and all(answer is not None for answer in moved)
    assert seller.guesses.claim(ledger.selling.rows()[0].id, 1) is None  # backing off
    short = seller.sell_batch(LAB_RICHES, [(a, "k4"), (b, "k5"), (b, "k6")])
    assert tried == [False]  # sold the long way while backing off: b pays for neither
    assert short[0] is not None and short[1:] == [None, None]
    assert check_books(ledger) == {a.pk: 4, b.pk: 1}


@POSTGRESQL_ONLY
def test_a_batch_signed_ahead_with_a_purchase_not_paid_changes_nothing(
    make_app: Callable[..., FastAPI],
) -> None:
    ledger, seller, tried = signing_ahead(make_app)
    a, b = ledger.create_account(20 * PRICE), ledger.create_account(PRICE)
    seller.sell_batch(LAB_RICHES, [(a, "k1")])
    short = seller.sell_batch(LAB_RICHES, [(a, "k2"), (b, "k3"), (b, "k4")])
    assert tried == [False]  # b covers one of its two: nothing was sold by the guess
    assert short[0] is not None and short[1:] == [None, None]  # b's each bought on its own
    used = seller.sell_batch(LAB_RICHES, [(a, "k1"), (a, "k5")])  # k1 bought before
    assert used[0] is None and used[1] is not None
    assert check_books(ledger) == {a.pk: 3}
    assert ledger.balance(b) == PRICE and ledger.balance(a) == 17 * PRICE
