"""The four kinds of move, as the one set of integers the kernels encode (``moves``) and the
reference engine's ``Move.kind`` holds (``solver.game.reference``). Plain constants, no numba, so
the reference engine can import them without loading the numba core.
"""

TABLEAU = 0  # a packet from one column to another
TO_FOUNDATION = 1  # a column's exposed card to a foundation
FROM_FOUNDATION = 2  # a foundation's top card back onto a column (foundation return)
STOCK_DEAL = 3  # the next stock cards, one onto each of columns 1, 2, ...
