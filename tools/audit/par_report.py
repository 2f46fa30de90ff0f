"""The PAR sheet: one HTML page an operator or a test lab reads, with every registered game's
table (engine/games.py), exact figures and plots (matplotlib, imported lazily; without it the
page says so).

Feature rates (bonus games, near misses...) come from certification: the JSON reports that
`build.py certify --game G --plays N --json` prints, passed with `--certify FILE` or saved in the
report directory as certify-<game>.json, fill each game's "Certification and feature rates".
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine import games
from engine.math.figures import feature_payout, feature_share, show2, tier_odds
from engine.math.table import PrizeTable
from engine.money import format_pounds
from engine.outcome import Composition

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.25em .6em}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}th{background:#eef}
.ok{color:#060}.bad{color:#a00}figure{display:inline-block;margin:0 1em}
"""


def ratio(numerator: int, denominator: int) -> Fraction:
    """An exact ratio, 0 when the denominator is 0."""
    return Fraction(numerator, denominator) if denominator else Fraction(0)


def esc(value: object) -> str:
    """HTML-escape any value's text."""
    return html.escape(str(value))


def table_html(
    head: Iterable[str], rows: Iterable[Iterable[object]], numeric: Iterable[int] = ()
) -> str:
    """An HTML table; the columns whose indexes are in `numeric` are right-aligned."""
    right = set(numeric)
    out = ["<table><tr>", *(f"<th>{esc(h)}</th>" for h in head), "</tr>"]
    for row in rows:
        cells = [
            f'<td class="n">{esc(c)}</td>' if i in right else f"<td>{esc(c)}</td>"
            for i, c in enumerate(row)
        ]
        out += ["<tr>", *cells, "</tr>"]
    out.append("</table>")
    return "".join(out)


def describe(comp: Composition) -> str:
    """A composition in words, e.g. 'row £5.00 + meter £4.00'."""
    words = []
    for part in comp.parts:
        detail = " ".join(f"{k}={v}" for k, v in part.detail)
        paid = f" {format_pounds(part.pence)}" if part.pence else ""  # a bonus part pays nothing
        words.append(f"{part.feature}{paid}{' (' + detail + ')' if detail else ''}")
    return " + ".join(words) or "no win"


def plots(table: PrizeTable) -> str:
    """Inline SVG plots of the prize distribution and the payout by feature."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return (
            "<p><em>matplotlib is not installed: plots left out (pip install matplotlib).</em></p>"
        )
    winners = [tier for tier in table.tiers if tier.prize_pence]
    labels = [format_pounds(t.prize_pence, always_pence=False) for t in winners]
    figures = []
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.bar(labels, [t.count for t in winners], color="#3465a4")
    ax.set_yscale("log")
    ax.set_title(f"{table.name}: winning plays per prize (pool {table.base_pool_size:,})")
    ax.set_ylabel("plays (log scale)")
    ax.tick_params(axis="x", labelrotation=45)
    figures.append(fig)
    paid = feature_payout(table)
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.bar(list(paid), [p / 100 for p in paid.values()], color="#f57900")
    ax.set_title(f"{table.name}: payout by feature (£ per pool)")
    figures.append(fig)
    out = []
    for fig in figures:
        fig.tight_layout()
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg")
        plt.close(fig)
        svg = buffer.getvalue()
        out.append(f"<figure>{svg[svg.index('<svg') :]}</figure>")
    return "".join(out)


def certification(report: Mapping[str, Any] | None) -> str:
    """The certification section of a game: its sampled figures and feature rates."""
    if report is None:
        return (
            "<p><em>No certification report yet: run <code>build.py certify --game GAME --plays N "
            "--json &gt; DIR/certify-GAME.json</code> and write the sheet again.</em></p>"
        )
    keys = ("plays", "mismatches", "violations", "odds_one_in", "rtp_percent", "books_per_second")
    figures = [(key.replace("_", " "), report.get(key, "—")) for key in keys]
    rates = report.get("feature_rates") or {}
    losing = report.get("losing_feature_rates") or {}
    rows = [
        (name.replace("_", " "), show_rate(rate), show_rate(losing.get(name)))
        for name, rate in rates.items()
    ]
    head = ("Feature", "Share of plays", "Share of losing plays")
    return table_html(("Sampled", "Value"), figures, (1,)) + table_html(head, rows, (1, 2))


def show_rate(rate: object) -> str:
    """A share of plays as a percentage and as 1 in N."""
    if not isinstance(rate, int | float) or rate <= 0:
        return "—" if rate is None else "0"
    return f"{rate * 100:.2f}% (1 in {1 / rate:,.2f})"


def game_section(table: PrizeTable, certified: Mapping[str, Any] | None = None) -> str:
    """The PAR section of one game."""
    odds, rtp_percent = games.get(table.game).published_figures
    odds_ok = show2(table.odds_one_in) == show2(odds)
    rtp_ok = show2(table.rtp * 100) == show2(rtp_percent)
    mark = {True: '<span class="ok">matches</span>', False: '<span class="bad">DIFFERS</span>'}
    stake = table.base_pool_size * table.price_pence
    figures = [
        ("Price", format_pounds(table.price_pence)),
        ("Base pool (plays)", f"{table.base_pool_size:,}"),
        ("Winning plays", f"{table.winning_plays:,}"),
        ("Sales per pool", format_pounds(stake)),
        ("Prizes per pool", format_pounds(table.total_prizes_pence)),
        ("Overall odds, exact", f"1 in {table.odds_one_in} = 1 in {show2(table.odds_one_in)}"),
        ("Expected payout, exact", f"{table.rtp} = {show2(table.rtp * 100)}%"),
        ("Top prize", format_pounds(table.top_prize_pence)),
    ]
    parts = [
        f"<h2>{esc(table.name)} <small>({esc(table.game)}, model {esc(table.model)})</small></h2>",
        table_html(("Figure", "Value"), figures),
        f"<p>Published: 1 in {show2(odds)} ({mark[odds_ok]}), {show2(rtp_percent)}% "
        f"({mark[rtp_ok]}).</p>",
        "<h3>Prize table</h3>",
    ]
    odds_by_tier = tier_odds(table)
    rows = []
    for tier in table.tiers:
        prize = tier.prize_pence
        share = show2(ratio(prize * tier.count, table.total_prizes_pence) * 100)
        tier_odd = f"1 in {show2(odds_by_tier[prize])}" if prize else "—"
        for n, (comp, count) in enumerate(tier.composition_counts()):
            head = (
                (format_pounds(prize), f"{tier.count:,}", tier_odd, f"{share}%")
                if not n
                else ("",) * 4
            )
            weight = dict(tier.compositions)[comp]
            rows.append((*head, describe(comp), weight, f"{count:,}"))
    cols = ("Prize", "Count", "Odds", "Share of payout", "Composition", "Weight", "Plays")
    parts.append(table_html(cols, rows, numeric=(1, 2, 3, 5, 6)))
    paid = feature_payout(table)
    shares = feature_share(table)
    feature_rows = [
        (f, format_pounds(p), f"{show2(shares[f] * 100)}%", f"{show2(ratio(p, stake) * 100)}%")
        for f, p in paid.items()
    ]
    parts += [
        "<h3>Payout by feature</h3>",
        table_html(
            ("Feature", "Paid per pool", "Share of payout", "Payout %"), feature_rows, (1, 2, 3)
        ),
        plots(table),
        "<h3>Certification and feature rates</h3>",
        certification(certified),
    ]
    return "".join(parts)


def render(certified: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The whole PAR sheet as HTML text, with certification reports by game id."""
    found = certified or {}
    sections = "".join(game_section(game.table, found.get(game.id)) for game in games.GAMES)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>PAR sheet</title><style>{STYLE}</style></head><body>"
        "<h1>PAR sheet: prize tables, odds and payout</h1>"
        "<p>All figures are exact (integer pence, fractions); rounded figures are shown to two "
        "decimals, halves rounded up.</p>"
        f"{sections}</body></html>\n"
    )


def read_certify(path: Path) -> Mapping[str, Any]:
    """A `build.py certify --json` report (lines before its JSON, e.g. [build] ones, skipped)."""
    text = path.read_text(encoding="utf-8")
    start = text.find("\n{") + 1 if not text.startswith("{") else 0
    report: Mapping[str, Any] = json.loads(text[start:])
    if not isinstance(report, Mapping) or "game" not in report:
        raise ValueError(f"{path}: not a certification report")
    return report


def write_report(directory: Path, certify: Iterable[Path] = ()) -> Path:
    """Write the PAR sheet to directory/index.html (with any certification reports)."""
    directory.mkdir(parents=True, exist_ok=True)
    certified: dict[str, Mapping[str, Any]] = {}
    for path in [*sorted(directory.glob("certify-*.json")), *certify]:
        report = read_certify(path)
        certified[str(report["game"])] = report
    path = directory / "index.html"
    path.write_text(render(certified), encoding="utf-8")
    return path
