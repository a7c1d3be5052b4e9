"""The numba core: pure kernels over numpy arrays.

Nothing here imports the CLI, the store, click or the reference engine; arrays and ints go
in, arrays and ints come out. ``layout`` fixes the packed state, the search stack and the
control block, ``cards`` holds the card kernels, ``move_kinds`` the move kinds (shared with
the reference engine), ``moves`` generates, applies and undoes moves, ``prune`` finds
hopeless positions, ``table`` is the transposition table, ``search`` the DFS/IDA*,
``shortcut`` shortens a found line, and ``jit`` sets the compile flags and the cache.
"""
