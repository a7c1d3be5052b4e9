"""Board → packed arrays → numba search → move line → reference replay → Result."""

import logging
import signal
import threading
import time
from functools import lru_cache

import numpy as np

from solver import reference
from solver.board import Board, check_board
from solver.cards import KING, make_card
from solver.engine import h2, h3, jit, layout, moves, search, shortcut, table
from solver.interrupts import StopFlag
from solver.loss_reason import loss_reason
from solver.notation import replayed_line
from solver.packing import Packed, copy_packed, decode, pack
from solver.reference import Move
from solver.result import SOLVED, UNKNOWN, UNSOLVABLE, Limits, Result, Spent
from solver.rules import Rules

# The longest path a search follows, and the moves its positions may hold in all: a
# depth-first search of a large space wanders far (Russian deals with foundation return went
# past 4,096 moves deep within a second), and the path's move lists share one buffer.
MAX_DEPTH = 1 << 18
BUFFERED_MOVES = 1 << 21
FIRST_TABLE_SLOTS = 1 << 16
ROOT_PAIRS_AFTER = 2_000
# Positions the solve searches without a verdict before the test over triples runs on the root
# (``engine.h3``): about 0.36 s of search, some three times a call on a root (median 0.13 s), so
# a deal it does not decide pays about a third more (benchmarks/README.md, "Triples at the root").
ROOT_TRIPLES_AFTER = 300_000
# Positions searched below a position before its later children get the full pairwise test
# (``engine.search.pairs_due``): tuned on PySolFC 395, 1015, 1251, 2368 among 300, 2000 and
# 10,000, confirmed on 324, 1300 and KPat 20002, 5000064, 5000096 (benchmarks/README.md).
PAIRS_SPACING = 10_000
# Positions searched below a position on the path before it gets the full pairwise test itself
# (``engine.search.test_costly``): tuned on PySolFC 395, 1015, 1251, 2368 and KPat 40092, 40178,
# 700128, 2000173, 2000179 among 1,000 and 3,000 (benchmarks/README.md).
COSTLY_AFTER = 3_000
CHUNK_SECONDS = 0.02
REHASH_SECONDS_PER_SLOT = 6e-8  # measured 41 ns a slot doubling to 1-4 M slots, plus a margin


_thread_stacks = threading.local()


def search_stack():
    """The search stack (see ``engine.layout``) of this thread, made once (12 MB, which cost
    more to allocate than most solves take) and reused by every search the thread runs one
    after another: a search starts at depth 0 and writes every entry before it reads it, and
    ``Search.path`` copies what it returns."""
    stack = getattr(_thread_stacks, "stack", None)
    if stack is None:
        stack = _thread_stacks.stack = layout.make_stack(MAX_DEPTH, BUFFERED_MOVES)
    return stack


def dead_end_tables(packed: Packed) -> tuple[np.ndarray, ...]:
    """The pairwise test's tables (see ``engine.h2``) built for the root ``packed``: this
    thread's arrays, made once and rebuilt for every solve (the remembered dead tables of
    ``engine.nogoods`` are forgotten with the deal they belong to)."""
    tables = getattr(_thread_stacks, "dead_ends", None)
    if tables is None:
        tables = _thread_stacks.dead_ends = h2.make_tables()
    h2.build_tables(packed.state, packed.params, tables)
    return tables


def dead_end_counters() -> dict[str, int]:
    """What the pairwise tests did in this thread's last solve: full tests, of them dead,
    checks of the remembered dead tables, of them dead, the widenings of dead tables tried and
    kept (``engine.nogoods.widen``), and whether the test over triples ran on the root and
    proved it dead (``engine.h3``)."""
    tables = getattr(_thread_stacks, "dead_ends", None)
    header = tables[h2.H2_HEADER] if tables is not None else np.zeros(h2.HEADER_SIZE, dtype=np.int64)
    slots = {
        "tests": h2.HEADER_CALLS,
        "dead": h2.HEADER_DEAD,
        "nogood_checks": h2.HEADER_NOGOOD_CALLS,
        "nogood_dead": h2.HEADER_NOGOOD_DEAD,
        "widen_tries": h2.HEADER_WIDEN_TRIES,
        "widen_kept": h2.HEADER_WIDEN_KEPT,
        "root_triples": h2.HEADER_ROOT_TRIPLES,
        "root_triples_dead": h2.HEADER_ROOT_DEAD,
    }
    return {name: int(header[slot]) for name, slot in slots.items()}


class Budget:
    """Nodes, time and memory left for one solve; ``spent`` names what ran out."""

    def __init__(self, limits: Limits, on_bound=None):
        """``on_bound(bound, length)``: told each time ``--minimal`` proves that no line is
        shorter than ``bound`` moves, the shortest line found so far being ``length`` long."""
        self.limits = limits
        self.on_bound = on_bound
        self.started = time.perf_counter()
        self.nodes = 0
        self.spent = None
        # While searching, Ctrl-C only sets this flag, which the search reads between chunks
        # (so it stops within a chunk, about CHUNK_SECONDS, with a clean unknown verdict); a
        # process that ignores SIGINT (a batch worker) keeps ignoring it.
        self.ctrl_c = StopFlag((signal.SIGINT,), second_raises=False, keep_ignored=True)

    @property
    def interrupted(self) -> bool:
        return self.ctrl_c.requested

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def time_left(self) -> float:
        if self.limits.time_limit is None:
            return float("inf")
        return self.limits.time_limit - self.elapsed()

    def nodes_left(self) -> float:
        return float("inf") if self.limits.max_nodes is None else self.limits.max_nodes - self.nodes


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
        dead_ends: tuple[np.ndarray, ...] | None = None,
        deal_score: int = 0,
    ):
        """``dead_ends``: the pairwise test's tables for this root, shared by the searches of
        one solve (built here when not given); ``deal_score``: the stock deal's place in the
        move order (``moves``' "The stock deal's place")."""
        self.packed = packed
        self.dead_ends = dead_end_tables(packed) if dead_ends is None else dead_ends
        self.max_slots = max(FIRST_TABLE_SLOTS, 1 << int(np.log2(memory_bytes // table.ENTRY_BYTES)))
        self.table = table.make_table(min(FIRST_TABLE_SLOTS, self.max_slots))
        self.stack = search_stack()
        self.control = search.make_control(
            mode, options, limit, self.grow_at(), branch_limit, deal_score, PAIRS_SPACING, COSTLY_AFTER
        )
        self.peak_entries = 0
        p = packed
        search.search_start(
            p.state, p.params, p.zobrist, p.column_keys, self.table, self.stack, self.control, self.dead_ends
        )

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
        is kept to within a chunk); then the table fills up instead, which costs only speed."""
        slots = self.entries().shape[0] * 2
        if slots * REHASH_SECONDS_PER_SLOT > budget.time_left():
            self.control[layout.CONTROL_GROW_AT] = np.iinfo(np.int64).max
            return
        bigger = table.make_table(slots)
        table.rehash(self.entries(), bigger[table.TABLE_ENTRIES], bigger[table.TABLE_COUNTERS])
        self.table = bigger
        self.control[layout.CONTROL_GROW_AT] = self.grow_at()

    def run(self, budget: Budget, node_cap: float = float("inf")) -> int:
        """Search until a verdict, the budget runs out, or this search has expanded
        ``node_cap`` nodes; return the engine status."""
        p = self.packed
        chunk = 20_000
        status = self.control[layout.CONTROL_STATUS]
        while status not in (search.SOLVED, search.EXHAUSTED):
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
            status = search.search_chunk(
                p.state,
                p.params,
                p.zobrist,
                p.column_keys,
                self.table,
                self.stack,
                self.control,
                self.dead_ends,
                limit,
            )
            budget.nodes += int(self.control[layout.CONTROL_NODES]) - before_nodes
            chunk = adapt_chunk(chunk, int(self.control[layout.CONTROL_NODES]) - before_nodes, before_time)
            if status == search.GROW:
                self.grow(budget)
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


def adapt_chunk(chunk: int, nodes: int, started: float) -> int:
    """Aim each chunk at CHUNK_SECONDS so the clock is read often but cheaply."""
    seconds = time.perf_counter() - started
    if nodes < chunk or seconds <= 0:
        return chunk
    return int(min(max(nodes * CHUNK_SECONDS / seconds, 1_000), 5_000_000))


def solve_position(
    board: Board,
    rules: Rules,
    limits: Limits | None = None,
    options: int = moves.ALL_REDUCTIONS,
    on_bound=None,
) -> Result:
    """Decide a position. A solved result's line has been replayed as a win on the
    reference engine; unsolvable only comes from an exhausted, untruncated search.
    ``on_bound``: see ``Budget`` (the progress of ``limits.minimal``)."""
    check_board(board, rules)
    warm_up()
    limits = limits or Limits()
    budget = Budget(limits, on_bound)
    packed = pack(board, rules)
    with budget.ctrl_c:
        return decide(board, rules, packed, options, budget)


# Wall seconds the first compilation took on the project's 2-core machine
# (benchmarks/bench_cold_start.py), for the notice a new user sees while waiting.
COMPILE_SECONDS = 50


# The compile notice and the cache warning, each one line as the command line prints it on
# stderr (``solver.cli`` shows this logger's lines bare); warnings, so that a program that sets
# up no logging sees them on stderr too (Python's last-resort handler), and can silence them.
LOG = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def warm_up() -> None:
    """Compile the kernels (or load them from the on-disk cache) once per process, on a
    one-move position, so that no solve's time limit pays for it. The first process of a
    machine to get here compiles (saying so once through ``LOG``, never on stdout);
    processes that arrive meanwhile wait for it and load its cache."""
    if jit.CACHE_NOTE:
        LOG.warning("warning: %s", jit.CACHE_NOTE)
    one_card_left = Board(((make_card(KING, 0),),) + ((),) * 6, (0,) * 7, (12, 13, 13, 13))
    with jit.compile_lock():
        compiling = not jit.cache_is_complete()
        if compiling:
            LOG.warning("compiling the solver, once per machine: about %d s", COMPILE_SECONDS)
        packed = pack(one_card_left, Rules())
        decide(one_card_left, Rules(), packed, moves.ALL_REDUCTIONS, Budget(Limits()))
        root_dead(packed, dead_end_tables(packed), moves.ALL_REDUCTIONS)  # called from Python on hard deals
        root_triples_dead(packed, dead_end_tables(packed), moves.ALL_REDUCTIONS)
        loss_reason(one_card_left, Rules(), 0)  # its kernels, called from Python on lost deals
        if compiling:
            jit.mark_cache_complete()


def decide(board: Board, rules: Rules, packed: Packed, options: int, budget: Budget) -> Result:
    dead_ends = dead_end_tables(packed)
    dfs, status, peak = first_win(packed, dead_ends, options, budget)
    if status == search.EXHAUSTED:
        if dfs.truncated:
            return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), peak, budget=dfs.truncation_cause())
        why = loss_reason(board, rules, budget.nodes)
        return Result(UNSOLVABLE, "", budget.nodes, budget.elapsed(), peak, loss_reason=why)
    if status != search.SOLVED:
        return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), peak, budget=budget.spent)
    line = shorten(board, rules, dfs.path())
    proven, bound = False, None
    if budget.limits.minimal:
        line, proven, peak, bound = shortest_line(board, rules, line, budget, options, peak, dead_ends)
    solution = verified_solution(board, line, rules)
    return Result(
        SOLVED, solution, budget.nodes, budget.elapsed(), peak, proven_minimal=proven, lower_bound=bound
    )


# Probes run before the full search: (branch limit, nodes, guesses added to the options). The
# fourth (the best 4 moves) was added for the hard wins: tuned on the 20 slowest-solved strict
# deals of the study (PySolFC 5596, 3517, 5298, ...: 22.4 M positions in all before, 13.7 M
# with it) and confirmed on the next 20 and on 14 with foundation return (benchmarks/README.md);
# it finds PySolFC 173, unknown after 30 M positions without it, in 0.37 M.
PROBES = (
    (1, 100_000, moves.KEEP_BUILDS),
    (2, 2_000_000, moves.KEEP_BUILDS),
    (3, 4_000_000, moves.KEEP_BUILDS),
    (4, 4_000_000, moves.KEEP_BUILDS),
    (3, 8_000_000, 0),
)
# Places of the stock deal in the move order (``Search``'s ``deal_score``) that each probe tries in
# turn where there is a stock, sharing its nodes; the full search takes the first. On PySolFC
# Milligan deals 1-1,000 at 10 s, each of the first three alone left 1-3 deals unknown and
# held up a few more for seconds, and no deal was hard for all three; the fourth (the deal
# before emptying a column) wins deal 4069, which the three left unknown after 60 s.
DEAL_SCORES = (9, 45, 20, 60)


def first_win(
    packed: Packed, dead_ends: tuple[np.ndarray, ...], options: int, budget: Budget
) -> tuple[Search, int, int]:
    """Depth-first search for a win. Probes that follow only the best 1, 2, 3 moves of
    each position (fresh tables, bounded nodes), the first three also leaving built cards
    on their parents (``moves.KEEP_BUILDS``), find most wins far sooner than the full
    search, whose first wrong turn can hold it for millions of positions; the full search
    then runs with all that is left of the budget. A probe that is exhausted without ever
    cutting a move list has searched everything, so its verdict stands. Returns the
    deciding search, its status and the peak table entries of all."""
    peak = 0
    root = copy_packed(packed)  # the searches move ``packed`` and their copies in place
    for branch_limit, node_cap, probe_options, deal_score in probe_plan(packed.params, options):
        probe = Search(
            copy_packed(packed),
            search.DFS,
            probe_options,
            0,
            budget.limits.memory_bytes,
            branch_limit,
            dead_ends,
            deal_score,
        )
        probe, status = run_testing_root(probe, root, budget, node_cap, options)
        peak = max(peak, probe.peak_entries)
        if settled(probe, status, budget):
            return probe, status, peak
    memory = budget.limits.memory_bytes
    full = Search(packed, search.DFS, options, 0, memory, dead_ends=dead_ends, deal_score=DEAL_SCORES[0])
    full, status = run_testing_root(full, root, budget, float("inf"), options)
    return full, status, max(peak, full.peak_entries)


def run_testing_root(
    searched: Search, root: Packed, budget: Budget, node_cap: float, options: int
) -> tuple[Search, int]:
    """Run ``searched`` up to ``node_cap`` nodes; when the solve passes ROOT_PAIRS_AFTER nodes
    without a verdict, first let the pairwise tests run (``root_dead``), and when it passes
    ROOT_TRIPLES_AFTER, test the root over triples (``root_triples_dead``): a root a test proves
    lost returns its proof (a search of the root, exhausted at once) in place of ``searched``."""
    dead_ends = searched.dead_ends
    header = dead_ends[h2.H2_HEADER]
    stages = (
        (ROOT_PAIRS_AFTER, h2.HEADER_PAIRS_ON, root_dead),
        (ROOT_TRIPLES_AFTER, h2.HEADER_ROOT_TRIPLES, root_triples_dead),
    )
    for after, done, root_test in stages:
        if header[done]:
            continue
        own_cap = searched.control[layout.CONTROL_NODES] + max(after - budget.nodes, 0)
        status = searched.run(budget, min(node_cap, own_cap))
        if settled(searched, status, budget) or budget.nodes < after:
            return searched, status
        if root_test(root, dead_ends, options):
            proof = Search(root, search.DFS, options, 0, FIRST_TABLE_SLOTS, dead_ends=dead_ends)
            return proof, proof.run(budget)
    return searched, searched.run(budget, node_cap)


def settled(probe: Search, status: int, budget: Budget) -> bool:
    """Has the probe decided the deal (a win, or an exhaustive search), or the budget run out?"""
    return (
        status == search.SOLVED or (status == search.EXHAUSTED and not probe.truncated) or bool(budget.spent)
    )


def root_dead(packed: Packed, dead_ends: tuple[np.ndarray, ...], options: int) -> bool:
    """Let the pairwise tests run from now on, and does the test (when on) prove the root lost?
    Called once the solve has searched ROOT_PAIRS_AFTER positions without a verdict, so
    easy deals never pay for a test; every search started after it tests its root (the
    proof of a dead root is such a search, exhausted at once), and with ``moves.H2_SEARCH``
    the positions after it (``engine.search.pairs_due``)."""
    dead_ends[h2.H2_HEADER][h2.HEADER_PAIRS_ON] = 1
    return bool(options & moves.H2) and bool(h2.h2_dead(packed.state, packed.params, dead_ends))


def root_triples_dead(packed: Packed, dead_ends: tuple[np.ndarray, ...], options: int) -> bool:
    """Does the test over triples (``engine.h3``, when on) prove the root lost? Run once a solve
    (it records that it ran, and a dead root's keys for the proof's search)."""
    dead_ends[h2.H2_HEADER][h2.HEADER_ROOT_TRIPLES] = 1
    p = packed
    return bool(options & moves.TRIPLES) and bool(
        h3.test_root(p.state, p.params, p.zobrist, p.column_keys, dead_ends)
    )


def probe_plan(params: np.ndarray, options: int):
    """The probes' (branch limit, node cap, options, deal score); a probe whose branch limit,
    options and deal score repeat an earlier one's is left out (it would search the same space
    again)."""
    deal_scores = DEAL_SCORES if params[layout.STOCK_SIZE] > 0 else DEAL_SCORES[:1]
    planned, searched = [], set()
    for branch_limit, node_cap, guesses in PROBES:
        guessed = options | (guesses if guessing_matters(params) else 0)
        for score in deal_scores:
            if (branch_limit, guessed, score) not in searched:
                searched.add((branch_limit, guessed, score))
                planned.append((branch_limit, node_cap // len(deal_scores), guessed, score))
    return planned


def guessing_matters(params: np.ndarray) -> bool:
    """KEEP_BUILDS only drops moves of cards with more than one card to build on: never in
    one-deck russian, where a card builds on one card only (its probes would merely repeat
    the plain ones)."""
    return not (params[layout.SAME_SUIT] and params[layout.CARD_COUNT] == 52)


def shortest_line(board, rules, line, budget, options, peak, dead_ends):
    """IDA* from the root with limits below the known line's length. Each iteration that
    is exhausted without truncation proves no line of that length exists, so every line is
    at least the next limit long (the lower bound, told to ``budget.on_bound``); the first
    line found is then minimal. Returns (line, proven minimal, peak entries, lower bound)."""
    packed = pack(board, rules)
    limit = int(search.remaining_cost(packed.state, packed.params))
    while limit < len(line):
        if budget.on_bound is not None:
            budget.on_bound(limit, len(line))
        ida = Search(
            pack(board, rules), search.IDA, options, limit, budget.limits.memory_bytes, dead_ends=dead_ends
        )
        status = ida.run(budget)
        peak = max(peak, ida.peak_entries)
        if status == search.SOLVED:
            return [decode(int(move)) for move in ida.path()], not ida.truncated, peak, limit
        if status != search.EXHAUSTED or ida.truncated:
            return line, False, peak, limit
        limit = int(ida.control[layout.CONTROL_NEXT_LIMIT])
    return line, True, peak, len(line)


def shorten(board: Board, rules: Rules, path: np.ndarray) -> list[Move]:
    """The engine's line with shortcuts taken (see ``engine.shortcut``), as Moves."""
    root = pack(board, rules)
    shortened = np.empty_like(path)
    keys = np.empty((len(path) + 1, 2), dtype=np.uint64)
    shortcut.line_keys(root.state, root.params, root.zobrist, root.column_keys, path, keys)
    order = np.argsort(keys[:, 0])
    kept = shortcut.shortcut_line(
        root.state, root.params, root.zobrist, root.column_keys, path, keys, order, shortened
    )
    return [decode(int(move)) for move in shortened[:kept]]


class ReplayMismatch(RuntimeError):
    """The engine produced a line the reference engine does not accept as a win: a bug."""


def verified_solution(board: Board, line: list[Move], rules: Rules) -> str:
    """The line's tokens, after replaying the tokens themselves on the reference engine
    (``notation.replayed_line``: each token read back to the move it names, and made)."""
    try:
        text, final = replayed_line(board, line, rules)
    except reference.IllegalMove as error:
        raise ReplayMismatch(f"engine line rejected by the reference engine: {error}") from None
    if not reference.is_won(final):
        raise ReplayMismatch("engine line does not end in a win on the reference engine")
    return text
