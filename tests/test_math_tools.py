"""`build.py math --json` and the PAR sheet, run in-process."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from engine.math import GAMES, Pool, PoolEntry, load_table, verify_proof
from tools import cmd_math, cmd_pool, par_report


def test_math_json_prints_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert cmd_math.main(["--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in games] == list(GAMES)
    assert games[0]["odds_one_in"] == 2.74 and games[0]["rtp_percent"] == 71.0
    assert games[1]["odds_one_in"] == 2.55 and games[1]["rtp_percent"] == 73.0
    assert games[1]["top_prize_pence"] == 50_000_000
    assert games == [load_table(g).as_json() for g in GAMES]


def test_math_summary_lists_tier_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cmd_math.main([]) == 0
    out = capsys.readouterr().out
    assert "odds 1 in 2.74" in out and "payout 73.00%" in out
    assert "£250,000.00          1  1 in 2,000,000.00" in out


def test_par_report_has_tables_figures_and_plots(tmp_path: Path) -> None:
    path = par_report.write_report(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>")
    for words in ("Lab Riches", "£500K Power Puck Shot", "1 in 2000000/729929 = 1 in 2.74"):
        assert words in text
    assert "73/100 = 73.00%" in text
    assert "meter £250,000.00" in text
    assert "row £5,000.00 (boosts=3 colour=pink)" in text
    assert "DIFFERS" not in text
    assert text.count("No certification report yet") == 2
    pytest.importorskip("matplotlib")
    assert text.count("<svg") == 4


def test_pool_check_prints_an_entry_and_its_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = load_table("lab-riches")
    losing = dataclasses.replace(table.tiers[0], count=600)
    tiers = (losing, dataclasses.replace(table.tiers[1], count=400))
    small = dataclasses.replace(table, base_pool_size=1_000, tiers=tiers)
    pool = Pool.lay_out(small, 1_000)
    pool.save(tmp_path)
    assert cmd_pool.main(["--check", str(tmp_path), "--entry", "999"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["root"] == pool.root.hex() and report["proof_verifies"] is True
    entry = PoolEntry.from_json(report["entry"])
    assert verify_proof(report["root"], entry, report["proof"])


def test_par_report_shows_certified_feature_rates(tmp_path: Path) -> None:
    report = {
        "game": "power-puck-shot",
        "plays": 1000,
        "mismatches": 0,
        "feature_rates": {"bonus_games": 0.125},
        "losing_feature_rates": {"bonus_games": None},
    }
    saved = tmp_path / "elsewhere.json"
    saved.write_text("[build] a bootstrap line\n" + json.dumps(report), encoding="utf-8")
    text = par_report.write_report(tmp_path / "par", [saved]).read_text(encoding="utf-8")
    assert "12.50% (1 in 8.00)" in text
    assert text.count("No certification report yet") == 1
