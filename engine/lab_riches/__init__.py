"""Lab Riches (£3): rules, book generator, independent validator, replay."""
