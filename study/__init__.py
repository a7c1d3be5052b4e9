"""The thoughtful win-rate study of PySolFC deals: its per-deal tables (``results/``), the
figures, plots and report computed from them, and the commands that made them. Run from the
checkout root as ``python -m study`` (``--help``; ``study/README.md``). Not installed with the
solver: a tool of this checkout, beside ``benchmarks/``, whose scripts import its ``reports``,
``plots`` and ``tables``."""
