"""Closing an account (sales/closing.py): unfinished plays settled and the balance paid out
first, the ledger kept, every device and sign-in code unlinked, no play sold after. Real
databases, sessions and purchases."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.endpoint.conftest import bearer, buy
from tests.endpoint.player.test_playtime import purchase
from tests.endpoint.player.test_protections import ask
from tests.endpoint.player.test_sessions import two_devices
from web.endpoint.http.services import Services
from web.endpoint.player import limits
from web.endpoint.store.schema import accounts, plays, sessions, sign_in_codes, transactions


def test_closing_settles_pays_out_keeps_the_ledger_and_unlinks_every_device(
    app: FastAPI,
) -> None:
    phone, laptop, me = two_devices(app)
    finished = purchase(phone).json()["play_number"]
    phone.post(f"/api/plays/{finished}/finish", json={"choices": []})
    unfinished = [purchase(laptop).json()["play_number"] for _ in range(3)]
    ask(phone, "break", length="24h")  # on a break: closing is still open
    code = phone.post("/api/account/code").json()["code"]  # unused when the account closes
    services: Services = app.state.services
    for body in ({}, {"confirm": False}, {"confirm": "yes"}):
        refused = phone.post("/api/account/close", json=body)
        assert refused.status_code == 422, refused.text
    before = phone.get("/api/wallet").json()["balance_pence"]
    with services.db.begin() as conn:
        prizes = sum(
            conn.execute(select(plays.c.prize_pence).where(plays.c.play_number.in_(unfinished)))
            .scalars()
        )  # fmt: skip
    closed = phone.post("/api/account/close", json={"confirm": True})
    assert closed.status_code == 200, closed.text
    answer = closed.json()
    assert answer["plays_settled"] == 3 and answer["prizes_pence"] == prizes
    assert answer["paid_out_pence"] == before + prizes
    assert "Max-Age=0" in closed.headers["set-cookie"]  # this device's cookie cleared
    for device in (phone, laptop):  # every device signed out
        assert device.get("/api/wallet").status_code == 401
    assert TestClient(app).get("/api/wallet", headers=bearer(me["token"])).status_code == 401
    assert buy(TestClient(app), me["token"]).status_code == 401
    assert TestClient(app).post("/api/session", json={"code": code}).status_code == 401
    with services.db.begin() as conn:
        account = conn.execute(select(accounts)).first()
        assert account is not None and account.public_id == me["account"]
        assert account.balance_pence == 0 and account.closed_at is not None
        rows = conn.execute(select(plays.c.play_number, plays.c.status, plays.c.finished_by))
        assert {(r.play_number, r.status, r.finished_by) for r in rows} >= {
            (n, "finished", "closed") for n in unfinished
        }
        ledger = conn.execute(
            select(transactions.c.kind, transactions.c.amount_pence).where(
                transactions.c.account_id == account.id
            )
        ).all()
        assert ("closure", -(before + prizes)) in ledger and len(ledger) >= 1 + 4 + 1
        assert sum(amount for _, amount in ledger) == 0  # the ledger still adds up
        assert conn.execute(select(sessions)).first() is None  # no device linked
        assert conn.execute(select(sign_in_codes)).first() is None
    # a purchase by the closed account, had any credential survived, is refused by the debit
    with services.db.begin() as conn:
        params = {"account": account.id, "price": 1, **services.playtime.rules.params}
        params |= limits.period_params(services.clock.now_ms())
        assert services.checkout.sql.debit.value(conn, **params) is None
