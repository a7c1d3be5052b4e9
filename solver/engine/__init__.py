"""The numba core: pure kernels over numpy arrays.

Nothing here imports the CLI, the store, click or the reference engine; arrays and ints go
in, arrays and ints come out. ``layout`` fixes the packed state, the search stack and the
control block, ``cards`` holds the card kernels, ``move_kinds`` the move kinds (shared with
the reference engine), ``moves`` encodes and generates moves, ``apply`` makes and takes them
back, ``dead_ends`` holds the dead-end tests (HOPELESS, the pairwise and triple tests, their
remembered dead tables, their rations, and the entry points the search calls), ``table`` is the
transposition table, ``search`` the DFS/IDA*,
``shortcut`` shortens a found line, ``player_moves`` is what a player who cannot peek sees
(the masked state) and may play, ``greedy_play`` the greedy player's scores and games, and
``jit`` sets the compile flags and the cache.
"""
