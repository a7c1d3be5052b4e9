"""The numba core: pure kernels over numpy arrays.

Nothing here imports the CLI, the store, click or the reference engine; arrays and ints go
in, arrays and ints come out. ``layout`` fixes the packed state, ``moves`` generates,
applies and undoes moves, ``table`` is the transposition table, ``search`` the DFS/IDA*.
"""
