"""Lab Riches' words for the shared How To Play and Rules and Prizes screens (engine/ui/scenes/).

The pages are the game's own; the scenes draw them in its LOOK, whose icons stand for the
'{icon}' tokens. The prize figures are not here: the Rules screen reads them from the table.
"""

from __future__ import annotations

from engine.lab_riches import rules
from engine.money import format_pounds
from engine.ui.scenes.how_to_play import Page

HOW_TO_PLAY: tuple[Page, ...] = (
    ("MAIN GAME", ("TAP GO TO REVEAL 4 SYMBOLS IN THE TOP ROW AND THE GRID SYMBOLS FOR THAT GO. "
                   "IN A COLUMN, IF ONE OF THE SYMBOLS IN THE TOP ROW MATCHES A GRID SYMBOL "
                   "DIRECTLY BELOW, THE MATCHING GRID SYMBOL WILL BE “LOCKED IN” {lock} PLACE "
                   "FOR YOUR REMAINING GOES.",)),
    ("MAIN GAME", ("ON YOUR NEXT GO, YOU WILL REVEAL 4 NEW SYMBOLS IN THE TOP ROW. ANY "
                   "NON-MATCHING SYMBOLS WILL BE REMOVED FROM THE GRID AND REPLACED WITH NEW GRID "
                   "SYMBOLS. COMPLETE A ROW OF “LOCKED IN” GRID SYMBOLS TO WIN THE PRIZE FOR THAT "
                   "ROW.",)),
    ("MAIN GAME", ("REVEAL 3 {bonus} SYMBOLS IN A GO TO ACTIVATE THE BONUS GAME.",
                   "REVEAL A {lightning} TO ADD SEGMENTS TO THE PRIZE METER.",
                   "REVEAL A {extra-goes} SYMBOL TO BE AWARDED THE NUMBER OF EXTRA GOES "
                   "DISPLAYED.")),
    ("PRIZE METER", ("EVERY {lightning} WILL DISPLAY A NUMBER.",
                     "THE PRIZE METER WILL FILL THE NUMBER OF SEGMENTS DISPLAYED ON THE "
                     "{lightning}.",
                     "FILL 8 OR MORE SEGMENTS TO WIN A PRIZE.")),
    ("BONUS GAME", ("TAP GO TO START THE BONUS GAME.", "THE LIGHT COLLECTS THE ITEM IT LANDS ON.",
                    "LAND ON A {up} TO MOVE UP A ROW.",
                    "LAND ON A {meter} TO ADD THE NUMBER OF SEGMENTS DISPLAYED TO THE PRIZE "
                    "METER.",
                    "LAND ON A {extra-goes} SYMBOL TO BE AWARDED THE NUMBER OF EXTRA GOES "
                    "DISPLAYED.",
                    "LAND ON A {cash} TO WIN AN INSTANT PRIZE.")),
)  # fmt: skip

RULES_TEXT = (
    f"Each play costs {format_pounds(rules.PRICE_PENCE)}. Its outcome is fixed by the lottery's "
    "computer at the moment you buy it. Nothing you do while playing changes it: no skill, no "
    "timing, no choices.",
    "Press GO to use a go. You start with 6 goes. The Top Row shows 4 new symbols and every "
    "grid square that is not locked shows a new symbol.",
    "A grid symbol that matches the Top Row symbol above its column locks {lock} and stays "
    "for the rest of the play. Lock all four squares of a row to win its Prize Box amount.",
    "Each {lightning} adds its number of segments to the Power Surge Prize Meter. Only the box "
    "lit at the end pays: 8 segments or more win.",
    "A {extra-goes} adds goes. Three {bonus} in one go start the Bonus Game: the light lands "
    "on an up arrow to climb a row, or on segments, extra goes or an Instant Prize.",
    "You win one Prize Amount per play: your rows, meter and Instant Prizes added together.",
)
