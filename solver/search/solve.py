"""Board → packed arrays → numba search → move line → reference replay → Result."""

import atexit
import gc
import logging
import threading
import time
from contextlib import contextmanager

import numpy as np

from solver.common.interrupts import KERNELS_THREAD, POLL_SECONDS
from solver.engine import groups, jit, layout, moves, search, table
from solver.engine.dead_ends.arrays import HEADER_PAIRS_ON, HEADER_ROOT_TRIPLES, WORDS, DeadEndTables
from solver.engine.groups import LEAN, LOSS, PAIRS, SEARCH, TRIPLES
from solver.game.board import Board, check_board
from solver.game.cards import KING, make_card
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE, Proof, Result, Spent
from solver.search.budget import Budget
from solver.search.config import DEFAULT, SearchConfig
from solver.search.dead_ends import (
    dead_end_tables,
    light_search_will_do,
    path_position_dead,
    root_pairs_dead,
    root_triples_dead,
    test_path_over_triples,
)
from solver.search.lines import shorten, verified_solution
from solver.search.loss_reason import loss_reason
from solver.search.packing import Packed, copy_packed, decode, pack

_thread_stacks = threading.local()


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
        search_kernels(self.dead_ends, lean)[0](
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
            status = search_kernels(self.dead_ends, self.lean)[1](
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
    """The search kernels (start, chunk): the lean ones when asked (they test no position for a
    dead end); else for a solve's tests so far, the light ones (compiled without the dead-end tests
    beyond HOPELESS) while they search alike."""
    if lean:
        return groups.search_start_lean, groups.search_chunk_lean
    if light_search_will_do(dead_ends):
        return groups.search_start_light, groups.search_chunk_light
    return search.search_start, search.search_chunk


def adapt_chunk(config: SearchConfig, chunk: int, nodes: int, started: float) -> int:
    """Aim each chunk at ``config.chunk_seconds`` so the clock is read often but cheaply."""
    seconds = time.perf_counter() - started
    if nodes < chunk or seconds <= 0:
        return chunk
    aimed = nodes * config.chunk_seconds / seconds
    return int(min(max(aimed, config.smallest_chunk), config.largest_chunk))


def solve_position(
    board: Board,
    rules: Rules,
    limits: Limits | None = None,
    options: int = moves.ALL_REDUCTIONS,
    on_bound=None,
    cancel=None,
    config: SearchConfig = DEFAULT,
) -> Result:
    """Decide a position. A solved result's line has been replayed as a win on the
    reference engine; unsolvable only comes from an exhausted, untruncated search.
    ``on_bound``, ``cancel``: see ``Budget`` (the progress of ``limits.minimal``, a stop);
    ``config``: the search's tuning (``solver.search.config``)."""
    check_board(board, rules)
    warm_up()
    budget = Budget(limits or Limits(), on_bound, cancel)
    packed = pack(board, rules)
    with budget.searching():
        return decide(board, rules, packed, options, config, budget)
    return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), 0, budget=budget.spent)  # no memory left


# The compile notice and the cache warning, each one line as the command line prints it on stderr
# (``solver.cli`` shows this logger's lines bare); warnings, so that a program that sets up no
# logging sees them on stderr too (Python's last-resort handler), and can silence them.
LOG = logging.getLogger(__name__)
ONE_CARD_LEFT = Board(((make_card(KING, 0),),) + ((),) * 6, (0,) * 7, (12, 13, 13, 13))


class KernelsReady:
    """The kernel groups made ready in a process (``groups``, by name), from ``cache`` (a
    ``jit.KernelCache``, whose note is said before the first group). ``READY`` is the process's
    one; a test passes one of its own to ``warm_up`` and ``kernels_ready``."""

    def __init__(self, cache=jit.CACHE):
        self.cache, self.groups = cache, set()


READY = KernelsReady()


def warm_up(ready: KernelsReady = READY) -> None:
    """Make the kernels of a solve's first look ready (compiled, or loaded from the on-disk cache)
    once per process, before any solve's budget starts: see ``kernels_ready``."""
    if ready.cache.note and not ready.groups:
        LOG.warning("warning: %s", ready.cache.note)
    kernels_ready(LEAN, ready=ready)


def kernels_ready(group: jit.KernelGroup, budget: Budget | None = None, ready: KernelsReady = READY) -> None:
    """Make ``group``'s kernels ready in this process (``jit.KernelCache.kernels_ready``: the first
    process of a machine compiles them, saying so through ``LOG``, never on stdout), on a one-move
    position; the seconds that takes are left out of ``budget``'s time."""
    if group.name not in ready.groups:
        with collector_paused():
            seconds = ready.cache.kernels_ready(group, lambda: apart(exercise, group), LOG.warning)
        ready.groups.add(group.name)
        if budget is not None:
            budget.pause(seconds)


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off inside, as it was after: loading or compiling kernels
    makes a great many objects that numba keeps, and the collections their making sets off walk
    them again and again (a tenth of a warm start's time, some of a first compile's)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def apart(function, *arguments) -> None:
    """``function(*arguments)`` in a thread of its own, so that it leaves alone this thread's
    search stack and dead-end tables, which a solve may be using (its error is raised here).
    A daemon thread, waited for where a signal can break in: a Ctrl-C while it compiles stops
    the wait at once, and the process may leave without it (a compile cut short marks no group
    complete)."""
    thread = Apart(function, arguments)
    thread.start()
    # Woken every POLL_SECONDS: a signal that comes just before a wait blocks is only seen once the
    # thread wakes. Not ``join``: Python 3.11's, cut by a Ctrl-C, takes the thread for ended.
    while not thread.done.wait(POLL_SECONDS):
        pass
    if thread.failure is not None:
        raise thread.failure


class Apart(threading.Thread):
    """The thread of ``apart``: ``done`` once ``function(*arguments)`` returned or raised ``failure``."""

    def __init__(self, function, arguments):
        super().__init__(name=KERNELS_THREAD, daemon=True)
        self.function, self.arguments = function, arguments
        self.failure, self.done = None, threading.Event()

    def run(self):
        try:
            self.function(*self.arguments)
        except BaseException as error:  # raised again in the caller's thread
            self.failure = error
        finally:
            self.done.set()


@atexit.register
def wait_for_kernels() -> None:
    """At the exit of a program that stopped waiting for a compile (a Ctrl-C in ``apart``), wait
    for it to end: LLVM torn down under it would abort the process. (The command line leaves
    at once instead: ``solver.cli``.)"""
    for thread in threading.enumerate():
        if isinstance(thread, Apart):
            thread.done.wait()


def exercise(group: jit.KernelGroup) -> None:
    """Call ``group``'s kernels as a solve does, on ONE_CARD_LEFT."""
    packed, everything = pack(ONE_CARD_LEFT, Rules()), moves.ALL_REDUCTIONS
    unlimited = Limits(time_limit=None)
    if group is LEAN:
        look = Search(packed, search.DFS, everything, 0, unlimited.memory_bytes, lean=True)
        look.run(Budget(unlimited))
        shorten(ONE_CARD_LEFT, Rules(), look.path())
        look.grow(Budget(unlimited))
        return
    if group is SEARCH:
        Search(packed, search.DFS, everything, 0, unlimited.memory_bytes).run(Budget(unlimited))
        return
    if group is LOSS:
        loss_reason(ONE_CARD_LEFT, Rules(), 0, Proof.SEARCH)
        return
    dead_ends = dead_end_tables()
    root_pairs_dead(packed, dead_ends, everything)
    tested = Search(packed, search.DFS, everything, 0, DEFAULT.first_table_slots, dead_ends=dead_ends)
    if group is PAIRS:
        tested.run(Budget(unlimited))
    else:
        root_triples_dead(packed, dead_ends, everything)
        path_position_dead(tested, 0)


def decide(
    board: Board, rules: Rules, packed: Packed, options: int, config: SearchConfig, budget: Budget
) -> Result:
    dead_ends = dead_end_tables()
    dfs, status, peak = first_look(packed, dead_ends, options, config, budget)
    if status != search.SOLVED:
        kernels_ready(SEARCH, budget)
        dfs, status, peak = first_win(packed, dead_ends, options, config, budget)
    if status == search.EXHAUSTED:
        if dfs.truncated:
            return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), peak, budget=dfs.truncation_cause())
        kernels_ready(LOSS, budget)
        why = loss_reason(board, rules, budget.nodes, dfs.proof)
        return Result(UNSOLVABLE, "", budget.nodes, budget.elapsed(), peak, loss_reason=why, proof=dfs.proof)
    if status != search.SOLVED:
        return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), peak, budget=budget.spent)
    line = shorten(board, rules, dfs.path())
    proven, bound = False, None
    if budget.limits.minimal:
        kernels_ready(SEARCH, budget)
        shortest = shortest_line(board, rules, line, budget, options, peak, dead_ends, config)
        line, proven, peak, bound = shortest
    solution = verified_solution(board, line, rules)
    return Result(
        SOLVED, solution, budget.nodes, budget.elapsed(), peak, proven_minimal=proven, lower_bound=bound
    )


def first_look(
    packed: Packed, dead_ends: DeadEndTables, options: int, config: SearchConfig, budget: Budget
) -> tuple[Search, int, int]:
    """The probes of ``first_win``, searched by the lean kernels (``groups.LEAN``: no dead-end
    test, so none of their kernels need compiling) for at most the config's ``first_look_nodes``
    positions in all: most easy deals are won here. Only a win counts: whatever else the look
    ends with, the solve goes on with ``first_win`` as if it had not looked (``Budget.look_over``),
    the look's positions counted among those searched. Returns the last search, its status and
    the peak table entries of all.

    A win here is the win ``first_win`` finds, move for move (within the look's positions, no
    probe reaches its own node cap). Each probe is a depth-first search in a fixed move order with
    a table of positions seen; leaving out a sound dead-end test only adds positions from which no
    win can be reached (the subtrees below positions the test would have cut). A winnable position
    is only ever reached from a winnable one, and whether it was seen before depends only on the
    winnable positions searched before it, so both searches expand the same winnable positions in
    the same order and meet the same first win; the look merely searches more positions on its
    way there."""
    peak, left = 0, min(config.first_look_nodes, budget.nodes_left())
    for branch_limit, node_cap, probe_options, deal_score in probe_plan(packed.params, options, config):
        memory = budget.limits.memory_bytes
        searched = (search.DFS, probe_options, 0, memory, branch_limit, dead_ends, deal_score, config)
        look = Search(copy_packed(packed), *searched, lean=True)
        status = look.run(budget, min(node_cap, left))
        peak, left = max(peak, look.peak_entries), left - int(look.control[layout.CONTROL_NODES])
        if status == search.SOLVED or left <= 0 or budget.spent:
            break
    if status != search.SOLVED:
        budget.look_over()
    return look, status, peak


def first_win(
    packed: Packed, dead_ends: DeadEndTables, options: int, config: SearchConfig, budget: Budget
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
    for branch_limit, node_cap, probe_options, deal_score in probe_plan(packed.params, options, config):
        probe = Search(
            copy_packed(packed),
            search.DFS,
            probe_options,
            0,
            budget.limits.memory_bytes,
            branch_limit,
            dead_ends,
            deal_score,
            config,
        )
        probe, status = run_testing_root(probe, root, budget, node_cap, options)
        peak = max(peak, probe.peak_entries)
        if settled(probe, status, budget):
            return probe, status, peak
    memory = budget.limits.memory_bytes
    score = config.deal_scores[0]
    full = Search(packed, search.DFS, options, 0, memory, 0, dead_ends, score, config)
    full, status = run_testing_root(full, root, budget, float("inf"), options)
    return full, status, max(peak, full.peak_entries)


def run_testing_root(
    searched: Search, root: Packed, budget: Budget, node_cap: float, options: int
) -> tuple[Search, int]:
    """Run ``searched`` up to ``node_cap`` nodes; when the solve passes the config's
    ``root_pairs_after`` nodes without a verdict, first let the pairwise tests run (``root_pairs_dead``),
    and when it passes ``root_triples_after``, test the root over triples (``root_triples_dead``): a
    root a test proves lost returns its proof (a search of the root, exhausted at once) in place
    of ``searched``."""
    dead_ends, config = searched.dead_ends, searched.config
    header = dead_ends.header
    stages = (
        (config.root_pairs_after, HEADER_PAIRS_ON, root_pairs_dead, PAIRS, Proof.ROOT_PAIRS),
        (config.root_triples_after, HEADER_ROOT_TRIPLES, root_triples_dead, TRIPLES, Proof.ROOT_TRIPLES),
    )
    for after, done, root_test, kernels, test_proof in stages:
        if header[done]:
            continue
        own_cap = searched.control[layout.CONTROL_NODES] + max(after - budget.plan_nodes, 0)
        status = searched.run(budget, min(node_cap, own_cap))
        if settled(searched, status, budget) or budget.plan_nodes < after:
            return searched, status
        kernels_ready(kernels, budget)
        if root_test(root, dead_ends, options):
            slots = config.first_table_slots
            proof = Search(root, search.DFS, options, 0, slots, dead_ends=dead_ends, config=config)
            proof.proof = test_proof
            return proof, proof.run(budget)
    return searched, searched.run(budget, node_cap)


def settled(probe: Search, status: int, budget: Budget) -> bool:
    """Has the probe decided the deal (a win, or an exhaustive search), or the budget run out?"""
    return (
        status == search.SOLVED or (status == search.EXHAUSTED and not probe.truncated) or bool(budget.spent)
    )


def probe_plan(params: np.ndarray, options: int, config: SearchConfig = DEFAULT):
    """The probes' (branch limit, node cap, options, deal score); a probe whose branch limit,
    options and deal score repeat an earlier one's is left out (it would search the same space
    again)."""
    deal_scores = config.deal_scores if params[layout.STOCK_SIZE] > 0 else config.deal_scores[:1]
    planned, searched = [], set()
    for branch_limit, node_cap, guesses in config.probes:
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


def shortest_line(board, rules, line, budget, options, peak, dead_ends, config):
    """IDA* from the root with limits below the known line's length. Each iteration that
    is exhausted without truncation proves no line of that length exists, so every line is
    at least the next limit long (the lower bound, told to ``budget.on_bound``); the first
    line found is then minimal. Returns (line, proven minimal, peak entries, lower bound)."""
    packed = pack(board, rules)
    limit = int(search.remaining_cost(packed.state, packed.params))
    while limit < len(line):
        if budget.on_bound is not None:
            budget.on_bound(limit, len(line))
        fresh, memory = pack(board, rules), budget.limits.memory_bytes
        ida = Search(fresh, search.IDA, options, limit, memory, dead_ends=dead_ends, config=config)
        status = ida.run(budget)
        peak = max(peak, ida.peak_entries)
        if status == search.SOLVED:
            return [decode(int(move)) for move in ida.path()], not ida.truncated, peak, limit
        if status != search.EXHAUSTED or ida.truncated:
            return line, False, peak, limit
        limit = int(ida.control[layout.CONTROL_NEXT_LIMIT])
    return line, True, peak, len(line)
