"""Difficulty: how often a fixed reference player who cannot peek (greedy) fails a deal
that the solver proved solvable.

A rating plays the greedy player ``runs`` times (R >= 16 for a catalogue) from the deal's
opening, with seeds drawn from ``seed``; its score is the failure rate, and the tier is a
threshold on it (``TIERS``, per variant). The thoughtful line's length and the solver's
nodes are kept as secondary figures. A deal not proved solvable gets no tier. The same
version, deal, runs and seed always give the same rating.

The thresholds are failure rates: a deal is easy when its rate is at most the first,
normal up to the second, hard above. They come from ``benchmarks/bench_player.py
calibrate`` (R = 16, seed 0; figures and split in ``benchmarks/results/
player_calibration_<variant>.json``, and in words in benchmarks/README.md, "Figures the
engine's and the player's docstrings cite"), which proposes the thresholds that split the
solvable deals nearest to thirds.
"""

import random
from dataclasses import dataclass

from solver.board import Board
from solver.errors import YukonError
from solver.player.greedy import Greedy
from solver.result import SOLVED, TIER_NAMES, Limits, Result
from solver.rules import Rules
from solver.solve import solve_position

MIN_RUNS = 16
TIERS = {
    # variant: (easy at most, normal at most) failure rates; above: hard
    "yukon": (0.5, 0.9375),
    "russian": (0.0, 0.9375),
    "milligan": (0.0, 0.125),
}


@dataclass(frozen=True)
class Rating:
    """``tier`` is easy, normal or hard, or None when the deal is not proved solvable."""

    runs: int
    seed: int
    failures: int
    tier: str | None
    status: str
    thoughtful_length: int | None
    solver_nodes: int

    @property
    def failure_rate(self) -> float:
        return self.failures / self.runs


def run_seeds(seed: int, runs: int) -> list[int]:
    """The seeds of the reference player's runs, drawn from ``seed``."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(runs)]


def tier_of(failure_rate: float, variant: str) -> str:
    """The tier whose threshold is the first the rate does not exceed (above all: the last)."""
    return TIER_NAMES[sum(failure_rate > most for most in TIERS[variant])]


def greedy_failures(board: Board, rules: Rules, runs: int = MIN_RUNS, seed: int = 0) -> int:
    """How many of the greedy player's ``runs`` games from ``board`` (seeds drawn from
    ``seed``) are lost."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise YukonError(f"runs must be a positive integer, not {runs!r}")
    return runs - sum(Greedy().wins(board, rules, run_seeds(seed, runs)))


def rating_of(
    failures: int, runs: int, seed: int, variant: str, status: str, thoughtful_length: int, solver_nodes: int
) -> Rating:
    """The rating of a deal the greedy player failed ``failures`` times in ``runs``, beside
    the solver's verdict ``status`` (its line's length and nodes): a tier only when solved."""
    solved = status == SOLVED
    return Rating(
        runs=runs,
        seed=seed,
        failures=failures,
        tier=tier_of(failures / runs, variant) if solved else None,
        status=status,
        thoughtful_length=thoughtful_length if solved else None,
        solver_nodes=solver_nodes,
    )


def rate_solved(board: Board, rules: Rules, result: Result, runs: int = MIN_RUNS, seed: int = 0) -> Rating:
    """The rating of ``board`` given the solver's ``result`` for it (as a store holds it)."""
    failures = greedy_failures(board, rules, runs, seed)
    return rating_of(failures, runs, seed, rules.variant, result.status, result.solution_length, result.nodes)


def rate(
    board: Board, rules: Rules, runs: int = MIN_RUNS, seed: int = 0, limits: Limits | None = None
) -> Rating:
    """Solve ``board`` (under ``limits``), then rate it."""
    return rate_solved(
        board, rules, solve_position(board, rules, limits or Limits(time_limit=10.0)), runs, seed
    )
