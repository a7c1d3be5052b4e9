"""Difficulty of a deal the solver proved solvable, for players who cannot peek: the
ladder's score, and the greedy rating it grew from.

**The ladder score** (``ladder_rating``; what a catalogue of a calibrated rule set ships):
the rungs of ``ladder.LADDER`` (greedy, 32 games a deal; sampling with 2 samples and 500
nodes, one game on the deals greedy won at most a quarter of the time; sampling with 4
samples and 1,000 nodes, one game on the deals both lost that way) play the deal, as many
rungs as the rule set's calibration has skills (``ladder_calibration``), and a Rasch fit
(``rasch``) with those skills turns their wins into one difficulty in logits, with its
standard error. The tier is a threshold on it, calibrated per rule set on the thirds of its
solvable deals (``benchmarks/bench_ladder.py calibrate``), unless the calibration keeps a
``tiering`` (``model_tier``): the tiers of an earlier, shorter ladder, where the refined
score would move shipped entries to another tier, or (release 0.1.0's files) the greedy
failure rate's. The ladder's games of a deal are fixed by the deal, so the same version and
deal always give the same score.

**Generation 2** files (``solver.catalogue.generation``) are scored the same way by
``ladder.LADDER_2``'s first rungs (the floor rungs below greedy, then greedy and the sampling
rungs), with skills and thresholds fitted for them and stated in each file's
``difficulty_model`` (``stated_model``), which ``ladder_rating`` reads as it reads any.

**The greedy rating** (``rate``, ``yukon rate``, release 0.1.0's catalogues):

A rating plays the greedy player ``runs`` times (R >= 16 for a catalogue) from the deal's
opening, with seeds drawn from ``seed``; its score is the failure rate, and the tier is a
threshold on it (``TIERS``, per variant). The thoughtful line's length and the solver's
nodes are kept as secondary figures. A deal not proved solvable gets no tier. The same
version, deal, runs and seed always give the same rating.

The thresholds are failure rates: a deal is easy when its rate is at most the first,
normal up to the second, hard above. They come from ``benchmarks/bench_player.py
calibrate`` (R = 16, seed 0; figures and split in ``benchmarks/results/
player_calibration_<variant>.json``, and in words in docs/performance.md, "Figures the
engine's and the player's docstrings cite"), which proposes the thresholds that split the
solvable deals nearest to thirds.
"""

import random
from dataclasses import dataclass

import numpy as np

from solver.errors import YukonError
from solver.game.board import Board
from solver.game.rules import Rules
from solver.player.greedy import Greedy
from solver.player.ladder import GATE, LADDER, Rung
from solver.player.ladder_calibration import LADDER_CALIBRATION
from solver.player.rasch import PRIOR_SD, fit_rasch
from solver.results.limits import Limits
from solver.results.result import SOLVED, TIER_NAMES, Result
from solver.search.solve import solve_position
from solver.store.player_rows import RatingFigures as Rating

MIN_RUNS = 16
TIERS = {
    # variant: (easy at most, normal at most) failure rates; above: hard
    "yukon": (0.5, 0.9375),
    "russian": (0.0, 0.9375),
    "milligan": (0.0, 0.125),
}


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


@dataclass(frozen=True)
class LadderRating:
    """A deal's difficulty (logits; higher is harder) with its standard error, from the
    ladder's ``(wins, games)`` per rung, and the tier its thresholds put it in."""

    results: tuple[tuple[int, int], ...]
    difficulty: float
    standard_error: float
    tier: str


def calibration(label: str) -> dict:
    """The ladder calibration of the rule set ``label``; YukonError when it has none."""
    if label not in LADDER_CALIBRATION:
        raise YukonError(
            f"the difficulty ladder is not calibrated for {label} "
            f"(calibrated: {', '.join(LADDER_CALIBRATION) or 'none'})"
        )
    return LADDER_CALIBRATION[label]


def ladder_tier(difficulty: float, thresholds) -> str:
    """The first tier whose threshold the difficulty does not exceed (above all: the last)."""
    return TIER_NAMES[sum(difficulty > most for most in thresholds)]


def fitted(results, skills) -> tuple[float, float]:
    """The difficulty (3 places) and its standard error of ``results`` with ``skills`` held."""
    wins = np.array([[won for won, _games in results]], dtype=float)
    games = np.array([[played for _won, played in results]], dtype=float)
    fit = fit_rasch(wins, games, skill=np.array(skills, dtype=float))
    return round(float(fit.difficulty[0]), 3), round(float(fit.standard_error[0]), 3)


def model_tier(results, difficulty: float, model: dict, score: float | None = None) -> str:
    """The tier ``model`` gives a deal: its ``thresholds`` on the difficulty, or, where the
    model has a ``tiering`` (a file whose tiers were fixed before its scores were refined),
    that one's: ``by`` ``"ladder"``, the thresholds on the difficulty its first ``rungs``
    rungs' games give with its ``skills``; ``by`` ``"score"``, the thresholds on the greedy
    failure rate ``score`` (release 0.1.0's)."""
    tiering = model.get("tiering")
    if tiering is None:
        return ladder_tier(difficulty, model["thresholds"])
    if tiering["by"] == "score":
        return ladder_tier(score, tiering["thresholds"])
    earlier, _error = fitted(results[: tiering["rungs"]], tiering["skills"])
    return ladder_tier(earlier, tiering["thresholds"])


def ladder_rating(results, model: dict, score: float | None = None) -> LadderRating:
    """The rating of a deal from the ladder's ``results`` under ``model`` (a calibration,
    or a catalogue's ``difficulty_model``): its difficulty fitted with the skills held, and
    its tier (``model_tier``; ``score``: the greedy failure rate, for a tiering by it)."""
    if len(results) != len(model["skills"]):
        raise ValueError(f"{len(results)} rungs' games for a model of {len(model['skills'])} rungs")
    difficulty, error = fitted(results, model["skills"])
    tier = model_tier(results, difficulty, model, score)
    return LadderRating(tuple(tuple(pair) for pair in results), difficulty, error, tier)


def ladder_rungs(label: str) -> int:
    """How many rungs of ``LADDER`` score the rule set ``label`` (one skill each)."""
    return len(calibration(label)["skills"])


def model_header(label: str) -> dict:
    """The ``difficulty_model`` a catalogue file states: the model, its prior, the rungs
    with their skills, and the thresholds; enough to recompute every entry's difficulty."""
    model = calibration(label)
    return stated_model(LADDER[: len(model["skills"])], model)


def rung_json(rung: Rung) -> dict:
    """A rung as a file's ``difficulty_model`` states it (``floor`` only when it is one)."""
    floor = {"floor": True} if rung.floor else {}
    return {
        "name": rung.name,
        "policy": rung.policy,
        "settings": dict(rung.settings),
        "games": rung.games,
    } | floor


def stated_model(rungs, model: dict) -> dict:
    """The ``difficulty_model`` of ``rungs`` with ``model``'s skills, thresholds and tiering."""
    tiering = {"tiering": tiering_json(model["tiering"])} if "tiering" in model else {}
    return {
        "model": "rasch",
        "prior_sd": PRIOR_SD,
        "gate": GATE,
        "rungs": [rung_json(rung) for rung in rungs],
        "skills": list(model["skills"]),
        "thresholds": list(model["thresholds"]),
    } | tiering


def tiering_json(tiering: dict) -> dict:
    """A calibration's ``tiering`` as a file states it (lists, not tuples)."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in tiering.items()}
