"""Lab Riches rules as data: the fixed facts of the procedures and the project's decisions.

Decisions the lost pictures left open are recorded here and in docs/games/lab-riches.md.
"""

from __future__ import annotations

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
