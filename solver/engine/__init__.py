"""The numba core: pure kernels over numpy arrays.

Nothing here imports the CLI, the store, click or the reference engine; arrays and ints go
in, arrays and ints come out. ``layout`` fixes the packed state, the search stack and the
control block, ``cards`` holds the card kernels, ``move_kinds`` the move kinds (shared with
the reference engine), ``moves`` generates, applies and undoes moves, ``prune`` finds
hopeless positions, ``table`` is the transposition table, ``search`` the DFS/IDA*,
``shortcut`` shortens a found line, ``player_moves`` is what a player who cannot peek sees
(the masked state) and may play, ``greedy_play`` the greedy player's scores and games, and
``jit`` sets the compile flags and the cache.
"""
