"""The games' pure engine: money, the random stream, the math, one package per game.

Standard library only; no I/O, no clock, no `random`, money in integer pence.
"""
