"""Catalogue candidates from a results store: its solved deals of one tier, rated by the
player's reference greedy (``solver.player.difficulty.rate_solved``), with the shortest
line the minimal mode finds within a budget where that pays.

Lines must be found without foundation return, so that each is legal with the option on
or off: a store made with foundation return is refused. Deals of the range that the store
has not decided are solved into it first (``solver.runs``, with its progress bar).
"""

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from solver.catalogue.entries import RatedDeal
from solver.errors import YukonError
from solver.interrupts import passing_ctrl_c_on
from solver.numbering import deal_board
from solver.player.difficulty import MIN_RUNS, rate_solved
from solver.ranges import DealRange
from solver.record import Record
from solver.result import SOLVED, Limits
from solver.rules import Rules
from solver.runs.batch import run_batch
from solver.runs.report import RunReport
from solver.solve import solve_position
from solver.store import Store

# The minimal mode is given up when its first TRIALS attempts shorten no line (Yukon: IDA*
# rarely finishes within seconds; Russian: it proves a shorter line in ~0.3 s).
TRIALS = 20
RATING_SEED = 0


def check_store(path: Path, variant: str, numbering: str) -> None:
    """Refuse a store of another variant or numbering, or one made with foundation return."""
    with Store.open_existing(path) as store:
        rules = store.rules
        if rules.foundation_return:
            raise YukonError(
                f"results store {path} was made with foundation return; catalogue lines must be "
                "found without it (valid under both rule sets): use a store made without it"
            )
        if (rules.variant, store.numbering) != (variant, numbering):
            raise YukonError(
                f"results store {path} holds {rules.variant} deals ({store.numbering} numbering), "
                f"not {variant} ({numbering})"
            )


def solve_missing(
    path: Path, variant: str, numbering: str, deals: DealRange, time_limit: float, jobs: int | None
) -> RunReport:
    """Solve into the store every deal of ``deals`` it has not decided (progress on stderr);
    KeyboardInterrupt when Ctrl-C stopped that (the run has said what it kept)."""
    if path.exists():
        check_store(path, variant, numbering)
    report = run_batch(deals, Rules(variant), numbering, path, Limits(time_limit=time_limit), jobs)
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
    records: list[Record], variant: str, numbering: str, tier: str, shortener: Shortener
) -> Iterator[RatedDeal]:
    """The solved ``records`` whose rating (R = ``MIN_RUNS`` greedy runs) falls in ``tier``,
    each with its shortest line found (progress on stderr)."""
    rules = Rules(variant)
    for record in tqdm(records, desc=f"rating {variant}", unit="deal", leave=False):
        board = deal_board(variant, record.deal, numbering)
        rating = rate_solved(board, rules, record, MIN_RUNS, RATING_SEED)
        if rating.tier != tier:
            continue
        yield RatedDeal(
            variant=variant,
            numbering=numbering,
            deal=record.deal,
            board=board.to_text(),
            solution=shortener.line(board, rules, record.solution),
            runs=rating.runs,
            seed=rating.seed,
            failures=rating.failures,
            tier=tier,
        )
