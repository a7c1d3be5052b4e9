"""The Python side of the search: a board packed for the numba engine (``solver.engine``),
the budget, the dead-end tests run from Python, the found line shortened and replayed on the
reference engine, and why a lost deal is lost."""
