"""£500K Power Puck Shot: what a pip reveals, as a book writes it (docs/books.md).

In the Main Game a coloured square, a Bonus motif or a Prize Game motif; in a Bonus Game an
award; in the Prize Game an amount for the PRIZE POT. The book's builders (plan.py,
generator.py) write these tokens and the replay and the screens read them: the screens import
them from here, so a page that shows the game does not import its book builder.
"""

from __future__ import annotations

SQUARE = "square:"  # square:<colour>
BONUS = "bonus"
PRIZE = "prize"
BOOSTER = "booster:"  # booster:<colour>
EXTRA = "extra"
POWER = "power"
SQUARES = "squares:"  # squares:<colour>:<n>
POT = "pot:"  # pot:<pence>
