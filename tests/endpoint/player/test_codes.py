"""One-time sign-in codes (player/codes.py): stored so a copy of the database gives none
away, the newest only, and (below) their wrong tries counted per code across processes.

Real databases (SQLite, and PostgreSQL from DATABASE_URL), real HTTP.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from alembic import command
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

from tests.endpoint.conftest import Clock, bearer, buy, schema_at, serve, session
from tests.endpoint.relay import Relay
from web.endpoint.errors import ApiError
from web.endpoint.player.codes import CODE_ALPHABET, CODE_TTL_MS, MAX_WRONG_TRIES
from web.endpoint.settings import Settings
from web.endpoint.store.database import Database
from web.endpoint.store.schema import accounts, sessions, sign_in_codes
from web.endpoint.times import iso


def stored_hashes(app: FastAPI) -> list[str]:
    """Every code hash the database holds."""
    with app.state.services.db.begin() as conn:
        return list(conn.execute(select(sign_in_codes.c.code_hash)).scalars().all())


def test_only_the_newest_code_works_and_a_database_copy_gives_none_away(app: FastAPI) -> None:
    """The stored hash is an HMAC under a key derived from the session secret (outside the
    database), not the SHA-256 anyone can recompute for all 2**40 codes."""
    phone = TestClient(app)
    session(phone)
    first = phone.post("/api/account/code").json()["code"]
    second = phone.post("/api/account/code").json()["code"]
    plain = second.replace("-", "").encode()
    (found,) = stored_hashes(app)
    assert found != hashlib.sha256(plain).hexdigest()
    secret = (app.state.services.settings.var_dir / "session-secret").read_bytes().strip()
    bound = secret + b"/" + app.state.services.db.instance_id().encode()
    key = hmac.new(bound, b"sign-in codes", hashlib.sha256).digest()
    assert found == hmac.new(key, plain, hashlib.sha256).hexdigest()
    assert TestClient(app).post("/api/session", json={"code": first}).status_code == 401
    assert TestClient(app).post("/api/session", json={"code": second}).status_code == 201


def test_codes_stored_as_plain_sha256_are_dropped_by_the_migration(
    make_app: Callable[..., FastAPI], database_url: str, tmp_path: Path
) -> None:
    """A database of an older version (revision 0004) holding a code as its plain SHA-256:
    the upgrade deletes it (it could never match again), and the code signs nobody in."""
    url = database_url or f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Database(Settings(database_url=url).db_url)
    schema_at(old, "0004")
    with old.begin() as conn:
        pk = conn.execute(
            insert(accounts)
            .values(public_id="old", created_at=0, balance_pence=5_000)
            .returning(accounts.c.id)
        ).scalar_one()
        conn.execute(
            insert(sign_in_codes).values(
                code_hash=hashlib.sha256(b"ABCDEFGH").hexdigest(),
                account_id=pk,
                created_at=0,
                expires_at=2**62,
            )
        )
    old.dispose()
    app = make_app(database_url=url)  # migrated to the newest revision as it starts
    assert stored_hashes(app) == []
    answer = TestClient(app).post("/api/session", json={"code": "ABCD-EFGH"})
    assert answer.status_code == 401


def test_the_newest_revisions_go_down_and_up_again(app: FastAPI) -> None:
    schema_at(app.state.services.db, "0004", command.downgrade)
    schema_at(app.state.services.db, "head")
    assert TestClient(app).post("/api/session").status_code == 201


def wrong_like(code: str, n: int) -> str:
    """Another code of the same first three characters (the part that names the code)."""
    plain = code.replace("-", "")
    tail = "".join(CODE_ALPHABET[(CODE_ALPHABET.index(c) + n) % 32] for c in plain[3:])
    return f"{plain[:3]}{tail}"


def test_a_few_wrong_tries_end_the_code_from_any_address_and_process(
    make_app: Callable[..., FastAPI],
) -> None:
    """Five wrong codes aimed at one code, from five addresses through two processes on one
    database, end it: the right code is refused after them, and another account's is not."""
    first, second = make_app(), make_app()
    phone, other = TestClient(first), TestClient(first)
    session(phone)
    session(other)
    code = phone.post("/api/account/code").json()["code"]
    theirs = other.post("/api/account/code").json()["code"]
    for n in range(1, MAX_WRONG_TRIES + 1):
        app = first if n % 2 else second
        guesser = TestClient(app, client=(f"198.51.100.{n}", 40000 + n))
        wrong = guesser.post("/api/session", json={"code": wrong_like(code, n)})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "invalid_code"
    late = TestClient(second).post("/api/session", json={"code": code})
    assert late.status_code == 401 and late.json()["error"]["code"] == "invalid_code"
    assert TestClient(first).post("/api/session", json={"code": theirs}).status_code == 201
    again = phone.post("/api/account/code").json()["code"]  # the player asks for a new one
    assert TestClient(second).post("/api/session", json={"code": again}).status_code == 201


def test_fewer_wrong_tries_leave_the_code_working(app: FastAPI) -> None:
    phone = TestClient(app)
    session(phone)
    code = phone.post("/api/account/code").json()["code"]
    for n in range(1, MAX_WRONG_TRIES):
        assert TestClient(app).post("/api/session", json={"code": wrong_like(code, n)}).is_error
    assert TestClient(app).post("/api/session", json={"code": code}).status_code == 201


def test_concurrent_code_requests_leave_exactly_one_valid_code(app: FastAPI) -> None:
    """20 POST /api/account/code at once (PostgreSQL: each in a thread of its own): asking
    again replaces the unused code, so one code is left, and only it signs in."""
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        token = http.post("/api/session").json()["token"]
        made: list[str] = []
        barrier = threading.Barrier(20)

        def ask() -> None:
            with httpx.Client(base_url=base, timeout=30) as own:
                barrier.wait()
                answer = own.post("/api/account/code", headers=bearer(token))
            assert answer.status_code == 201, answer.text
            made.append(answer.json()["code"])

        threads = [threading.Thread(target=ask) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(made) == 20
        with app.state.services.db.begin() as conn:
            unused = conn.execute(
                select(func.count())
                .select_from(sign_in_codes)
                .where(sign_in_codes.c.used_at.is_(None))
            ).scalar_one()
        assert unused == 1
        signed = [http.post("/api/session", json={"code": c}).status_code for c in made]
        assert sorted(signed) == [201] + [401] * 19


def test_codes_past_their_expiry_are_deleted_by_the_sweep(
    make_app: Callable[..., FastAPI], clock: Clock
) -> None:
    """Used and unused alike, once expired a code can sign nobody in: its row goes (before,
    every code ever made stayed in the table)."""
    app = make_app(sweep_interval_seconds=1)
    used, unused, live = TestClient(app), TestClient(app), TestClient(app)
    for client in (used, unused, live):
        session(client)
    code = used.post("/api/account/code").json()["code"]
    assert TestClient(app).post("/api/session", json={"code": code}).status_code == 201
    unused.post("/api/account/code")
    clock.advance(CODE_TTL_MS / 1000 - 60)
    kept = live.post("/api/account/code").json()["code"]
    clock.advance(120)  # the first two expired, the third has 8 minutes left
    assert len(stored_hashes(app)) == 3
    assert live.get("/api/wallet").status_code == 200  # a request that sweeps
    assert len(stored_hashes(app)) == 1
    assert TestClient(app).post("/api/session", json={"code": kept}).status_code == 201


def test_a_code_signs_the_account_in_once(app: FastAPI, clock: Clock) -> None:
    phone, laptop = TestClient(app), TestClient(app)
    me = session(phone)
    buy(phone, me["token"])
    made = phone.post("/api/account/code")
    assert made.status_code == 201
    code = made.json()["code"]
    assert len(code) == 9 and code[4] == "-"
    assert all(c in "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" for c in code.replace("-", ""))
    assert made.json()["expires_at"] == iso(int(clock() * 1000) + 600_000)
    signed = laptop.post("/api/session", json={"code": code.lower()})
    assert signed.status_code == 201
    assert signed.json()["account"] == me["account"] and signed.json()["balance_pence"] == 4_700
    assert laptop.get("/api/wallet").json()["balance_pence"] == 4_700  # the cookie works
    assert [p["play_number"] for p in laptop.get("/api/plays").json()["plays"]]
    used = TestClient(app).post("/api/session", json={"code": code})
    assert used.status_code == 401 and used.json()["error"]["code"] == "invalid_code"
    with app.state.services.db.begin() as conn:
        stored = conn.execute(select(func.count()).select_from(accounts)).scalar_one()
        assert stored == 1
    late = phone.post("/api/account/code").json()["code"]
    clock.advance(601)
    assert TestClient(app).post("/api/session", json={"code": late}).status_code == 401
    for junk in ("", "AAAA-AAAA", "x" * 32):
        assert TestClient(app).post("/api/session", json={"code": junk}).status_code == 401
    assert TestClient(app).post("/api/session", json={"cod": "x"}).status_code == 422
    fresh = TestClient(app).post("/api/session")
    assert fresh.status_code == 201 and fresh.json()["account"] != me["account"]
    assert TestClient(app).post("/api/account/code").status_code == 401


def test_code_attempts_are_rate_limited(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(rate_per_second=0.001, rate_burst=3)
    client = TestClient(app)
    answers = [
        client.post("/api/session", json={"code": "AAAA-AAAA"}).status_code for _ in range(4)
    ]
    assert answers == [401, 401, 401, 429]


def refuse_session_rows(app: FastAPI) -> Callable[[], None]:
    """Make every new session's row fail in the database itself, after the code's UPDATE:
    PostgreSQL's connection is lost (the trigger ends its own backend, as a failover or a
    pg_terminate_backend would), SQLite's INSERT is refused. Returns what undoes it."""
    db = app.state.services.db
    with db.begin() as conn:
        if db.is_sqlite:
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON sessions BEGIN"
                " SELECT RAISE(ABORT, 'no session row'); END"
            )
        else:
            conn.exec_driver_sql(
                "CREATE FUNCTION lose() RETURNS trigger LANGUAGE plpgsql AS"
                " $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$"
            )
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON sessions"
                " FOR EACH ROW EXECUTE FUNCTION lose()"
            )

    def undo() -> None:
        with db.begin() as conn:
            conn.exec_driver_sql("DROP TRIGGER refuse" + ("" if db.is_sqlite else " ON sessions"))

    return undo


def test_a_code_is_not_spent_when_its_session_s_row_cannot_be_written(app: FastAPI) -> None:
    """The code's use and its session's row are one transaction: the connection lost (or the
    INSERT refused) after the code was marked used leaves the code unused and no session, so
    the same code signs the player in once the database is back."""
    phone = TestClient(app)
    me = session(phone)
    code = phone.post("/api/account/code").json()["code"]
    undo = refuse_session_rows(app)
    laptop = TestClient(app, raise_server_exceptions=False)
    failed = laptop.post("/api/session", json={"code": code})
    assert failed.status_code in (500, 503), failed.text  # 503: lost on every try
    with app.state.services.db.begin() as conn:
        unused = conn.execute(
            select(func.count()).select_from(sign_in_codes).where(sign_in_codes.c.used_at.is_(None))
        ).scalar_one()
        rows = conn.execute(select(func.count()).select_from(sessions)).scalar_one()
    assert (unused, rows) == (1, 1)  # the code as it was; the phone's session only
    undo()
    signed = laptop.post("/api/session", json={"code": code})
    assert signed.status_code == 201 and signed.json()["account"] == me["account"]
    assert laptop.get("/api/wallet").status_code == 200
    assert TestClient(app).post("/api/session", json={"code": code}).status_code == 401


def test_a_code_s_second_try_after_a_lost_answer_finds_its_own_session(app: FastAPI) -> None:
    """`SignInCodes.sign_in` tried again with the same drawn session after a try whose commit
    went through (as `Database.again` does when the answer was lost): the same account, balance
    and credential, and no second session; another draw (another caller) gets 401."""
    phone = TestClient(app)
    me = session(phone)
    code = phone.post("/api/account/code").json()["code"]
    services = app.state.services
    devices = services.sessions
    drawn = devices.draw()
    first = services.codes.sign_in(code, devices, drawn)
    again = services.codes.sign_in(code, devices, drawn)
    assert again == first and again[0].public_id == me["account"]
    with services.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(sessions)).scalar_one() == 2
    with pytest.raises(ApiError) as other:
        services.codes.sign_in(code, devices, devices.draw())
    assert other.value.status == 401
    assert TestClient(app).get("/api/wallet", headers=bearer(again[2])).status_code == 200


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # a link to lose
def test_a_code_whose_commit_answer_was_lost_still_signs_the_player_in(
    make_app: Callable[..., FastAPI], relayed: tuple[Relay, str]
) -> None:
    """The connection lost after the sign-in's COMMIT reached the server: the route's retry
    finds the code used by its own first try and answers its session, not 401."""
    relay, url = relayed
    app = make_app(database_url=url)
    phone = TestClient(app)
    me = session(phone)
    code = phone.post("/api/account/code").json()["code"]
    laptop = TestClient(app)
    relay.lose_commit_answer()
    signed = laptop.post("/api/session", json={"code": code})
    assert signed.status_code == 201, signed.text
    assert signed.json()["account"] == me["account"]
    assert laptop.get("/api/wallet").status_code == 200  # its cookie names a real session
    with app.state.services.db.begin() as conn:
        assert conn.execute(select(func.count()).select_from(sessions)).scalar_one() == 2
    assert TestClient(app).post("/api/session", json={"code": code}).status_code == 401
