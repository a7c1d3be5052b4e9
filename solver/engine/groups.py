"""The kernel groups a solve compiles, each once per machine and when it first needs it
(``jit.KernelCache.kernels_ready``; ``solver.search.readiness.kernels_ready`` calls their kernels
on a one-move position): the lean search of a solve's first look (no dead-end test at all), the
light search that follows when the look decides nothing (``dead_ends.entry``'s light entry points:
HOPELESS and its twin split), the pairwise tests a deal not won in ``SearchConfig.root_pairs_after``
positions turns on, the test over triples after ``root_triples_after``, and the reason of a lost
deal. Each with the CPU seconds it took to compile on the project's 2-core machine
(``benchmarks/bench_cold_start.py``)."""

from solver.engine import search, shortcut, table
from solver.engine.dead_ends import entry, h2, h3, prune
from solver.engine.jit import KernelGroup, variant

search_start_lean = variant(search.search_start, "search_start_lean", DEAD_END_CALLS=False)
search_chunk_lean = variant(search.search_chunk, "search_chunk_lean", DEAD_END_CALLS=False)
search_start_light = variant(search.search_start, "search_start_light", root_dead=entry.root_dead_light)
search_chunk_light = variant(
    search.search_chunk,
    "search_chunk_light",
    position_dead=entry.position_dead_light,
    costly_path_test=entry.costly_path_test_light,
)


LEAN = KernelGroup(
    "first look", 8, (search_start_lean, search_chunk_lean, shortcut.shortcut_line, table.rehash)
)
SEARCH = KernelGroup("search", 7, (search_start_light, search_chunk_light))
PAIRS = KernelGroup(
    "pairwise tests", 28, (h2.build_tables, h2.h2_dead, search.search_start, search.search_chunk)
)
TRIPLES = KernelGroup("test over triples", 4, (h3.test_root, entry.path_triples_dead))
LOSS = KernelGroup("loss reasons", 1, (prune.hopeless, h2.h2_dead))
# Every group, in the order a solve that needs them all meets them.
ALL = (LEAN, SEARCH, PAIRS, TRIPLES, LOSS)
