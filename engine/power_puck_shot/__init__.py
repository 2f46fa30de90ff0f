"""£500K Power Puck Shot (£5): its rules and prize table so far; not on sale until its book
builder, replay, validator and screens exist (issues "Power Puck Shot engine" and "playable")."""

from __future__ import annotations

from engine.game import Game
from engine.power_puck_shot import compositions, rules

GAME = Game(rules=rules, package="power_puck_shot", check_composition=compositions.check)
