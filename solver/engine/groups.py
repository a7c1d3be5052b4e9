"""The kernel groups a solve compiles, each once per machine and when it first needs it
(``jit.kernels_ready``; ``solver.solve.kernels_ready`` calls their kernels on a one-move
position): the light search every solve runs (``search.DEAD_END_TESTS``), the pairwise tests a
deal not won in ``solver.solve.ROOT_PAIRS_AFTER`` positions turns on, the test over triples
after ``ROOT_TRIPLES_AFTER``, and the reason of a lost deal. Each with the CPU seconds it took
to compile on the project's 2-core machine (``benchmarks/bench_cold_start.py``)."""

from solver.engine import h2, h3, prune, search, shortcut, table
from solver.engine.jit import KernelGroup

SEARCH = KernelGroup(
    "search", 12, (search.search_start_light, search.search_chunk_light, shortcut.shortcut_line, table.rehash)
)
PAIRS = KernelGroup("pairwise tests", 20, (h2.build_tables, h2.h2_dead, search.search_chunk))
TRIPLES = KernelGroup("test over triples", 6, (h3.test_root, search.path_triples_dead))
LOSS = KernelGroup("loss reasons", 4, (prune.hopeless, h2.h2_dead))
