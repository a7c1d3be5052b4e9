"""Board → packed arrays → numba search → move line → reference replay → Result.

``estimate_position`` is the same search without the checks that make a verdict (the line's
replay, the loss's reason): players that solve many sampled worlds a move use it, and play
every move on the reference engine themselves."""

from dataclasses import dataclass

import numpy as np

from solver.engine import layout, moves, search
from solver.engine.dead_ends.arrays import HEADER_PAIRS_ON, HEADER_ROOT_TRIPLES, DeadEndTables
from solver.engine.groups import LOSS, PAIRS, SEARCH, TRIPLES
from solver.game.board import Board, check_board
from solver.game.reference import Move
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE, Proof, Result, Status
from solver.search.budget import Budget
from solver.search.config import DEFAULT, SearchConfig
from solver.search.dead_ends import dead_end_tables, root_pairs_dead, root_triples_dead
from solver.search.lines import shorten, verified_solution
from solver.search.loss_reason import loss_reason
from solver.search.packing import Packed, copy_packed, decode, pack
from solver.search.readiness import kernels_ready, warm_up
from solver.search.searching import Search


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


@dataclass(frozen=True)
class Estimate:
    """What the search found for a position, unchecked: ``status`` as in ``Result``, and for a
    win (when asked for) its shortened ``line``."""

    status: Status
    line: tuple[Move, ...] | None = None


def estimate_position(
    board: Board, rules: Rules, max_nodes: int, with_line: bool = True, config: SearchConfig = DEFAULT
) -> Estimate:
    """The search of ``solve_position`` within ``max_nodes`` positions (no time limit), without
    what makes its answer a verdict: a win's line is not replayed on the reference engine, a
    loss gets no reason. It is an estimate for a player's sampled worlds, never a verdict to
    report or store: the player plays each move it chooses on the reference engine, and a game
    it wins is replayed before it is stored (so an engine line the reference engine would refuse
    can mislead a player's choice, never reach a record; ``tests/test_estimates.py`` holds the
    estimates to the verdicts). The board is checked as ``solve_position`` does. Where the
    process runs out of memory after the search (a verdict's replay or loss reason), a verdict
    is unknown and the estimate is what the search found."""
    check_board(board, rules)
    warm_up()
    budget = Budget(Limits(max_nodes=max_nodes, time_limit=None))
    packed = pack(board, rules)
    with budget.searching():
        dfs, status, _peak = looked_then_searched(
            packed, dead_end_tables(), moves.ALL_REDUCTIONS, config, budget
        )
        found = found_status(dfs, status)
        line = tuple(shorten(board, rules, dfs.path())) if found == SOLVED and with_line else None
        return Estimate(found, line)
    return Estimate(UNKNOWN)  # no memory left


def found_status(dfs: Search | None, status: int) -> Status:
    """What a search's end says, before any check: solved, unsolvable (exhausted, never cut short)
    or unknown."""
    if status == search.SOLVED:
        return SOLVED
    if status == search.EXHAUSTED and not dfs.truncated:
        return UNSOLVABLE
    return UNKNOWN


def decide(
    board: Board, rules: Rules, packed: Packed, options: int, config: SearchConfig, budget: Budget
) -> Result:
    dead_ends = dead_end_tables()
    dfs, status, peak = looked_then_searched(packed, dead_ends, options, config, budget)
    found = found_status(dfs, status)
    if found == UNKNOWN:
        cause = dfs.truncation_cause() if status == search.EXHAUSTED else budget.spent
        return Result(UNKNOWN, "", budget.nodes, budget.elapsed(), peak, budget=cause)
    if found == UNSOLVABLE:
        kernels_ready(LOSS, budget)
        why = loss_reason(board, rules, budget.nodes, dfs.proof)
        return Result(UNSOLVABLE, "", budget.nodes, budget.elapsed(), peak, loss_reason=why, proof=dfs.proof)
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


def looked_then_searched(
    packed: Packed, dead_ends: DeadEndTables, options: int, config: SearchConfig, budget: Budget
) -> tuple[Search | None, int, int]:
    """The first look, then, unless it won or the budget ran out, the search (``first_win``, its
    kernels made ready first). Returns the deciding search (None when the budget ran out before
    the look searched anything: its status is then PAUSED), its status and the peak table entries
    of all."""
    look, status, looked_peak = first_look(packed, dead_ends, options, config, budget)
    if status == search.SOLVED or budget.spent is not None:
        return look, status, looked_peak
    kernels_ready(SEARCH, budget)
    dfs, status, peak = first_win(packed, dead_ends, options, config, budget)
    return dfs, status, max(peak, looked_peak)


def first_look(
    packed: Packed, dead_ends: DeadEndTables, options: int, config: SearchConfig, budget: Budget
) -> tuple[Search | None, int, int]:
    """The probes of ``first_win``, searched by the lean kernels (``groups.LEAN``: no dead-end
    test, so none of their kernels need compiling) for at most the config's ``first_look_nodes``
    positions in all: most easy deals are won here. Only a win counts: whatever else the look
    ends with, the solve goes on with ``first_win`` as if it had not looked (``Budget.look_over``),
    the look's positions counted among those searched (a lean probe exhausted without a cut move
    list would prove the deal lost, but that is left to the search). Returns the last search (None
    when the look searched nothing), its status (PAUSED unless it won) and the peak table entries
    of all.

    A win here is the win ``first_win`` finds, move for move. Each probe is a depth-first search
    in a fixed move order with a table of positions seen; leaving out a sound dead-end test only
    adds positions from which no win can be reached (the subtrees below positions the test would
    have cut). A winnable position is only ever reached from a winnable one, and whether it was
    seen before depends only on the winnable positions searched before it, so both searches expand
    the same winnable positions in the same order and meet the same first win; the look merely
    searches more positions on its way there. What that needs, and the look's size keeps: no probe
    reaches its own node cap within the look (the smallest is 25,000 positions), and no table turns
    a position away (the look stops at half the first table's slots, where it would first grow);
    and, as everywhere, no two positions share both hash keys."""
    look, status, peak = None, search.PAUSED, 0
    left = min(config.first_look_nodes, config.first_table_slots // 2, budget.nodes_left())
    for planned in probe_plan(packed.params, options, config) if left > 0 else ():
        look = probe_search(packed, planned, dead_ends, config, budget, lean=True)
        status = look.run(budget, min(planned[1], left))
        peak, left = max(peak, look.peak_entries), left - int(look.control[layout.CONTROL_NODES])
        if status == search.SOLVED or left <= 0 or budget.spent:
            break
    if status == search.SOLVED:
        return look, status, peak
    budget.look_over()
    return look, search.PAUSED, peak


def probe_search(
    packed: Packed, planned: tuple, dead_ends: DeadEndTables, config: SearchConfig, budget: Budget, lean=False
) -> Search:
    """A search of a copy of ``packed`` for one of ``probe_plan``'s probes (``planned``: its branch
    limit, node cap, options and deal score), by the lean kernels when ``lean``."""
    branch_limit, _node_cap, probe_options, deal_score = planned
    memory = budget.limits.memory_bytes
    searched = (search.DFS, probe_options, 0, memory, branch_limit, dead_ends, deal_score, config)
    return Search(copy_packed(packed), *searched, lean=lean)


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
    for planned in probe_plan(packed.params, options, config):
        probe = probe_search(packed, planned, dead_ends, config, budget)
        probe, status = run_testing_root(probe, root, budget, planned[1], options)
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
