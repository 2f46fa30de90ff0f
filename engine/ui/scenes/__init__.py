"""The scenes every game shares, one class per screen: the splash, How To Play, Rules and
Prizes and the outcome (each drawn in a game's Look), and the system check."""
