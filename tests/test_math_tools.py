"""`build.py math --json` and the PAR sheet, run in-process."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from engine.games import GAMES, get, ids, load_table
from engine.math.leaves import PoolEntry, verify_proof
from engine.power_puck_shot import stats
from tools.audit import par_report
from tools.commands import books as cmd_books
from tools.commands import certify as cmd_certify
from tools.commands import math as cmd_math
from tools.commands import pool as cmd_pool
from web.endpoint.pools import files


def test_math_json_prints_every_registered_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cmd_math.main(["--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in games] == list(ids())
    assert games[0]["odds_one_in"] == 2.74 and games[0]["rtp_percent"] == 71.0
    assert games[1]["odds_one_in"] == 2.55 and games[1]["rtp_percent"] == 73.0
    assert games[1]["top_prize_pence"] == 50_000_000
    assert games == [game.table.as_json() for game in GAMES]


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
    assert text.count("No certification report yet") == len(GAMES)
    pytest.importorskip("matplotlib")
    assert text.count("<svg") == 2 * len(GAMES)


def test_pool_check_prints_an_entry_and_its_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = load_table("lab-riches")
    losing = dataclasses.replace(table.tiers[0], count=600)
    tiers = (losing, dataclasses.replace(table.tiers[1], count=400))
    small = dataclasses.replace(table, base_pool_size=1_000, tiers=tiers)
    pool = files.lay_out(small, 1_000)
    files.save(pool, tmp_path)
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


def test_books_and_certify_offer_the_games_that_build_books() -> None:
    assert cmd_books.with_books() == tuple(g.id for g in GAMES if g.build_book is not None)
    with pytest.raises(SystemExit):
        cmd_books.parse(["--game", "roulette", "--plays", "1", "--json"], "build.py certify")


def test_books_reads_a_saved_pool(tmp_path: Path) -> None:
    table = load_table("lab-riches")
    tiers = (dataclasses.replace(table.tiers[0], count=7), table.tiers[-1])
    small = dataclasses.replace(table, base_pool_size=8, tiers=tiers)
    pool = files.lay_out(small, 8, key=bytes(32))
    files.save(pool, tmp_path / "pool")
    out = tmp_path / "books.jsonl"
    argv = ["--game", "lab-riches", "--plays", "8", "--pool", str(tmp_path / "pool")]
    assert cmd_books.main([*argv, "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["entry"] for line in lines] == [pool.entry(i).to_json() for i in range(8)]
    prizes = sorted(line["book"]["events"][-1]["total"] for line in lines)
    assert prizes == [0] * 7 + [table.top_prize_pence]


def test_certify_checks_every_composition_and_the_paths_of_the_arrows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--game", "power-puck-shot", "--plays", "200", "--per-composition", "2"]
    assert cmd_certify.main([*argv, "--key", "00" * 32, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["mismatches"], report["violations"]) == (0, 0)
    compositions = sum(len(t.compositions) for t in load_table("power-puck-shot").tiers)
    assert report["per_composition"] == {
        "compositions": compositions,
        "books": 2 * compositions,
        "mismatches": 0,
        "violations": 0,
    }
    assert set(report["feature_rates"]) >= {"bonus_games", "row_one_short", "prize_pucks_5"}


def test_certify_validates_with_the_player_s_choices() -> None:
    game = get("power-puck-shot")
    validate = cmd_certify.checker(game, bytes(32))
    composition = load_table(game.id).tiers[0].compositions[0][0]
    book = json.loads(game.book(game.table.model, composition, bytes(16)).to_json())
    assert validate(book) == []
    first_shot = next(e for e in book["events"] if e["type"] == "shot")
    first_shot["reveals"] = first_shot["reveals"] * 20  # more pips than any path can pass
    assert validate(book) != []


def test_certify_counts_the_random_plays_drawn_again(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "power-puck-shot", "--plays", "1", "--random-plays", "3000"]
    assert cmd_certify.main([*argv, "--key", "00" * 32, "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)["random_plays_drawn_again"]
    again = stats.drawn_again(3000)
    assert counted == {"plays": 3000, "drawn_again": again, "one_in": round(3000 / again)}
