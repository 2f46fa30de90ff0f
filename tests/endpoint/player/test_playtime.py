"""Play time (player/playtime.py): the log-out after a run of play with its cooling-off,
and the reality check, for an account on two devices, driven by the test clock.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real sessions and purchases.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Connection, delete, insert, select

from tests.endpoint.conftest import Clock, bearer, buy, session
from tests.endpoint.player.test_sessions import two_devices
from tests.endpoint.sales.test_batch import check_books
from web.endpoint import recheck
from web.endpoint.http.services import Services
from web.endpoint.player import limits, playtime
from web.endpoint.player.playtime import TOUCH_MS, Row, Rules
from web.endpoint.sales.checkout import ADMIT_MS
from web.endpoint.settings import Settings
from web.endpoint.store.schema import play_time as play_time_table

MINUTE = 60.0


def purchase(device: TestClient, key: str = "") -> httpx2.Response:
    """A paid play of Lab Riches, by the device's session cookie."""
    headers = {"Idempotency-Key": key or secrets.token_hex(8)}
    return device.post("/api/plays", json={"game": "lab-riches"}, headers=headers)


def play_time(device: TestClient) -> dict[str, object]:
    """The account's play time as the wallet says it."""
    answer = device.get("/api/wallet")
    assert answer.status_code == 200, answer.text
    found: dict[str, object] = answer.json()["play_time"]
    assert found == device.get("/api/play-time").json()
    return found


def ms(text: object) -> int:
    """An ISO time of the API in epoch milliseconds."""
    assert isinstance(text, str)
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def test_after_an_hour_of_play_every_device_is_refused_paid_plays_for_the_cooling_off(
    app: FastAPI, clock: Clock
) -> None:
    phone, laptop, _ = two_devices(app)
    assert play_time(phone)["run_started_at"] is None  # no play yet: no run
    first = purchase(phone)
    assert first.status_code == 201, first.text
    began = ms(play_time(laptop)["run_started_at"])  # the laptop sees the phone's run
    told = first.json()["play_time"]  # the purchase's answer says its play time too
    assert told == play_time(phone) and ms(told["now"]) == began
    assert ms(told["logout_at"]) == began + 60 * 60_000
    unfinished = 0
    for n in range(6):  # a paid play every 9 minutes, from either device: one run of play
        clock.advance(9 * MINUTE)
        bought = purchase(laptop if n % 2 else phone)
        assert bought.status_code == 201, (n, bought.text)
        unfinished = bought.json()["play_number"]
    assert ms(play_time(phone)["run_started_at"]) == began  # 54 minutes of play
    clock.advance(6 * MINUTE)  # 60 minutes since the run began: logged out of play
    for device in (phone, laptop):
        refused = purchase(device)
        assert refused.status_code == 403, refused.text
        error = refused.json()["error"]
        assert error["code"] == "cooling_off"
        assert ms(error["resumes_at"]) == began + 70 * 60_000  # ten minutes' cooling-off
        state = play_time(device)
        assert state["cooling_off"] is True and state["resumes_at"] == error["resumes_at"]
    balance = phone.get("/api/wallet").json()["balance_pence"]
    # The unfinished play still finishes on either device, is recalled, and TRY stays open.
    done = laptop.post(f"/api/plays/{unfinished}/finish", json={})
    assert done.status_code == 200, done.text
    assert done.json()["balance_pence"] == balance + done.json()["prize_pence"]
    assert phone.get(f"/api/plays/{unfinished}/recall").status_code == 200
    assert phone.post("/api/try", json={"game": "lab-riches"}).status_code == 201
    clock.advance(10 * MINUTE - 1)
    assert purchase(laptop).json()["error"]["code"] == "cooling_off"
    clock.advance(1)  # the cooling-off is over: a new run of play begins
    assert purchase(laptop).status_code == 201
    state = play_time(phone)
    assert state["cooling_off"] is False and ms(state["run_started_at"]) > began


def test_a_break_as_long_as_the_play_break_begins_a_new_run(app: FastAPI, clock: Clock) -> None:
    phone, laptop, _ = two_devices(app)
    assert purchase(phone).status_code == 201
    began = ms(play_time(phone)["run_started_at"])
    clock.advance(10 * MINUTE - 1)  # a gap just short of the break: the same run
    assert purchase(laptop).status_code == 201
    assert ms(play_time(phone)["run_started_at"]) == began
    clock.advance(10 * MINUTE)  # a break of ten minutes: the next play begins a new run
    assert play_time(phone)["run_started_at"] is None
    assert purchase(phone).status_code == 201
    assert ms(play_time(laptop)["run_started_at"]) == began + 20 * 60_000 - 1000
    for _ in range(7):  # the new run's hour goes on past when the first one's would have ended
        clock.advance(8 * MINUTE)
        assert purchase(laptop).status_code == 201
    clock.advance(4 * MINUTE)
    assert purchase(phone).json()["error"]["code"] == "cooling_off"


def test_play_after_play_writes_the_run_s_last_play_only_once_it_is_a_while_old(
    app: FastAPI, clock: Clock
) -> None:
    """A player buying play after play costs the database no write of the run each time: the
    last play is written again once it is TOUCH_MS old (so a break is measured to within it)."""
    phone, laptop, _ = two_devices(app)
    db = app.state.services.db

    def last_play() -> int:
        with db.begin() as conn:
            return int(conn.execute(select(play_time_table.c.last_play_at)).scalar_one())

    assert purchase(phone).status_code == 201
    first = last_play()
    for n in range(4):  # four more within TOUCH_MS of it, from either device: not written
        clock.advance(2)
        assert purchase(laptop if n % 2 else phone).status_code == 201
    assert last_play() == first
    clock.advance(TOUCH_MS / 1000 - 8)  # the last play written is TOUCH_MS old now
    assert purchase(phone).status_code == 201
    assert last_play() == first + TOUCH_MS


def test_play_after_play_is_admitted_by_one_read_a_second_and_still_logged_out_on_time(
    app: FastAPI, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The admission (cooling-off, required limits) read for a purchase admits the account's
    purchases until the account's next instant (recheck.due: within ADMIT_MS) without reading
    again; the log-out still comes at its minute, judged from the row read and the clock at
    each purchase."""
    phone, _, _ = two_devices(app)
    reads: list[dict[str, object]] = []
    admission = app.state.services.checkout.sql.admission  # the real statement, its reads counted
    read = admission.row

    def counted(conn: Connection, **values: object) -> object:
        reads.append(values)
        return read(conn, **values)

    monkeypatch.setattr(admission, "row", counted)
    start = clock()
    for _ in range(2):  # the first begins the run (written); the second reads it
        assert purchase(phone).status_code == 201
        clock.advance(0.1)
    pk = reads[-1]["account"]  # the account's pk, as the admission read it
    assert isinstance(pk, int)
    read_at = int((start + 0.1) * 1000)
    due = recheck.due(read_at, ADMIT_MS, pk)  # the account's next instant: within ADMIT_MS
    assert read_at < due <= read_at + ADMIT_MS
    reads.clear()
    for at in sorted({read_at + 1, (read_at + due) // 2, due - 1}):  # admitted without a read
        clock.now = (at + 0.5) / 1000
        assert purchase(phone).status_code == 201
    assert reads == []
    clock.now = (due + 0.5) / 1000
    assert purchase(phone).status_code == 201
    assert len(reads) == 1
    clock.now = start + 1.7  # (as before: 1.7 s after the first purchase)
    for _ in range(6):  # on to the hour, a paid play every 9 minutes
        clock.advance(9 * MINUTE)
        assert purchase(phone).status_code == 201
    clock.advance(6 * MINUTE - 1.7 - 1.0)  # a second before the hour: read, and written
    assert purchase(phone).status_code == 201
    clock.advance(0.4)  # read again (the write let it go), not written (TOUCH_MS): kept
    assert purchase(phone).status_code == 201
    clock.advance(0.8)  # past the hour, within ADMIT_MS of that read: refused all the same
    assert purchase(phone).json()["error"]["code"] == "cooling_off"


def test_two_processes_admitting_purchases_just_before_the_log_out_sell_none_after_it(
    make_app: Callable[..., FastAPI], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two endpoint processes on one database, a purchase on each: both are admitted a
    millisecond before the account's log-out, and both debits come after it (each purchase,
    once admitted by the real admission, waits at a barrier whose action moves the clock past
    the log-out when both have been). The debit itself refuses them (403 cooling_off, as the
    admission would): nothing charged, no entry drawn, no play; a purchase debited 2 ms
    before the log-out is still sold."""
    apps = make_app(), make_app()
    endpoints: list[Services] = [app.state.services for app in apps]
    clients = [TestClient(app) for app in apps]
    token = session(clients[0])["token"]
    first = buy(clients[0], token)
    assert first.status_code == 201, first.text
    logout = ms(first.json()["play_time"]["logout_at"])
    for n in range(6):  # a paid play every 9 minutes, on either process: one run of play
        clock.advance(9 * MINUTE)
        assert buy(clients[n % 2], token).status_code == 201
    clock.now = (logout - 2 + 0.5) / 1000  # debited 2 ms before the log-out: sold (on a
    third = TestClient(make_app())  # third process, so the two below read their admission)
    assert buy(third, token).status_code == 201
    clock.now = (logout - 1 + 0.5) / 1000
    barrier = threading.Barrier(2, action=lambda: clock.advance(0.002), timeout=30)

    def admitted_then_wait(admit: Callable[..., Any]) -> Callable[..., Any]:
        def wait(*args: Any) -> Any:
            seen = admit(*args)  # the real admission (its read's transaction over)
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
    assert endpoints[0].clock.now_ms() == logout + 1  # both admitted at logout - 1, debited after
    for answer in answers:
        assert answer.status_code == 403, answer.text
        error = answer.json()["error"]
        assert error["code"] == "cooling_off"
        assert ms(error["resumes_at"]) == logout + 10 * 60_000
    wallet = clients[0].get("/api/wallet", headers=bearer(token)).json()
    assert wallet["balance_pence"] == 5000 - 8 * 300  # the eight plays sold, no more
    assert sum(check_books(endpoints[0]).values()) == 8  # no entry drawn, no play, no debit


def test_the_debit_refuses_a_purchase_exactly_when_the_run_is_logged_out(
    make_app: Callable[..., FastAPI],
) -> None:
    """The debit's log-out test (playtime.logged_out in Statements.debit, both databases;
    playtime.PG_PLAYING, the text of PostgreSQL's sale statements) against `run_at`'s rule,
    on rows and times either side of each of its boundaries: the log-out, the end of the
    cooling-off, the break ending the run first; with each protection turned off (0)."""
    services: Services = make_app().state.services
    account = services.accounts.create(1000)
    session, cooling, brk = 3_600_000, 600_000, 600_000
    rule_sets = [
        Rules(session, cooling, brk, 0),
        Rules(0, cooling, brk, 0),  # no log-out
        Rules(session, 0, brk, 0),  # no cooling-off
        Rules(session, cooling, 1, 0),  # a break of a millisecond
    ]
    start = services.clock.now_ms()
    lasts = {0, 1, session - brk - 1, session - brk, session - brk + 1, session - 1, session}
    nows = {0, session - 1, session, session + 1, session + cooling - 1, session + cooling}
    nows |= {last + brk + d for last in lasts for d in (-1, 0)}
    cases: list[tuple[Rules, int | None, int, bool, bool]] = []
    with services.db.begin() as conn:
        cursor = conn.connection.cursor()
        for rules in rule_sets:
            for last in [*sorted(lasts), None]:  # None: no play_time row
                conn.execute(delete(play_time_table))
                row = None if last is None else Row(start, start + last, start)
                if row is not None:
                    conn.execute(
                        insert(play_time_table).values(account_id=account.pk, **row._asdict())
                    )
                for now in sorted(nows):
                    params = {"account": account.pk, **rules.params}
                    params |= limits.period_params(start + now)
                    nested = conn.begin_nested()
                    debited = services.checkout.sql.debit.value(conn, price=1, **params) is not None
                    nested.rollback()
                    if not services.db.is_sqlite:  # PostgreSQL: the sale statements' text
                        cursor.execute(f"SELECT {playtime.PG_PLAYING}", params)
                        assert cursor.fetchone() == (debited,), (rules, last, now)
                    refused = playtime.refused(row, rules, start + now) is not None
                    cases.append((rules, last, now, refused, debited))
    assert [case for case in cases if case[3] is case[4]] == []  # refused exactly then
    assert 0 < sum(case[3] for case in cases) < len(cases) // 2


def test_a_retry_of_a_purchase_made_before_the_log_out_answers_that_purchase(
    app: FastAPI, clock: Clock
) -> None:
    phone, _, _ = two_devices(app)
    key = secrets.token_hex(8)
    first = purchase(phone, key)
    for _ in range(6):
        clock.advance(9 * MINUTE)
        assert purchase(phone).status_code == 201
    clock.advance(6 * MINUTE)
    again = purchase(phone, key)
    assert again.status_code == 201 and again.json()["token"] == first.json()["token"]
    assert purchase(phone).json()["error"]["code"] == "cooling_off"


def test_the_reality_check_is_due_every_20_minutes_of_play_on_every_device(
    app: FastAPI, clock: Clock
) -> None:
    phone, laptop, _ = two_devices(app)
    assert play_time(phone)["reality_check_at"] is None  # no play, no check
    assert purchase(phone).status_code == 201
    began = ms(play_time(phone)["run_started_at"])
    assert ms(play_time(laptop)["reality_check_at"]) == began + 20 * 60_000
    assert play_time(laptop)["reality_check_seconds"] == 1200
    early = laptop.post("/api/play-time/reality-check")  # not due yet: nothing moves
    assert early.status_code == 200 and ms(early.json()["reality_check_at"]) == began + 1_200_000
    for device in (laptop, phone):
        clock.advance(9 * MINUTE)
        assert purchase(device).status_code == 201
    clock.advance(3 * MINUTE)  # 21 minutes of play: due; seen and acknowledged on the laptop
    seen = laptop.post("/api/play-time/reality-check")
    assert seen.status_code == 200
    assert ms(seen.json()["reality_check_at"]) == began + 41 * 60_000
    assert play_time(phone)["reality_check_at"] == seen.json()["reality_check_at"]
    assert phone.post("/api/play-time/reality-check").json() == seen.json()  # once, not twice


def test_each_protection_is_an_operator_setting_and_zero_turns_it_off(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    defaults = Settings.from_env({})
    assert (defaults.play_session_seconds, defaults.cooling_off_seconds) == (3600, 600)
    assert (defaults.play_break_seconds, defaults.reality_check_seconds) == (600, 1200)
    # the values before: no log-out, no cooling-off, a reality check each hour
    before = Settings.from_env(
        {
            "LOTTERY_PLAY_SESSION_SECONDS": "0",
            "LOTTERY_COOLING_OFF_SECONDS": "0",
            "LOTTERY_REALITY_CHECK_SECONDS": "3600",
        }
    )
    assert (before.play_session_seconds, before.reality_check_seconds) == (0, 3600)
    for wrong in ({"LOTTERY_PLAY_BREAK_SECONDS": "0"}, {"LOTTERY_COOLING_OFF_SECONDS": "-1"}):
        with pytest.raises(ValueError, match="LOTTERY_"):
            Settings.from_env(wrong)
    phone, _, _ = two_devices(make_app(play_session_seconds=0, reality_check_seconds=0))
    for _ in range(15):  # two hours of play without a break: never logged out, never checked
        assert purchase(phone).status_code == 201
        clock.advance(8 * MINUTE)
    state = play_time(phone)
    assert state["logout_at"] is None and state["reality_check_at"] is None
