"""Lab Riches rules as data: the fixed facts of the procedures and the project's decisions.

Decisions the lost pictures left open are recorded here and in docs/games/lab-riches.md.
"""

from __future__ import annotations

from dataclasses import dataclass

GAME_ID = "lab-riches"
NAME = "Lab Riches"
PRICE_PENCE = 300
TOP_PRIZE_PENCE = 25_000_000
# Published in the procedures: overall chance "1 in 2.74", expected payout "71.00%".
PUBLISHED_ODDS_ONE_IN = "2.74"
PUBLISHED_RTP_PERCENT = "71.00"

COLUMNS = 4
ROWS = 5
START_GOES = 6

# Grid and Top Row symbols: a laboratory theme.
SYMBOLS = ("flask", "beaker", "microscope", "atom", "test-tube", "magnet", "dna", "burner")
# Top Row specials.
LIGHTNING = "lightning"  # adds 1–5 segments
EXTRA_GOES = "extra-goes"  # adds 1–3 goes
BONUS = "bonus"  # three in one go start the Bonus Game
LIGHTNING_VALUES = (1, 2, 3, 4, 5)
EXTRA_GOES_VALUES = (1, 2, 3)
BONUS_MOTIFS_TO_ACTIVATE = 3

# Power Surge Prize Meter: (first segment, last segment, prize pence) for its 7 boxes.
METER_SEGMENTS = 25
METER_BOXES = (
    (1, 7, 0),
    (8, 11, 400),
    (12, 15, 600),
    (16, 19, 1_000),
    (20, 22, 5_000),
    (23, 24, 100_000),
    (25, 25, 25_000_000),
)

# Amounts a Prize Box can reveal on the first GO, and a Bonus Game Instant Prize can show.
PRIZE_BOX_AMOUNTS = (300, 500, 1_000, 2_000, 5_000, 10_000, 50_000)
INSTANT_PRIZE_AMOUNTS = (300, 500, 1_000, 2_000, 5_000)

# Bonus Game: 5 rows; at most this many Bonus Games in one play (each pays at most one award).
BONUS_ROWS = 5
MAX_BONUS_GAMES = 2

# Decision (docs/math.md): a 6-goes play completes at most this many rows of four Locked Symbols.
MAX_ROW_WINS = 3

# Composition features of this game.
FEATURES = ("row", "meter", "instant")


def meter_prize(segments: int) -> int:
    """Prize in pence of the Power Surge Prize Meter box lit at this many segments."""
    lit = min(max(segments, 0), METER_SEGMENTS)
    for first, last, pence in METER_BOXES:
        if first <= lit <= last:
            return pence
    return 0


# --- Book decisions (issue 4; docs/games/lab-riches.md explains them) ---
# Upper bound on Goes in one play (6 to start plus every extra go awarded), in models 1 and 2.
MAX_GOES = 15


@dataclass(frozen=True)
class Model:
    """How a book model shows a play (docs/books.md). A model never changes once plays are sold
    under it: a later model is a new entry, and every book replays as it was built."""

    random_losses: bool  # a losing play is a random play that lost (else built like a win)
    max_goes: int | None  # the cap on goes in a play; None: no cap, as in the procedure
    start_specials: bool  # the inactive start Top Row shows motifs too, not only symbols
    bonus_first: bool  # a GO that starts a Bonus Game plays it before its locks and motifs
    every_meter_box: bool  # a meter_box event for each box an award crosses, not only the last


MODELS = {
    "lab-riches/1": Model(False, MAX_GOES, False, False, False),
    "lab-riches/2": Model(True, MAX_GOES, False, False, False),
    # The procedure's order and look: the Bonus Game's award before the Grid's Locked Symbols,
    # each meter box crossed highlighted in turn, motifs in the inactive start row, no cap.
    "lab-riches/3": Model(True, None, True, True, True),
}
# A random play under these rules: each Top Row square of a GO is a lightning motif with chance
# LIGHTNING_CHANCE and a bonus motif with BONUS_MOTIF_CHANCE (otherwise one of SYMBOLS, uniform);
# each GO shows an extra-goes motif with EXTRA_GOES_CHANCE; every unlocked Grid square shows one
# of SYMBOLS, uniform, so it matches its column's Top Row symbol with chance 1/len(SYMBOLS).
# Chances are fractions of 256 (one stream byte each).
LIGHTNING_CHANCE = (18, 256)
BONUS_MOTIF_CHANCE = (16, 256)
EXTRA_GOES_CHANCE = (36, 256)
# Chance that a play without an Instant Prize part still shows a Bonus Game (segments or goes).
VARIETY_BONUS_CHANCE = (21, 256)
# Locked Symbols stay locked (and lit) after their row has won.

# Bonus Game rows, bottom (0) to top (4): each segment is (kind, value).
UP = "up"
SEGMENTS = "segments"
INSTANT = "instant"
BONUS_ROW_LAYOUTS: tuple[tuple[tuple[str, int], ...], ...] = (
    ((UP, 0), (SEGMENTS, 1), (UP, 0), (EXTRA_GOES, 1), (UP, 0), (SEGMENTS, 2), (INSTANT, 300),
     (INSTANT, 500)),
    ((UP, 0), (SEGMENTS, 2), (INSTANT, 500), (UP, 0), (EXTRA_GOES, 1), (SEGMENTS, 3),
     (INSTANT, 1_000), (EXTRA_GOES, 2)),
    ((UP, 0), (SEGMENTS, 3), (INSTANT, 1_000), (EXTRA_GOES, 2), (UP, 0), (SEGMENTS, 4),
     (INSTANT, 2_000)),
    ((UP, 0), (SEGMENTS, 4), (INSTANT, 2_000), (EXTRA_GOES, 3), (SEGMENTS, 5), (INSTANT, 5_000)),
    ((SEGMENTS, 5), (INSTANT, 5_000), (EXTRA_GOES, 3), (INSTANT, 2_000), (SEGMENTS, 3)),
)  # fmt: skip


def meter_box(segments: int) -> int | None:
    """Index (0-6) of the Power Surge Prize Meter box lit at this many segments; None at 0."""
    for index, (first, last, _pence) in enumerate(METER_BOXES):
        if first <= segments <= last:
            return index
    return None
