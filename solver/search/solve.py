"""Board → packed arrays → numba search → move line → reference replay → Result."""

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np

from solver.engine import groups, h2, jit, layout, moves, search, table
from solver.engine.groups import LOSS, PAIRS, SEARCH, TRIPLES
from solver.game.board import Board, check_board
from solver.game.cards import KING, make_card
from solver.game.rules import Rules
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE, Proof, Result, Spent
from solver.search.budget import Budget
from solver.search.dead_ends import dead_end_tables, light_search_will_do, root_dead, root_triples_dead
from solver.search.limits import Limits
from solver.search.lines import shorten, verified_solution
from solver.search.loss_reason import loss_reason
from solver.search.packing import Packed, copy_packed, decode, pack
from solver.search.path_ration import path_test_due

# The longest path a search follows, and the moves its positions may hold in all: a
# depth-first search of a large space wanders far (Russian deals with foundation return went
# past 4,096 moves deep within a second), and the path's move lists share one buffer.
MAX_DEPTH = 1 << 18
BUFFERED_MOVES = 1 << 21
FIRST_TABLE_SLOTS = 1 << 16
ROOT_PAIRS_AFTER = 2_000
# Positions the solve searches without a verdict before the test over triples runs on the root
# (``engine.h3``): about 0.36 s of search, some three times a call on a root (median 0.13 s), so
# a deal it does not decide pays about a third more (docs/hard-tail.md, "Triples at the root").
ROOT_TRIPLES_AFTER = 300_000
# With the root alive, positions of the path with PATH_TRIPLES_AFTER positions below them get the
# test over triples too (``Search.test_path_over_triples``), as often as ``path_ration`` allows.
PATH_TRIPLES_AFTER = 100_000
# Positions searched below a position before its later children get the full pairwise test
# (``engine.search.pairs_due``): tuned on PySolFC 395, 1015, 1251, 2368 among 300, 2000 and
# 10,000, confirmed on 324, 1300 and KPat 20002, 5000064, 5000096 (benchmarks/README.md).
PAIRS_SPACING = 10_000
# Positions searched below a position on the path before it gets the full pairwise test itself
# (``engine.search.test_costly``): tuned on PySolFC 395, 1015, 1251, 2368 and KPat 40092, 40178,
# 700128, 2000173, 2000179 among 1,000 and 3,000 (benchmarks/README.md).
COSTLY_AFTER = 3_000
# Paced tests (``engine.pacing``; 0 leaves the tests, or the checks, unpaced): the search's full
# pairwise tests run while fewer than TESTS_ON_TRIAL plus the positions the tests proved dead, and
# each dead table stored allows CHECKS_PER_TABLE checks of the remembered tables.
# Chosen from the hard list, where the tests prove 7-650 positions dead each and 2-64% of the
# checks find a dead table, against KPat 4000172, 7000007 and PySolFC 9288, where they prove 0-0.3
# and 0-0.04%: a trial of 2,000 tests costs well under a second. Of the hard list only 4000172's
# gates closed (21% less time, 1,522 more positions); of fifteen KPat ranges of 200 deals at 10 s,
# one deal searched other positions (700194, won in 13 more) (docs/hard-tail.md, "Paced tests").
TESTS_ON_TRIAL = 2_000
CHECKS_PER_TABLE = 100_000
# the search's case split on twins runs while fewer than SPLITS_ON_TRIAL plus
# ``engine.pacing.SPLITS_PER_DEAD`` for each position only it proved dead (0: unpaced)
SPLITS_ON_TRIAL = 10_000
CHUNK_SECONDS = 0.02
FIRST_CHUNK = 20_000  # positions of a search's first chunk; later ones aim at CHUNK_SECONDS
# Chunks also end on multiples of this many positions (about 20 ms of search), so the path is
# tested over triples between chunks (``Search.test_path_over_triples``) at the same positions
# whatever the machine's speed: the positions a solve searches do not depend on timing.
CHUNK_ENDS_EVERY = 16_384
REHASH_SECONDS_PER_SLOT = 6e-8  # measured 41 ns a slot doubling to 1-4 M slots, plus a margin

_thread_stacks = threading.local()


def search_stack():
    """The search stack (see ``engine.layout``) of this thread, made once (about 30 MB, its pages
    touched only as a path grows; making it cost more than most solves take) and reused by every
    search the thread runs one after another: a search starts at depth 0 and writes every entry
    before it reads it, and ``Search.path`` copies what it returns."""
    stack = getattr(_thread_stacks, "stack", None)
    if stack is None:
        stack = _thread_stacks.stack = layout.make_stack(MAX_DEPTH, BUFFERED_MOVES, h2.WORDS)
    return stack


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
        self.dead_ends = dead_end_tables() if dead_ends is None else dead_ends
        self.max_slots = max(FIRST_TABLE_SLOTS, 1 << int(np.log2(memory_bytes // table.ENTRY_BYTES)))
        self.table = table.make_table(min(FIRST_TABLE_SLOTS, self.max_slots))
        self.stack = search_stack()
        self.control = search.make_control(
            mode,
            options,
            limit,
            self.grow_at(),
            branch_limit,
            deal_score,
            PAIRS_SPACING,
            COSTLY_AFTER,
            TESTS_ON_TRIAL,
            CHECKS_PER_TABLE,
            SPLITS_ON_TRIAL,
        )
        self.peak_entries = 0
        self.path_tested = set()
        self.proof = Proof.SEARCH  # what an exhausted search proves its root lost by
        p = packed
        search_kernels(self.dead_ends)[0](
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
        if slots * REHASH_SECONDS_PER_SLOT > budget.time_left():
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
        p = self.packed
        chunk = FIRST_CHUNK
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
            limit = min(limit, (before_nodes // CHUNK_ENDS_EVERY + 1) * CHUNK_ENDS_EVERY)
            status = search_kernels(self.dead_ends)[1](
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
            if status in (search.PAUSED, search.GROW):
                self.test_path_over_triples(budget)
        self.peak_entries = max(self.peak_entries, int(self.counters()[table.ENTRY_COUNT]))
        return status

    def test_path_over_triples(self, budget: Budget) -> None:
        """With PATH_TRIPLES, once the root was tested over triples and found alive: the
        shallowest position of the path not yet tested whose subtree holds PATH_TRIPLES_AFTER
        positions gets the test (``engine.search.path_triples_dead``, which leaves it and
        remembers its family when it is dead), rationed per solve."""
        control, header = self.control, self.dead_ends[h2.H2_HEADER]
        if not self.path_tests_allowed(budget):
            return
        nodes, depth = int(control[layout.CONTROL_NODES]), int(control[layout.CONTROL_DEPTH])
        entered = self.stack[layout.STACK_ENTERED]
        for at in range(1, depth + 1):
            if nodes - entered[at] < PATH_TRIPLES_AFTER:
                return
            if (at, int(entered[at])) not in self.path_tested:
                self.path_tested.add((at, int(entered[at])))
                header[h2.HEADER_PATH_TESTS] += 1
                header[h2.HEADER_PATH_DEAD] += self.path_position_dead(at)
                return

    def path_position_dead(self, at: int) -> bool:
        """Test the position at depth ``at`` of the path over triples; a dead one is left."""
        p = self.packed
        return bool(
            search.path_triples_dead(
                p.state, p.params, p.zobrist, p.column_keys, self.stack, self.control, self.dead_ends, at
            )
        )

    def path_tests_allowed(self, budget: Budget) -> bool:
        """May a position of the path be tested over triples now (the option on, a depth-first
        search of a deal with tables, the root tested, the ration not used up, and budget left: a
        call lasts about 0.06-0.3 s)? Foundation return included since the kernels count no references:
        before, a call there cost about twice a strict one beside a slower search, and the tests
        held a won deal (PySolFC 9753) past its 60 s; now it is won in 32 s with them
        (docs/hard-tail.md, "Kernels without reference counting")."""
        control, header = self.control, self.dead_ends[h2.H2_HEADER]
        if (
            not control[layout.CONTROL_OPTIONS] & moves.PATH_TRIPLES
            or control[layout.CONTROL_MODE] != search.DFS
        ):
            return False
        if not header[h2.HEADER_ROOT_TRIPLES] or header[h2.HEADER_FACTS] == 0:
            return False
        if budget.time_left() <= 0 or budget.nodes_left() <= 0 or budget.interrupted:
            return False
        return path_test_due(
            int(header[h2.HEADER_PATH_TESTS]), int(header[h2.HEADER_PATH_DEAD]), budget.nodes
        )

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


def search_kernels(dead_ends: tuple[np.ndarray, ...]):
    """The search kernels (start, chunk) for a solve's tests so far: the light ones (compiled
    without the dead-end tests beyond HOPELESS) while they search alike."""
    if light_search_will_do(dead_ends):
        return groups.search_start_light, groups.search_chunk_light
    return search.search_start, search.search_chunk


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
    cancel=None,
) -> Result:
    """Decide a position. A solved result's line has been replayed as a win on the
    reference engine; unsolvable only comes from an exhausted, untruncated search.
    ``on_bound``, ``cancel``: see ``Budget`` (the progress of ``limits.minimal``, a stop)."""
    check_board(board, rules)
    warm_up()
    budget = Budget(limits or Limits(), on_bound, cancel)
    packed = pack(board, rules)
    with budget.searching():
        return decide(board, rules, packed, options, budget)
    return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), 0, budget=budget.spent)  # no memory left


# The compile notice and the cache warning, each one line as the command line prints it on stderr
# (``solver.cli`` shows this logger's lines bare); warnings, so that a program that sets up no
# logging sees them on stderr too (Python's last-resort handler), and can silence them.
LOG = logging.getLogger(__name__)
ONE_CARD_LEFT = Board(((make_card(KING, 0),),) + ((),) * 6, (0,) * 7, (12, 13, 13, 13))
_ready = set()


def warm_up() -> None:
    """Make the search kernels ready (compiled, or loaded from the on-disk cache) once per
    process, before any solve's budget starts: see ``kernels_ready``."""
    if jit.CACHE_NOTE and not _ready:
        LOG.warning("warning: %s", jit.CACHE_NOTE)
    kernels_ready(SEARCH)


def kernels_ready(group: jit.KernelGroup, budget: Budget | None = None) -> None:
    """Make ``group``'s kernels ready in this process (``jit.kernels_ready``: the first process
    of a machine compiles them, saying so through ``LOG``, never on stdout), on a one-move
    position; the seconds that takes are left out of ``budget``'s time."""
    if group.name not in _ready:
        seconds = jit.kernels_ready(group, lambda: apart(exercise, group), LOG.warning)
        _ready.add(group.name)
        if budget is not None:
            budget.pause(seconds)


def apart(function, *arguments) -> None:
    """``function(*arguments)`` in a thread of its own, so that it leaves alone this thread's
    search stack and dead-end tables, which a solve may be using (its error is raised here)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(function, *arguments).result()


def exercise(group: jit.KernelGroup) -> None:
    """Call ``group``'s kernels as a solve does, on ONE_CARD_LEFT."""
    packed, everything = pack(ONE_CARD_LEFT, Rules()), moves.ALL_REDUCTIONS
    unlimited = Limits(time_limit=None)
    if group is SEARCH:
        decide(ONE_CARD_LEFT, Rules(), packed, everything, Budget(replace(unlimited, minimal=True)))
        Search(packed, search.DFS, everything, 0, unlimited.memory_bytes).grow(Budget(unlimited))
        return
    if group is LOSS:
        loss_reason(ONE_CARD_LEFT, Rules(), 0, Proof.SEARCH)
        return
    dead_ends = dead_end_tables()
    root_dead(packed, dead_ends, everything)
    tested = Search(packed, search.DFS, everything, 0, FIRST_TABLE_SLOTS, dead_ends=dead_ends)
    if group is PAIRS:
        tested.run(Budget(unlimited))
    else:
        root_triples_dead(packed, dead_ends, everything)
        tested.path_position_dead(0)


def decide(board: Board, rules: Rules, packed: Packed, options: int, budget: Budget) -> Result:
    dead_ends = dead_end_tables()
    dfs, status, peak = first_win(packed, dead_ends, options, budget)
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
        (ROOT_PAIRS_AFTER, h2.HEADER_PAIRS_ON, root_dead, PAIRS, Proof.ROOT_PAIRS),
        (ROOT_TRIPLES_AFTER, h2.HEADER_ROOT_TRIPLES, root_triples_dead, TRIPLES, Proof.ROOT_TRIPLES),
    )
    for after, done, root_test, kernels, test_proof in stages:
        if header[done]:
            continue
        own_cap = searched.control[layout.CONTROL_NODES] + max(after - budget.nodes, 0)
        status = searched.run(budget, min(node_cap, own_cap))
        if settled(searched, status, budget) or budget.nodes < after:
            return searched, status
        kernels_ready(kernels, budget)
        if root_test(root, dead_ends, options):
            proof = Search(root, search.DFS, options, 0, FIRST_TABLE_SLOTS, dead_ends=dead_ends)
            proof.proof = test_proof
            return proof, proof.run(budget)
    return searched, searched.run(budget, node_cap)


def settled(probe: Search, status: int, budget: Budget) -> bool:
    """Has the probe decided the deal (a win, or an exhaustive search), or the budget run out?"""
    return (
        status == search.SOLVED or (status == search.EXHAUSTED and not probe.truncated) or bool(budget.spent)
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
