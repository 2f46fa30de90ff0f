"""The player's protections (player/protections.py): a break and self-exclusion stop paid play
and TRY on every device and every process, in the purchase's debit itself; nothing else closes;
bad input changes nothing.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real sessions, purchases and
processes, driven by the test clock.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from tests.endpoint.conftest import Clock, bearer, buy, in_own_loop, session
from tests.endpoint.player.test_playtime import ms, purchase
from tests.endpoint.player.test_sessions import two_devices
from tests.endpoint.sales.test_batch import check_books, endpoint_process
from web.endpoint.errors import ApiError
from web.endpoint.http.services import Services
from web.endpoint.player import limits, protections
from web.endpoint.player.protections import BREAKS, EXCLUSIONS, FOREVER, ends_at
from web.endpoint.store.schema import accounts, plays
from web.endpoint.store.schema import protections as protections_table

HOUR = 3600.0
DAY = 24 * HOUR
GAME = "lab-riches"


def ask(device: TestClient, what: str, **body: Any) -> Any:
    """POST /api/protections/{what} by the device's session cookie."""
    return device.post(f"/api/protections/{what}", json=body)


def stopped(answer: Any, code: str) -> dict[str, Any]:
    """The error of a purchase or free play refused for a protection."""
    assert answer.status_code == 403, answer.text
    error: dict[str, Any] = answer.json()["error"]
    assert error["code"] == code, error
    return error


def free_play(device: TestClient) -> Any:
    """A TRY play of Lab Riches by the device's session cookie."""
    return device.post("/api/try", json={"game": GAME})


def at(iso_text: str) -> datetime:
    return datetime.fromisoformat(iso_text.replace("Z", "+00:00"))


def test_each_length_ends_its_days_or_calendar_months_later() -> None:
    start = round(datetime(2026, 8, 31, 9, 30, tzinfo=UTC).timestamp() * 1000)
    ends = {key: ends_at(start, length) for key, length in {**BREAKS, **EXCLUSIONS}.items()}
    day = 86_400_000
    assert ends["24h"] - start == day and ends["1w"] - start == 7 * day
    assert ends["6w"] - start == 42 * day
    as_dates = {k: datetime.fromtimestamp(v / 1000, UTC) for k, v in ends.items()}
    assert as_dates["1m"] == datetime(2026, 9, 30, 9, 30, tzinfo=UTC)  # no 31 September
    assert as_dates["6m"] == datetime(2027, 2, 28, 9, 30, tzinfo=UTC)
    assert as_dates["1y"] == datetime(2027, 8, 31, 9, 30, tzinfo=UTC)
    assert as_dates["2y"] == datetime(2028, 8, 31, 9, 30, tzinfo=UTC)
    assert as_dates["5y"] == datetime(2031, 8, 31, 9, 30, tzinfo=UTC)
    leap = round(datetime(2028, 2, 29, tzinfo=UTC).timestamp() * 1000)
    assert datetime.fromtimestamp(ends_at(leap, EXCLUSIONS["1y"]) / 1000, UTC).day == 28


def test_a_break_stops_paid_play_and_try_on_every_device_and_nothing_else(
    app: FastAPI, clock: Clock
) -> None:
    phone, laptop, _ = two_devices(app)
    bought = purchase(phone)
    assert bought.status_code == 201, bought.text
    unfinished = bought.json()["play_number"]
    balance = laptop.get("/api/wallet").json()["balance_pence"]
    taken = ask(phone, "break", length="24h")
    assert taken.status_code == 200, taken.text
    state = taken.json()
    assert state["on_break"] and state["break_length"] == "24h" and not state["excluded"]
    ends = ms(state["play_resumes_at"])
    assert ends == int(clock.now * 1000) + 86_400_000
    assert laptop.get("/api/protections").json() == state  # the same on every device
    for device in (phone, laptop):
        error = stopped(purchase(device), "break_taken")
        assert ms(error["until"]) == ends and "until" in error["message"]
        stopped(free_play(device), "break_taken")
    # open: the wallet, My Games, a play's detail, VERIFY, the limits, Account's pages
    assert laptop.get("/api/wallet").json()["balance_pence"] == balance  # nothing charged
    assert phone.get("/api/plays").status_code == 200
    detail = phone.get(f"/api/plays/{unfinished}")
    assert detail.status_code == 200
    verified = phone.post("/api/tokens/verify", json={"token": detail.json()["token"]})
    assert verified.status_code == 200, verified.text
    assert phone.get("/api/limits").status_code == 200
    # an unfinished play still finishes, and its prize is paid
    done = phone.post(f"/api/plays/{unfinished}/finish", json={"choices": []})
    assert done.status_code == 200, done.text
    prize = done.json()["prize_pence"]
    assert laptop.get("/api/wallet").json()["balance_pence"] == balance + prize
    assert phone.get(f"/api/plays/{unfinished}/recall").status_code == 200  # REPLAY
    clock.advance(DAY - 1)  # a second before its end: still refused
    stopped(purchase(laptop), "break_taken")
    clock.advance(1)
    assert purchase(laptop).status_code == 201
    assert free_play(phone).status_code == 201
    assert not phone.get("/api/protections").json()["on_break"]


def test_bad_input_gets_a_clear_answer_and_changes_nothing(app: FastAPI, clock: Clock) -> None:
    phone = TestClient(app)
    session(phone)
    services: Services = app.state.services

    def kept() -> tuple[Any, ...]:
        with services.db.begin() as conn:
            count = conn.execute(select(func.count()).select_from(protections_table)).scalar()
            row = conn.execute(select(*protections.COLUMNS)).one()
        return count, tuple(row)

    def refused(answer: Any, status: int, code: str) -> None:
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code
        assert kept() == before

    before = kept()
    refused(ask(phone, "break", length="2d"), 422, "unknown_length")
    refused(ask(phone, "break", length="6m"), 422, "unknown_length")  # an exclusion's
    refused(ask(phone, "break"), 422, "invalid_request")
    refused(ask(phone, "exclusion", length="1y"), 422, "not_understood")  # no plain words seen
    refused(ask(phone, "exclusion", length="3y", understood=True), 422, "unknown_length")
    refused(ask(phone, "return"), 409, "not_excluded")
    assert ask(phone, "break", length="1w").status_code == 200
    before = kept()
    clock.advance(1)
    refused(ask(phone, "break", length="1w"), 409, "break_running")  # asked twice
    refused(ask(phone, "break", length="24h"), 409, "break_running")  # shorter over longer
    clock.advance(6.5 * DAY)  # half a day of the week left: a day's break lengthens it
    longer = ask(phone, "break", length="24h")
    assert longer.status_code == 200, longer.text
    assert ms(longer.json()["play_resumes_at"]) == int(clock.now * 1000) + 86_400_000
    assert ask(phone, "exclusion", length="6m", understood=True).status_code == 200
    before = kept()
    clock.advance(1)
    refused(ask(phone, "return"), 409, "exclusion_running")  # asked to end early
    refused(ask(phone, "break", length="6w"), 409, "self_excluded")
    refused(ask(phone, "exclusion", length="6m", understood=True), 409, "exclusion_running")
    assert ask(phone, "exclusion", length="1y", understood=True).status_code == 200  # longer


def test_self_exclusion_ends_only_after_its_term_the_asking_and_24_hours(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    year = 365 * 24 * 3600  # (sessions that live through the term, to ask back on them)
    phone, laptop, _ = two_devices(make_app(session_ttl_seconds=year, session_idle_seconds=year))
    ask(phone, "break", length="6w")  # a break first: the exclusion goes over it
    excluded = ask(laptop, "exclusion", length="6m", understood=True)
    assert excluded.status_code == 200, excluded.text
    state = excluded.json()
    term = ms(state["excluded_until"])
    assert state["excluded"] and not state["on_break"] and state["play_resumes_at"] is None
    error = stopped(purchase(phone), "self_excluded")
    assert ms(error["until"]) == term
    stopped(free_play(laptop), "self_excluded")
    clock.now = (term + 1000.5) / 1000  # the term is over: still no play until asked
    error = stopped(purchase(phone), "self_excluded")
    assert error["until"] is None and "ask" in error["message"]
    assert phone.get("/api/protections").json()["can_ask_back"]
    back = ask(phone, "return")
    assert back.status_code == 200, back.text
    resumes = ms(back.json()["play_resumes_at"])
    assert resumes == int(clock.now * 1000) + 86_400_000
    assert ask(laptop, "return").json()["error"]["code"] == "return_asked"
    assert ms(stopped(purchase(laptop), "self_excluded")["until"]) == resumes
    clock.now = (resumes - 1 + 0.5) / 1000
    stopped(purchase(laptop), "self_excluded")
    clock.now = (resumes + 0.5) / 1000
    assert purchase(laptop).status_code == 201
    history = phone.get("/api/account/data").json()["breaks_and_exclusions"]
    assert [(h["kind"], h["length"]) for h in history] == [
        ("break", "6w"), ("exclusion", "6m"), ("return", None)
    ]  # fmt: skip


def test_a_sign_in_code_or_a_new_device_does_not_escape_a_break(app: FastAPI) -> None:
    phone, laptop, _ = two_devices(app)
    code = phone.post("/api/account/code").json()["code"]  # made before the break
    ask(phone, "break", length="1m")
    for made_by in (phone, laptop):
        if made_by is laptop:  # then one made during it
            code = laptop.post("/api/account/code").json()["code"]
        tablet = TestClient(app)
        assert tablet.post("/api/session", json={"code": code}).status_code == 201
        stopped(purchase(tablet), "break_taken")
        stopped(free_play(tablet), "break_taken")
        assert tablet.get("/api/protections").json()["on_break"]


def test_the_debit_refuses_exactly_while_play_is_stopped(make_app: Callable[..., FastAPI]) -> None:
    """The debit's condition (protections.paused in Statements.debit, both databases;
    protections.PG_OPEN, the text of PostgreSQL's sale statements) against `refusal`, for
    paused_until either side of `now`, FOREVER and 0."""
    services: Services = make_app().state.services
    account = services.accounts.create(1000)
    now = services.clock.now_ms()
    cases = []
    with services.db.begin() as conn:
        cursor = conn.connection.cursor()
        for until in (0, now - 1, now, now + 1, now + 86_400_000, FOREVER):
            conn.execute(update(accounts).values(paused_until=until))
            params = {"account": account.pk, **services.playtime.rules.params}
            params |= limits.period_params(now)
            nested = conn.begin_nested()
            debited = services.checkout.sql.debit.value(conn, price=1, **params) is not None
            nested.rollback()
            if not services.db.is_sqlite:
                cursor.execute(
                    f"SELECT {protections.PG_OPEN} FROM accounts WHERE id = %(account)s", params
                )
                assert cursor.fetchone() == (debited,), until
            refused = protections.refusal(protections.State(until, None), now) is not None
            cases.append((until, refused, debited))
    assert [case for case in cases if case[1] is case[2]] == []
    assert [case[0] for case in cases if case[1]] == [now + 1, now + 86_400_000, FOREVER]


def test_two_processes_admitting_purchases_as_a_break_is_taken_sell_none_after_it(
    make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two endpoint processes, a device on each buying in the same instant: both purchases are
    admitted (the real admission) before the break, which is taken while they wait at a
    barrier; their debits come after it and refuse them (403 break_taken): nothing charged,
    no entry drawn, no play."""
    apps = make_app(), make_app()
    clients = [TestClient(app) for app in apps]
    token = session(clients[0])["token"]
    assert buy(clients[0], token).status_code == 201
    breaker = TestClient(apps[1])
    breaker.headers.update(bearer(token))
    taken: list[int] = []

    def take_break() -> None:  # on the second process, while both purchases wait, admitted
        taken.append(breaker.post("/api/protections/break", json={"length": "24h"}).status_code)

    barrier = threading.Barrier(2, action=take_break, timeout=30)

    def admitted_then_wait(admit: Callable[..., Any]) -> Callable[..., Any]:
        def wait(*args: Any) -> Any:
            seen = admit(*args)
            barrier.wait()
            return seen

        return wait

    for app in apps:
        checkout = app.state.services.checkout
        monkeypatch.setattr(checkout, "_admit", admitted_then_wait(checkout._admit))
    answers: list[Any] = [None, None]

    def purchase_on(n: int) -> None:
        answers[n] = buy(clients[n], token)

    threads = [threading.Thread(target=purchase_on, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert taken == [200]
    for answer in answers:
        stopped(answer, "break_taken")
    services: Services = apps[0].state.services
    assert sum(check_books(services).values()) == 1  # the one play before, nothing after
    assert clients[0].get("/api/wallet", headers=bearer(token)).json()["balance_pence"] == 4700


def test_concurrent_purchases_sold_in_batches_skip_an_account_on_a_break(
    make_app: Callable[..., FastAPI],
) -> None:
    """Many purchases at once, gathered into batches (the batch statements on PostgreSQL,
    savepoints on SQLite), by an account whose break began after its purchases were admitted
    (the admission kept for ADMIT_MS) and by one not on a break: only the second's are sold,
    by the debit's own condition."""
    services: Services = make_app().state.services
    checkout = services.checkout
    services.pools.ensure(GAME)
    resting, playing = services.accounts.create(100 * 300), services.accounts.create(100 * 300)
    sizes: list[int] = []
    sell_batch = checkout.seller.sell_batch

    def recorded(game: Any, requests: list[Any]) -> Any:  # the real one, its sizes noted
        sizes.append(len(requests))
        return sell_batch(game, requests)

    checkout.seller.sell_batch = recorded  # type: ignore[method-assign]

    async def attempt(account: Any, key: str) -> dict[str, Any] | ApiError:
        try:
            return await checkout.buy(account, GAME, key)
        except ApiError as error:
            return error

    async def first() -> list[Any]:  # admitted: the admission is kept (the clock stands still)
        return [await attempt(resting, "first"), await attempt(playing, "first")]

    assert all(isinstance(answer, dict) for answer in in_own_loop(first))
    with services.db.begin() as conn:
        protections.take_break(conn, resting.pk, services.clock.now_ms(), "24h")

    async def load() -> list[Any]:
        calls = [attempt(account, f"{n}") for n in range(16) for account in (resting, playing)]
        return await asyncio.gather(*calls)

    answers = in_own_loop(load)
    assert max(sizes) > 1, sizes
    for n, answer in enumerate(answers):
        if n % 2 == 0:
            assert isinstance(answer, ApiError) and answer.code == "break_taken", answer
        else:
            assert isinstance(answer, dict), answer
    assert check_books(services) == {resting.pk: 1, playing.pk: 17}


def test_a_clock_moved_back_does_not_shorten_a_break(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    """The break's end is an absolute time set once by the clock of the process asked: a
    process whose clock is a day behind still refuses until that time, and asking there again
    does not move it earlier."""
    behind = Clock()
    behind.now = clock.now - DAY
    lagging = TestClient(make_app(app_clock=behind))
    token = session(lagging)["token"]  # (issued by its clock: good on both)
    client = TestClient(make_app())
    client.headers.update(bearer(token))
    taken = client.post("/api/protections/break", json={"length": "24h"})
    ends = ms(taken.json()["play_resumes_at"])
    assert ms(stopped(buy(lagging, token), "break_taken")["until"]) == ends
    again = lagging.post("/api/protections/break", json={"length": "24h"}, headers=bearer(token))
    assert again.status_code == 409  # it would end a day earlier there: refused, unchanged
    assert ms(client.get("/api/protections").json()["play_resumes_at"]) == ends
    clock.advance(DAY)
    assert buy(client, token).status_code == 201
    stopped(buy(lagging, token), "break_taken")  # its clock has not reached the end


def test_another_endpoint_process_refuses_paid_play_and_try_during_a_break(
    make_app: Callable[..., FastAPI], database_url: str, tmp_path: Path, pool_dir: Path
) -> None:
    """A real second endpoint (a uvicorn process of its own on the same database): the break
    taken on this one stops purchases and TRY there at once."""
    app = make_app()
    client = TestClient(app)
    token = session(client)["token"]
    assert buy(client, token).status_code == 201  # (the pools committed for the process)
    assert client.post("/api/try", json={"game": GAME}).status_code == 201
    with (
        endpoint_process(tmp_path, pool_dir, database_url) as (_, base),
        httpx.Client(base_url=base, headers=bearer(token), timeout=10) as other,
    ):
        sold = other.post("/api/plays", json={"game": GAME}, headers={"Idempotency-Key": "a"})
        assert sold.status_code == 201, sold.text
        assert client.post("/api/protections/break", json={"length": "6w"}).status_code == 200
        refused = other.post("/api/plays", json={"game": GAME}, headers={"Idempotency-Key": "b"})
        stopped(refused, "break_taken")
        stopped(other.post("/api/try", json={"game": GAME}), "break_taken")
        again = other.post("/api/plays", json={"game": GAME}, headers={"Idempotency-Key": "a"})
        assert again.status_code == 201 and again.json()["token"] == sold.json()["token"]
    with app.state.services.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(plays)).scalar() == 2


def test_the_test_clock_moved_on_ends_a_break_exactly_at_its_end(
    make_app: Callable[..., FastAPI],
) -> None:
    """The test mode's clock (POST /api/test/clock) moves the ledger's clock the debit compares
    the break's end with: a minute short of it, still refused (test mode's seller, the
    SQLAlchemy debit, on either database); at it, sold."""
    client = TestClient(make_app(test_mode=True))
    token = session(client)["token"]
    taken = client.post("/api/protections/break", json={"length": "24h"}).json()
    ends = ms(taken["play_resumes_at"])
    moved = client.post("/api/test/clock", json={"advance_ms": 86_400_000 - 60_000})
    assert moved.status_code == 200, moved.text
    assert ms(stopped(buy(client, token), "break_taken")["until"]) == ends
    stopped(free_play(client), "break_taken")
    client.post("/api/test/clock", json={"advance_ms": 60_000})
    assert buy(client, token).status_code == 201
    assert free_play(client).status_code == 201
