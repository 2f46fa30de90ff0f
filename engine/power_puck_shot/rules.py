"""£500K Power Puck Shot rules as data: the fixed facts of the procedures and the decisions.

Decisions the lost pictures left open are recorded here and in docs/math.md.
"""

from __future__ import annotations

GAME_ID = "power-puck-shot"
NAME = "£500K Power Puck Shot"
PRICE_PENCE = 500
TOP_PRIZE_PENCE = 50_000_000
# Published in the procedures: overall chance "1 in 2.55", expected payout "73.00%".
PUBLISHED_ODDS_ONE_IN = "2.55"
PUBLISHED_RTP_PERCENT = "73.00"

START_PUCKS = 4
DIRECTIONAL_ARROWS = 6

# The Prize Table: 8 coloured rows of 12 squares, cheapest first.
SQUARES_PER_ROW = 12
COLOURS = ("dark-blue", "purple", "orange", "light-blue", "red", "green", "pink", "yellow")
# Each row's amount after 0, 1, 2 and 3 boosts (the three increases in the procedures).
BOOST_LADDERS: dict[str, tuple[int, int, int, int]] = {
    "dark-blue": (500, 600, 800, 1_000),
    "purple": (600, 800, 1_000, 1_200),
    "orange": (1_000, 1_200, 1_500, 2_000),
    "light-blue": (1_500, 2_000, 2_500, 3_000),
    "red": (2_500, 3_000, 4_000, 5_000),
    "green": (10_000, 15_000, 25_000, 50_000),
    "pink": (50_000, 100_000, 150_000, 500_000),
    "yellow": (50_000_000, 50_000_000, 50_000_000, 50_000_000),
}
MAX_BOOSTS = 3

# Bonus Game: 3/4/5 bonus motifs in one turn give 1/2/3 Bonus Pucks.
BONUS_PUCKS_FOR_MOTIFS = {3: 1, 4: 2, 5: 3}
# Prize Game: 6/7/8/9/10 prize game symbols give 1–5 Prize Game Pucks.
PRIZE_PUCKS_FOR_SYMBOLS = {6: 1, 7: 2, 8: 3, 9: 4, 10: 5}
MIN_PRIZE_PUCKS = 1
MAX_PRIZE_PUCKS = 5

# Decision: each Prize Game Puck reveals one of these amounts into the PRIZE POT.
PRIZE_PUCK_AMOUNTS = (100, 200, 300, 500, 1_000, 2_000, 5_000, 10_000)
# Decision: a play completes at most this many Prize Table rows (4 pucks, plus bonus pucks).
MAX_ROW_WINS = 3
# The Prize Game Symbol Collection Meter: 10 segments; 6 or more unlock the Prize Game.
METER_SEGMENTS = 10
SYMBOLS_TO_UNLOCK = 6

# Bonus Game awards (model 2): what a play's Bonus Games show, fixed by its composition's
# "bonus" part (docs/math.md). Decisions:
MAX_BONUS_GAMES = 2  # a play shows at most two Bonus Games
MAX_AWARDS_PER_BONUS_PUCK = 3  # each Bonus Puck's shot reveals one to three awards
EXTRA_SQUARES = (1, 2, 3)  # a "+N" award fills N squares of its colour's row
UNBOOSTED = ("yellow",)  # the £500,000 row takes no booster and no extra squares

# Composition features of this game: "bonus" pays nothing; it says what the Bonus Games show.
FEATURES = ("row", "pot", "bonus")

# The book models the generator builds (a pool names one; docs/books.md), here so the game's
# declaration need not import the generator.
BOOK_MODELS = ("power-puck-shot/2", "power-puck-shot/3")

# A random play (model 3; docs/games/power-puck-shot.md "A random play"): what chance gives.
# Each Pocket shows a Spinning Bumper with this chance, and the puck is followed from a uniform
# arrow, each bumper it hits sending it along a uniform crossing from there, to an open Pocket:
RANDOM_BUMPER_CHANCE = (3, 4)
# so a shot crosses 1..16 Pips with these weights (that chance given at least one, times 2**16,
# rounded; tests/test_power_puck_shot_simulate.py recomputes them from the geometry):
PIPS_PER_SHOT = (12341, 2842, 7033, 9402, 7473, 6840, 5396, 4416, 3480, 2756, 1666, 1024, 544,
                 228, 74, 20)  # fmt: skip
# What a Main Game Pip shows, weights out of 256: a Bonus motif, a Prize Game motif, or a
# coloured square (cheapest row first).
MAIN_PIP_WEIGHTS = {
    "bonus": 40,
    "prize": 14,
    "dark-blue": 44,
    "purple": 38,
    "orange": 34,
    "light-blue": 28,
    "red": 22,
    "green": 18,
    "pink": 10,
    "yellow": 8,
}
# What a Bonus Game Pip shows, weights out of 256 (a booster's or "+N"'s colour is uniform over
# the rows it may go to; N is uniform 1-3).
BONUS_PIP_WEIGHTS = {"booster": 64, "squares": 96, "prize": 52, "extra": 20, "power": 24}
MAX_RANDOM_SHOTS = 40  # a random play with more Main Game shots is drawn again (1 in 3,900)


def row_amount(colour: str, boosts: int) -> int:
    """Prize in pence of the colour's row after this many boosts (0–3)."""
    if colour not in BOOST_LADDERS:
        raise ValueError(f"unknown colour {colour!r}")
    if not 0 <= boosts <= MAX_BOOSTS:
        raise ValueError(f"boosts must be 0–{MAX_BOOSTS}, got {boosts}")
    return BOOST_LADDERS[colour][boosts]
