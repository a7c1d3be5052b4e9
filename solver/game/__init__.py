"""The rules layer, plain Python: cards, rule sets, boards and their text, the reference
engine (the truth every kernel and every line is checked against), move notation and move
sentences, deal numberings and deal ranges. It imports nothing of the solver above it."""
