"""Sessions (web/endpoint/player/sessions.py): log out this device, log out every device, sessions
that end when idle, across processes, and credentials from before sessions had rows.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real credentials.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.endpoint.conftest import Clock, bearer, session
from web.endpoint import recheck, tokens
from web.endpoint.player.sessions import CHECK_MS, session_id
from web.endpoint.store.schema import sessions

WALLET = "/api/wallet"


def two_devices(app: FastAPI) -> tuple[TestClient, TestClient, dict[str, str]]:
    """A phone (a guest session, by cookie) and a laptop signed in to it with a code."""
    phone, laptop = TestClient(app), TestClient(app)
    me = session(phone)
    code = phone.post("/api/account/code").json()["code"]
    assert laptop.post("/api/session", json={"code": code}).status_code == 201
    return phone, laptop, me


def test_logging_out_ends_this_device_s_session_only(app: FastAPI) -> None:
    phone, laptop, me = two_devices(app)
    out = phone.post("/api/session/logout")
    assert out.status_code == 200 and out.json() == {"ended": 1}
    cleared = out.headers["set-cookie"]
    assert (
        cleared.startswith(f"{app.state.services.settings.cookie_name}=") and "Max-Age=0" in cleared
    )
    stolen = TestClient(app).get(WALLET, headers=bearer(me["token"]))  # a copy of it: refused
    assert stolen.status_code == 401 and stolen.json()["error"]["code"] == "unauthenticated"
    assert phone.get(WALLET).status_code == 401
    assert laptop.get(WALLET).status_code == 200
    assert TestClient(app).post("/api/session/logout").status_code == 401


def test_logging_out_every_device_ends_every_session_and_code(app: FastAPI) -> None:
    phone, laptop, me = two_devices(app)
    spare = laptop.post("/api/account/code").json()["code"]  # as a thief might keep one
    out = laptop.post("/api/session/logout-all")
    assert out.status_code == 200 and out.json() == {"ended": 2}
    for device in (phone, laptop, TestClient(app, headers=bearer(me["token"]))):
        assert device.get(WALLET).status_code == 401
    assert TestClient(app).post("/api/session", json={"code": spare}).status_code == 401
    assert TestClient(app).post("/api/session").status_code == 201  # a new guest, as ever


def test_a_logout_in_one_process_is_seen_by_another_within_a_second(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    first, second = make_app(), make_app()
    token = session(TestClient(first))["token"]
    other = TestClient(second, headers=bearer(token))
    assert other.get(WALLET).status_code == 200  # checked, and remembered for a second
    assert TestClient(first, headers=bearer(token)).post("/api/session/logout").status_code == 200
    clock.advance(1.01)
    assert other.get(WALLET).status_code == 401


def test_a_credential_checked_a_moment_ago_is_taken_again_only_as_that_very_text_in_its_life(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    """Within CHECK_MS of a check a credential is taken without its signature checked again:
    only the same text (one with another signature is refused at once), and not once it has
    outlived LOTTERY_SESSION_TTL_SECONDS."""
    app = make_app(session_ttl_seconds=3_600, session_idle_seconds=7_200)
    token = session(TestClient(app))["token"]
    body, mac = token.split(".")
    issued = int(tokens.b64url_decode(body).decode().split(":")[1])
    client = TestClient(app, headers=bearer(token))
    assert client.get(WALLET).status_code == 200  # checked: remembered for CHECK_MS
    forged = f"{body}.{'B' if mac[0] == 'A' else 'A'}{mac[1:]}"
    assert TestClient(app, headers=bearer(forged)).get(WALLET).status_code == 401
    assert client.get(WALLET).status_code == 200
    clock.advance(issued + 3_600 - 0.5 - clock())  # half a second before it expires: checked
    assert client.get(WALLET).status_code == 200
    clock.advance(0.6)  # within CHECK_MS of that check, and expired
    assert client.get(WALLET).status_code == 401


def test_a_session_idle_too_long_ends_and_one_in_use_does_not(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    app = make_app(session_idle_seconds=600)
    busy, idle = TestClient(app), TestClient(app)
    session(busy)
    session(idle)
    for _ in range(4):  # used every 5 minutes: 20 minutes on, still open
        clock.advance(300)
        assert busy.get(WALLET).status_code == 200
    assert idle.get(WALLET).status_code == 401
    clock.advance(601)
    assert busy.get(WALLET).status_code == 401


def test_a_credential_from_before_sessions_had_rows_is_adopted_until_logout_all(
    app: FastAPI, clock: Clock
) -> None:
    """Players signed in before the upgrade stay signed in; logging out every device ends
    their old credentials too."""
    me = session(TestClient(app))
    pk = me["token"]  # the account's internal key, from a credential's signed part
    subject = tokens.b64url_decode(pk.split(".")[0]).decode().split(":")[0]
    secret = (app.state.services.settings.var_dir / "session-secret").read_bytes().strip()
    bound = secret + b"/" + app.state.services.db.instance_id().encode()
    old = tokens.issue_session(bound, subject, int(clock()) - 3600)  # no nonce: as before
    assert TestClient(app, headers=bearer(old)).get(WALLET).status_code == 200
    forged = tokens.issue_session(b"another secret", subject, int(clock()))
    assert TestClient(app, headers=bearer(forged)).get(WALLET).status_code == 401
    assert TestClient(app, headers=bearer(old)).post("/api/session/logout-all").json() == {
        "ended": 2
    }
    again = tokens.issue_session(bound, subject, int(clock()) - 1800)  # never seen before
    assert TestClient(app, headers=bearer(again)).get(WALLET).status_code == 401
    assert TestClient(app, headers=bearer(old)).get(WALLET).status_code == 401


def test_the_log_out_routes_are_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/session/logout", "/api/session/logout-all"):
        assert set(paths[path]) == {"post"} and "401" in paths[path]["post"]["responses"]


def test_sessions_past_their_lifetime_are_pruned_by_the_sweep(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    app = make_app(session_ttl_seconds=3_600, session_idle_seconds=600, sweep_interval_seconds=1)
    old, kept = TestClient(app), TestClient(app)
    session(old)
    clock.advance(3_000)
    session(kept)
    clock.advance(601)  # past the first session's lifetime, not the second's
    assert kept.get(WALLET).status_code == 401  # idle: ended, its row kept until its lifetime
    fresh = TestClient(app)
    session(fresh)
    assert fresh.get(WALLET).status_code == 200  # a request that sweeps
    with app.state.services.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(sessions)).scalar_one() == 2


def test_sessions_checked_together_are_read_again_apart_and_never_past_check_ms(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    """Three sessions checked by a second process at one instant, then logged out through the
    first: each is refused by the second from its own instant on (recheck.due, from its
    session id), not before, within CHECK_MS of the check; the instants differ (before, all
    three were kept exactly CHECK_MS, so read again together)."""
    first, second = make_app(), make_app()
    tokens_ = [session(TestClient(first))["token"] for _ in range(3)]
    checked = int(clock() * 1000) + 1
    clock.now = (checked + 0.5) / 1000
    for token in tokens_:
        assert TestClient(second, headers=bearer(token)).get(WALLET).status_code == 200
    for token in tokens_:
        out = TestClient(first, headers=bearer(token)).post("/api/session/logout")
        assert out.status_code == 200
    due = {t: recheck.due(checked, CHECK_MS, int(session_id(t)[:8], 16)) for t in tokens_}
    assert len(set(due.values())) > 1
    for token in sorted(tokens_, key=due.__getitem__):
        assert checked < due[token] <= checked + CHECK_MS
        device = TestClient(second, headers=bearer(token))
        clock.now = (due[token] - 1 + 0.5) / 1000
        assert device.get(WALLET).status_code == 200  # its check still holds
        clock.now = (due[token] + 0.5) / 1000
        assert device.get(WALLET).status_code == 401  # read again: logged out
