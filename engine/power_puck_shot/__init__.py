"""£500K Power Puck Shot: rules as data (the rest of the game's modules live beside them)."""
