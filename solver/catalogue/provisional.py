"""Phase-1 candidates: deals solved now, rated by solver effort until the player's
difficulty rating (failure rate of a non-peeking greedy player) and the results store are
wired in. Replace ``solved_candidates`` by a reader of rated store rows; the builder only
needs ``RatedDeal`` records.

Provisional score: ``min(1, log10(1 + nodes) / 6)``, where ``nodes`` is what the solver
expanded to find its first win (a deal won along the solver's first guesses scores low).
Tiers: easy below 0.36 (about 140 nodes), normal below 0.45 (about 500), hard from 0.45.
"""

import math
from collections.abc import Iterable, Iterator

from tqdm import tqdm

from solver.catalogue.entries import RatedDeal
from solver.numbering import deal_board
from solver.result import SOLVED, Limits
from solver.rules import Rules
from solver.solve import solve_position

TIER_BOUNDS = ((0.36, "easy"), (0.45, "normal"), (math.inf, "hard"))


def effort_score(nodes: int) -> float:
    return min(1.0, math.log10(1 + nodes) / 6)


def effort_tier(score: float) -> str:
    return next(tier for bound, tier in TIER_BOUNDS if score < bound)


def solved_candidates(
    variant: str, numbering: str, deals: Iterable[int], time_limit: float, minimal_seconds: float
) -> Iterator[RatedDeal]:
    """Solve each deal without foundation return (progress on stderr); yield the solved
    ones, with the shortest line IDA* finds in ``minimal_seconds`` (0: the first line)."""
    rules = Rules(variant)
    for number in tqdm(list(deals), desc=f"solving {variant}", unit="deal", leave=False):
        board = deal_board(variant, number, numbering)
        first = solve_position(board, rules, Limits(time_limit=time_limit))
        if first.status != SOLVED:
            continue
        line = first.solution
        if minimal_seconds > 0:
            short = solve_position(board, rules, Limits(time_limit=minimal_seconds, minimal=True))
            if short.status == SOLVED and short.solution_length < first.solution_length:
                line = short.solution
        score = effort_score(first.nodes)
        yield RatedDeal(variant, numbering, number, board.to_text(), line, score, effort_tier(score))
