"""Test mode's seller (web/endpoint/testmode/seller.py), wrapped around the database's own."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI

from web.endpoint.sales.checkout import Checkout
from web.endpoint.sales.postgres_seller import PostgresSeller
from web.endpoint.sales.sqlite_seller import SqliteSeller
from web.endpoint.testmode.seller import TestModeSeller


def test_test_mode_wraps_the_database_s_seller_and_sells_each_on_its_own(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    checkout: Checkout = make_app(test_mode=True).state.services.checkout
    seller = checkout.seller
    assert isinstance(seller, TestModeSeller) and checkout.batcher is None
    sqlite = not database_url.startswith("postgresql")  # ("": the SQLite file)
    assert type(seller.seller) is (SqliteSeller if sqlite else PostgresSeller)
    assert seller.retries_lost is seller.seller.retries_lost
