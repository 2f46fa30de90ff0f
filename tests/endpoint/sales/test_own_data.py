"""The player's own data (sales/own_data.py): GET /api/account/data holds everything kept about
the account, its plays with proofs that check against their pools' roots, and nothing of
another account's. Real databases, sessions, purchases and proofs."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.endpoint.conftest import session
from tests.endpoint.player.test_playtime import purchase
from tests.endpoint.player.test_protections import ask, free_play
from tests.endpoint.player.test_sessions import two_devices


def test_the_download_holds_everything_kept_about_the_account_and_no_other_s(
    app: FastAPI,
) -> None:
    phone, laptop, me = two_devices(app)
    stranger = TestClient(app)
    session(stranger)
    assert purchase(stranger).status_code == 201  # another account's play: not in the download
    first = purchase(phone).json()["play_number"]
    second = purchase(laptop).json()["play_number"]
    done = phone.post(f"/api/plays/{first}/finish", json={"choices": []}).json()
    assert free_play(phone).status_code == 201
    assert phone.put("/api/limits", json={"daily_pence": 2000}).status_code == 200
    assert (
        phone.put("/api/limits", json={"daily_pence": 5000, "weekly_pence": 9000}).status_code
        == 200
    )
    assert ask(laptop, "break", length="1w").status_code == 200
    answer = laptop.get("/api/account/data")
    assert answer.status_code == 200, answer.text
    assert "attachment" in answer.headers["content-disposition"]
    data: dict[str, Any] = answer.json()
    assert data["format"] == "lottery-account-data/1"
    assert data["account"]["id"] == me["account"] and data["account"]["closed_at"] is None
    assert data == phone.get("/api/account/data").json() | {"made_at": data["made_at"]}
    played = {play["play_number"]: play for play in data["plays"]}
    assert sorted(played) == sorted([first, second])
    assert played[first]["status"] == "finished" and played[second]["status"] == "purchased"
    assert played[first]["prize_pence"] == done["prize_pence"]
    for number, play in played.items():
        detail = phone.get(f"/api/plays/{number}").json()
        for key in ("token", "composition", "entry", "proof", "pool", "purchased_at"):
            assert play[key] == (detail[key] if key != "pool" else {
                "id": detail["pool"]["id"], "root": detail["pool"]["root"]
            }), key  # fmt: skip
    assert len(data["free_plays"]) == 1
    kinds = [(row["kind"], row["amount_pence"]) for row in data["transactions"]]
    assert kinds[0] == ("grant", 5000) and kinds.count(("purchase", -300)) == 2
    assert sum(amount for _, amount in kinds) == data["account"]["balance_pence"]
    changes = [(c["period"], c["asked_pence"]) for c in data["limit_changes"]]
    assert changes == [("daily", 2000), ("daily", 5000), ("weekly", 9000)]
    raise_ = data["limit_changes"][1]  # a raise: in force a day after it was asked
    assert raise_["effective_at"] > raise_["asked_at"]
    assert data["limits"]["daily"]["pending"]["limit_pence"] == 5000
    assert data["protections"]["on_break"] and data["protections"]["break_length"] == "1w"
    assert [b["length"] for b in data["breaks_and_exclusions"]] == ["1w"]
    assert data["play_time"]["run_started_at"] is not None
    assert len(data["sign_ins"]) == 2  # the phone's session and the laptop's, by their times
    assert len(data["sign_in_codes"]) == 1 and data["sign_in_codes"][0]["used_at"] is not None
    text = answer.text
    assert "session_id" not in text and "code_hash" not in text  # nothing to sign in with
