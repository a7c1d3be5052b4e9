"""One run of the engine's search from a packed position (``Search``: a DFS or one IDA*
iteration) in chunks between looks at the clock: the search kernels it calls (lean, light or
full: ``search_kernels``), its stack (one per thread) and its transposition table, which it
doubles as it fills."""

import threading
import time

import numpy as np

from solver.engine import groups, layout, search, table
from solver.engine.dead_ends.arrays import WORDS, DeadEndTables
from solver.results.result import Proof, Spent
from solver.search.budget import Budget
from solver.search.config import DEFAULT, SearchConfig
from solver.search.dead_ends import dead_end_tables, light_search_will_do, test_path_over_triples
from solver.search.packing import Packed

_thread_stacks = threading.local()
# What the lean and light search kernels are given in place of the dead-end tables, which they never
# read: a kernel called with the tables compiles for a second longer, as does every kernel it hands
# them on to (their Python wrappers unpack every array).
NO_TABLES = 0


def search_stack(config: SearchConfig):
    """The search stack (see ``engine.layout``) of this thread for ``config``'s sizes, made once
    (about 30 MB, its pages touched only as a path grows; making it cost more than most solves
    take) and reused by every search the thread runs one after another: a search starts at depth 0
    and writes every entry before it reads it, and ``Search.path`` copies what it returns."""
    sizes = (config.max_depth, config.buffered_moves)
    if getattr(_thread_stacks, "sizes", None) != sizes:
        _thread_stacks.stack = layout.make_stack(*sizes, WORDS)
        _thread_stacks.sizes = sizes
    return _thread_stacks.stack


class Search:
    """One run of the engine's search from a packed position (DFS or one IDA* iteration)."""

    def __init__(
        self,
        packed: Packed,
        mode: int,
        options: int,
        limit: int,
        memory_bytes: int,
        branch_limit: int = 0,
        dead_ends: DeadEndTables | None = None,
        deal_score: int = 0,
        config: SearchConfig = DEFAULT,
        lean: bool = False,
    ):
        """``dead_ends``: the pairwise test's tables for this root, shared by the searches of
        one solve (built here when not given); ``deal_score``: the stock deal's place in the
        move order (``moves``' "The stock deal's place"); ``config``: the solve's tuning;
        ``lean``: searched by the lean kernels, which test no position for a dead end."""
        self.packed = packed
        self.config = config
        self.dead_ends = dead_end_tables() if dead_ends is None else dead_ends
        first_slots = config.first_table_slots
        self.max_slots = max(first_slots, 1 << int(np.log2(memory_bytes // table.ENTRY_BYTES)))
        self.table = table.make_table(min(first_slots, self.max_slots))
        self.stack = search_stack(config)
        tuning, grow_at = config.kernel_tuning(), self.grow_at()
        self.control = search.make_control(mode, options, limit, grow_at, tuning, branch_limit, deal_score)
        self.peak_entries = 0
        self.path_tested = set()
        self.proof = Proof.SEARCH  # what an exhausted search proves its root lost by
        self.lean = lean
        p = packed
        start, _chunk, tables = search_kernels(self.dead_ends, lean)
        start(p.state, p.params, p.zobrist, p.column_keys, self.table, self.stack, self.control, tables)

    def entries(self) -> np.ndarray:
        """The transposition table's slots (see ``engine.table``)."""
        return self.table[table.TABLE_ENTRIES]

    def counters(self) -> np.ndarray:
        """The transposition table's entry count and limit."""
        return self.table[table.TABLE_COUNTERS]

    def grow_at(self) -> int:
        slots = self.entries().shape[0]
        return slots // 2 if slots < self.max_slots else np.iinfo(np.int64).max

    def grow(self, budget: Budget) -> None:
        """Double the table, unless rehashing would outlast the time left (so a time limit
        is kept to within a chunk); then the table fills up instead, which costs only speed.
        Where the process can get no more memory (``ulimit -v``), memory has run out."""
        slots = self.entries().shape[0] * 2
        if slots * self.config.rehash_seconds_per_slot > budget.time_left():
            self.control[layout.CONTROL_GROW_AT] = np.iinfo(np.int64).max
            return
        bigger = table.make_table_if_possible(slots)
        if bigger is None:
            budget.spent = Spent.MEMORY
            return
        table.rehash(self.entries(), bigger[table.TABLE_ENTRIES], bigger[table.TABLE_COUNTERS])
        self.table = bigger
        self.control[layout.CONTROL_GROW_AT] = self.grow_at()

    def run(self, budget: Budget, node_cap: float = float("inf")) -> int:
        """Search until a verdict, the budget runs out, or this search has expanded
        ``node_cap`` nodes; return the engine status."""
        p, config = self.packed, self.config
        chunk = config.first_chunk
        status = self.control[layout.CONTROL_STATUS]
        while status not in (search.SOLVED, search.EXHAUSTED) and budget.spent is None:
            if budget.time_left() <= 0:
                budget.spent = Spent.TIME
                break
            if budget.nodes_left() <= 0:
                budget.spent = Spent.NODES
                break
            if budget.interrupted:
                budget.spent = Spent.INTERRUPTED
                break
            before_nodes, before_time = int(self.control[layout.CONTROL_NODES]), time.perf_counter()
            if before_nodes >= node_cap:
                break
            limit = before_nodes + int(min(chunk, budget.nodes_left(), node_cap - before_nodes))
            ends_every = config.chunk_ends_every
            limit = min(limit, (before_nodes // ends_every + 1) * ends_every)
            _start, search_on, tables = search_kernels(self.dead_ends, self.lean)
            status = search_on(
                p.state,
                p.params,
                p.zobrist,
                p.column_keys,
                self.table,
                self.stack,
                self.control,
                tables,
                limit,
            )
            budget.nodes += int(self.control[layout.CONTROL_NODES]) - before_nodes
            searched = int(self.control[layout.CONTROL_NODES]) - before_nodes
            chunk = adapt_chunk(config, chunk, searched, before_time)
            if status == search.GROW:
                self.grow(budget)
            if status in (search.PAUSED, search.GROW):
                test_path_over_triples(self, budget)
        self.peak_entries = max(self.peak_entries, int(self.counters()[table.ENTRY_COUNT]))
        return status

    def path(self) -> np.ndarray:
        """The engine moves from the root to the current position."""
        return self.stack[layout.STACK_APPLIED][: int(self.control[layout.CONTROL_DEPTH])].copy()

    def truncation_cause(self) -> Spent:
        """Why parts of the space went unsearched: a full table lets cycles run into the
        depth cap ("memory"); otherwise a path outgrew the stack ("depth")."""
        counters = self.counters()
        return Spent.MEMORY if counters[table.ENTRY_COUNT] >= counters[table.ENTRY_LIMIT] else Spent.DEPTH

    @property
    def truncated(self) -> bool:
        return bool(self.control[layout.CONTROL_TRUNCATED])


def search_kernels(dead_ends: DeadEndTables, lean: bool = False):
    """The search kernels (start, chunk) and the tables to give them: the lean ones when asked
    (they test no position for a dead end); else for a solve's tests so far, the light ones
    (compiled without the dead-end tests beyond HOPELESS) while they search alike. Neither reads
    the dead-end tables: they are given NO_TABLES."""
    if lean:
        return groups.search_start_lean, groups.search_chunk_lean, NO_TABLES
    if light_search_will_do(dead_ends):
        return groups.search_start_light, groups.search_chunk_light, NO_TABLES
    return search.search_start, search.search_chunk, dead_ends


def adapt_chunk(config: SearchConfig, chunk: int, nodes: int, started: float) -> int:
    """Aim each chunk at ``config.chunk_seconds`` so the clock is read often but cheaply."""
    seconds = time.perf_counter() - started
    if nodes < chunk or seconds <= 0:
        return chunk
    aimed = nodes * config.chunk_seconds / seconds
    return int(min(max(aimed, config.smallest_chunk), config.largest_chunk))
