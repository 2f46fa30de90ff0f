"""The purchase below the HTTP layer (sales/checkout.py): one seller, chosen at start."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI

from tests.endpoint.conftest import in_own_loop
from web.endpoint.errors import ApiError
from web.endpoint.sales.checkout import Checkout
from web.endpoint.sales.postgres_seller import PostgresSeller
from web.endpoint.sales.sqlite_seller import SqliteSeller


def test_the_database_s_seller_is_chosen_once_and_batches(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    checkout: Checkout = make_app().state.services.checkout
    sqlite = not database_url.startswith("postgresql")  # ("": the SQLite file)
    assert type(checkout.seller) is (SqliteSeller if sqlite else PostgresSeller)
    assert checkout.batcher is not None and checkout.batcher.seller is checkout.seller
    assert checkout.seller.retries_lost is not sqlite  # SQLite's lost file: no retry


def test_the_game_is_resolved_before_any_sale(make_app: Callable[..., FastAPI]) -> None:
    """An unknown game is refused (404) once, at the purchase's edge, before the batcher."""
    app = make_app()
    checkout: Checkout = app.state.services.checkout
    account = app.state.services.accounts.create(1000)
    sold: list[object] = []

    def noted(*args: object) -> list[None]:  # no batch may reach the seller
        sold.append(args)
        return []

    checkout.seller.sell_batch = noted  # type: ignore[method-assign,assignment]

    async def attempt() -> None:
        await checkout.buy(account, "no-such-game", "k1")

    with pytest.raises(ApiError) as refused:
        in_own_loop(attempt)
    assert refused.value.status == 404 and sold == []
