"""£500K Power Puck Shot's words: the How To Play pages (verbatim from the procedure, with the
motifs drawn where its text had pictures), the rules in a player's words, and the splash's
messages."""

from __future__ import annotations

from engine.money import format_pounds
from engine.power_puck_shot import rules

SPLASH = (
    "COLLECT 6 OR MORE PRIZE GAME SYMBOLS TO UNLOCK THE PRIZE GAME FOR A GUARANTEED PRIZE!",
    "WHEN PLAYING A POWER PUCK, YOU WILL COLLECT DOUBLE THE AMOUNT OF SYMBOLS REVEALED",
    "COLLECT 3 OR MORE BONUS SYMBOLS TO UNLOCK THE BONUS GAME",
)

HOW_TO_PLAY = (
    ("MAIN GAME", ("YOU ARE AWARDED 4 PUCKS {puck} AT THE START OF THE GAME.",
                   "CLICK ONE OF THE SIX DIRECTIONAL ARROWS TO STRIKE YOUR PUCK ACROSS THE PLAY "
                   "GRID AND COLLECT THE SYMBOLS YOU REVEAL.")),
    ("MAIN GAME", ("SPINNING BUMPERS {bumper} WILL APPEAR IN SOME OF THE POCKETS ON THE GRID "
                   "WHICH WHEN HIT WILL EXTEND THE JOURNEY OF YOUR PUCK.",)),
    ("MAIN GAME", ("AS THE PUCK SLIDES ACROSS ANY PIP OR HITS ANY BUMPER, A COLOURED SYMBOL "
                   "{square}, BONUS SYMBOL {bonus} OR PRIZE GAME SYMBOL {prize} WILL BE REVEALED "
                   "IN THAT SQUARE.",
                   "THE COLOURED SYMBOLS YOU REVEAL WILL FILL THE PRIZE TABLE.",
                   "FILL A ROW IN THE PRIZE TABLE TO WIN!")),
    ("BONUS GAME", ("REVEAL 3 OR MORE BONUS GAME SYMBOLS {bonus} IN A SINGLE SHOT TO UNLOCK THE "
                    "BONUS GAME.",
                    "REVEAL 3 BONUS GAME SYMBOLS TO BE AWARDED 1 BONUS GAME PUCK",
                    "REVEAL 4 BONUS GAME SYMBOLS TO BE AWARDED 2 BONUS GAME PUCKS",
                    "REVEAL 5 BONUS GAME SYMBOLS TO BE AWARDED 3 BONUS GAME PUCKS")),
    ("BONUS GAME", ("IN THE BONUS GAME, SHOOT YOUR PUCK(S) TO BE AWARDED ANY OF THE FOLLOWING "
                    "BONUSES:",
                    "AN EXTRA PUCK {extra}, A POWER PUCK {power}, PRIZE BOOSTER {booster}, PRIZE "
                    "GAME SYMBOLS {prize} OR EXTRA SYMBOLS FOR THE PRIZE TABLE {plus}.")),
    ("PRIZE GAME", ("COLLECT 6 OR MORE PRIZE GAME SYMBOLS {prize} TO UNLOCK THE PRIZE GAME TO WIN "
                    "A GUARANTEED PRIZE.",
                    "COLLECT 6 PRIZE GAME SYMBOLS TO BE AWARDED 1 PRIZE GAME PUCK",
                    "COLLECT 7 PRIZE GAME SYMBOLS TO BE AWARDED 2 PRIZE GAME PUCKS",
                    "COLLECT 8 PRIZE GAME SYMBOLS TO BE AWARDED 3 PRIZE GAME PUCKS",
                    "COLLECT 9 PRIZE GAME SYMBOLS TO BE AWARDED 4 PRIZE GAME PUCKS",
                    "COLLECT 10 PRIZE GAME SYMBOLS TO BE AWARDED 5 PRIZE GAME PUCKS")),
    ("PRIZE GAME", ("IN THE PRIZE GAME, SHOOT YOUR PUCK(S) TO REVEAL AND COLLECT THE PRIZES "
                    "REVEALED! {coin}",)),
)  # fmt: skip

RULES_TEXT = (
    f"Each play costs {format_pounds(rules.PRICE_PENCE)}. Its outcome is fixed by the lottery's "
    "computer at the moment you buy it. Nothing you do while playing changes it: no skill, no "
    "timing. The arrow you pick changes only the path the puck is drawn along.",
    "You start with 4 pucks {puck}. Pick one of the six Directional Arrows to shoot. Each Pip the "
    "puck passes, and each Spinning Bumper {bumper} it hits, reveals a symbol; the puck's turn "
    "ends when it drops into an open Pocket.",
    "Each coloured square {square} fills a square of its row in the Prize Table. Fill all 12 "
    "squares of a row to win its amount.",
    "Three or more Bonus symbols {bonus} collected in one shot start the Bonus Game: 3 give 1 "
    "Bonus Puck, 4 give 2 and 5 or more give 3 (a Power Puck's shot collects each twice, so it "
    "can collect more than 5). Bonus Pucks can award an extra Puck {extra}, a Power Puck "
    "{power} (its shot collects every symbol twice), a Prize Booster {booster} (the row's "
    "amount rises, up to three times; £500,000 stays £500,000), Prize Game symbols or extra "
    "squares {plus}.",
    "6 to 10 Prize Game symbols {prize} unlock the Prize Game after the Main Game, with 1 to 5 "
    "Prize Pucks; each reveals an amount {coin} for the PRIZE POT.",
    "You win one Prize Amount per play: your rows won and the PRIZE POT added together.",
)
