"""Catalogue candidates from a results store: its solved deals of one tier, rated by the
player's reference greedy (``solver.player.difficulty.rate_solved``) and, where the rule
set's ladder is calibrated, scored by the ladder (whose difficulty then gives the tier),
with the shortest line the minimal mode finds within a budget where that pays.

The store must be of the catalogue's rule set: a line found with foundation return may
use it, and its catalogue says so. Deals of the range that the store has not decided are
solved into it first (``solver.runs``, with its progress bar).
"""

from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from solver.catalogue.entries import RatedDeal, failure_score
from solver.common.interrupts import passing_ctrl_c_on
from solver.errors import YukonError
from solver.game.numbering import deal_board
from solver.game.ranges import DealRange
from solver.game.rules import Rules
from solver.player.difficulty import MIN_RUNS, calibration, ladder_rating, ladder_rungs, rate_solved
from solver.results.limits import Limits
from solver.results.record import Record
from solver.results.result import SOLVED
from solver.runs.batch import run_batch
from solver.runs.report import RunReport
from solver.search.solve import solve_position
from solver.store import Store

# The minimal mode is given up when its first TRIALS attempts shorten no line (Yukon: IDA*
# rarely finishes within seconds; Russian: it proves a shorter line in ~0.3 s).
TRIALS = 20
RATING_SEED = 0


def check_store(path: Path, rules: Rules, numbering: str) -> None:
    """Refuse a store of another rule set or numbering."""
    with Store.open_existing(path) as store:
        if (store.rules, store.numbering) != (rules, numbering):
            raise YukonError(
                f"results store {path} holds {store.rules.describe()} deals ({store.numbering} numbering), "
                f"not {rules.describe()} ({numbering})"
            )


def solve_missing(
    path: Path, rules: Rules, numbering: str, deals: DealRange, time_limit: float, jobs: int | None
) -> RunReport:
    """Solve into the store every deal of ``deals`` it has not decided (progress on stderr);
    KeyboardInterrupt when Ctrl-C stopped that (the run has said what it kept)."""
    if path.exists():
        check_store(path, rules, numbering)
    report = run_batch(deals, rules, numbering, path, Limits(time_limit=time_limit), jobs)
    if report.interrupted:
        raise KeyboardInterrupt
    return report


def solved_records(path: Path, deals: DealRange | None) -> list[Record]:
    """The store's solved records, in deal order, within ``deals`` (None: all of them)."""
    with Store.open_existing(path) as store:
        return [
            record
            for record in store.records()
            if record.status == SOLVED and (deals is None or record.deal in deals)
        ]


@dataclass
class Shortener:
    """The minimal mode with ``seconds`` a deal, until ``TRIALS`` attempts in a row have
    shortened nothing (then it no longer pays). Counts what it did."""

    seconds: float
    tried: int = 0
    shortened: int = 0
    moves_saved: int = 0

    @property
    def pays(self) -> bool:
        return self.seconds > 0 and (self.shortened > 0 or self.tried < TRIALS)

    def line(self, board, rules: Rules, solution: str) -> str:
        """``solution``, or a shorter winning line when the minimal mode finds one in time."""
        if not self.pays:
            return solution
        self.tried += 1
        with passing_ctrl_c_on():
            short = solve_position(board, rules, Limits(time_limit=self.seconds, minimal=True))
        saved = len(solution.split()) - short.solution_length
        if short.status != SOLVED or saved <= 0:
            return solution
        self.shortened += 1
        self.moves_saved += saved
        return short.solution


def tier_candidates(
    records: list[Record],
    rules: Rules,
    numbering: str,
    wanted: dict[str, int],
    shortener: Shortener,
    ladder=None,
) -> list[RatedDeal]:
    """The first solved ``records`` of each tier, up to ``wanted[tier]`` of them, each with
    its shortest line found (progress on stderr); a tier not in ``wanted`` is passed over.
    The tier is the ladder's (``ladder``: a ``ladder_games.LadderGames`` of the rule set,
    whose calibration gives the tiers), or without one the greedy rating's (R =
    ``MIN_RUNS`` runs). Rating stops once every tier has what it wants."""
    model = calibration(rules.label()) if ladder is not None else None
    wanted, taken = dict(wanted), []
    for record in tqdm(records, desc=f"rating {rules.label()}", unit="deal", leave=False):
        if not any(wanted.values()):
            break
        board = deal_board(rules.variant, record.deal, numbering)
        rating = rate_solved(board, rules, record, MIN_RUNS, RATING_SEED)
        scored = None
        if model:
            games = ladder.results(record.deal, board, ladder_rungs(rules.label()))
            scored = ladder_rating(games, model, failure_score(rating.failures, rating.runs))
        tier = (scored or rating).tier
        if not wanted.get(tier):
            continue
        wanted[tier] -= 1
        taken.append(
            RatedDeal(
                variant=rules.variant,
                numbering=numbering,
                deal=record.deal,
                board=board.to_text(),
                solution=shortener.line(board, rules, record.solution),
                runs=rating.runs,
                seed=rating.seed,
                failures=rating.failures,
                tier=tier,
                foundation_return=rules.foundation_return,
                ladder=scored,
            )
        )
    return taken
