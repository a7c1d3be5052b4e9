"""Playing and rating deal ranges into a results store, through the run skeleton
(``loop``) that solving uses: local workers or a Dask cluster, progress, Ctrl-C.

``run_plays`` (``yukon play``): a policy plays every deal of a range ``runs`` times, run r
with the seed ``difficulty.run_seeds(seed, runs)[r]`` (so greedy's games are the games its
ratings count). A deal's games are one unit of work: the worker plays them, the parent
replays every line on the reference engine (a won line must win, every line must be legal)
and stores them in one transaction, keyed by (deal, policy, settings, seed, run). A run
killed at any moment keeps every stored deal; running it again plays only the deals that
lack a game of the series, and replays replace identical rows, never add to them.

``run_ratings`` (``yukon rate``): first the solver decides what the store does not hold yet
(``run_batch``, skipping stored verdicts), then the greedy reference player rates each
stored deal (one rating per transaction), beside its verdict; a deal whose verdict has
changed since its rating is rated again.

What the workers run is in ``player_work``: a fault on a deal is reported and not stored,
so the deal is retried by the next run.
"""

from solver.errors import ArgumentError, YukonError, counted
from solver.game.numbering import check_deal_number
from solver.game.rules import Rules
from solver.player.difficulty import rating_of
from solver.player.policies import make_policy
from solver.results.limits import Limits
from solver.results.record import LARGEST_INTEGER, STATUSES
from solver.runs.batch import as_deal_range, check_arguments, solve_pending
from solver.runs.cluster import DASK_QUEUED
from solver.runs.deal_record import deal_record, failure_record
from solver.runs.loop import FAILED, Execution, run_deals
from solver.runs.player_work import (
    DealWork,
    PlaySeries,
    RatingSeries,
    check_line,
    count_failures,
    failed_deal,
    play_games,
    play_row,
    rating_row,
)
from solver.runs.report import RunReport
from solver.runs.work import Work

PLAYED, RATED = "played", "rated"
# A rating run solves only the deals the store holds no verdict of.
STORED = STATUSES
# The most games a deal a series plays (their seeds are drawn up front, and stored one a row).
MAX_RUNS = 1_000_000


def play_series(policy: str, settings: dict, runs: int, seed: int, rules: Rules | None = None) -> PlaySeries:
    """A checked series: the policy exists, its settings are valid (completed with its
    defaults, as ``rules`` plays them when given), runs is positive and seed fits the store."""
    check_count("--runs", runs, MAX_RUNS)
    check_seed(seed)
    full = make_policy(policy, **settings).settings(rules)
    return PlaySeries(policy, tuple(sorted(full.items())), runs, seed)


def check_count(option: str, value: int, largest: int = LARGEST_INTEGER) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise YukonError(f"{option} must be a positive integer, not {value!r}")
    if value > largest:
        raise YukonError(f"{option} must be at most {largest:,}, not {value}")


def check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ArgumentError("seed", f" must be a whole number from 0 to 2**63 - 1, not {seed!r}")


def run_plays(
    deals,
    rules: Rules,
    numbering: str,
    store_path,
    series: PlaySeries,
    jobs=None,
    progress=True,
    stream=None,
    *,
    dask: str | None = None,
    chunk_size: int = DASK_QUEUED,
    play_one=play_games,
) -> RunReport:
    """Play ``series`` on every deal of ``deals`` that lacks one of its games in the store,
    on ``jobs`` local workers or the Dask cluster ``dask`` (as ``run_batch``). ``play_one``
    (module-level: it is sent to the workers) is ``play_games`` but in tests."""
    deals = checked_range(deals, rules, numbering)
    execution = Execution(checked_jobs(jobs), dask, chunk_size, progress, stream)
    with execution.opened(store_path, rules, numbering) as store:
        pending = store.pending_plays(deals, series.policy, series.settings_text, series.seed, series.runs)
        report = RunReport(str(store_path), deals.count, deals.count - len(pending), len(pending))
        execution.say(
            f"{rules.label()} ({numbering}): {deals.count} deals in range, {report.skipped} already played "
            f"in {store_path}, playing {len(pending)} ({counted(series.runs, series.policy + ' game')} each)"
        )

        def store_games(work: DealWork):
            if work.error is not None:
                return failed(work, report)
            for game in work.games:
                check_line(game, rules)
            store.write_plays([play_row(game, series, run) for run, game in enumerate(work.games)])
            return PLAYED, None

        work = Work(rules, numbering, series, play_one, failed_deal)
        run_deals(iter(pending), work, store_games, report, execution, (PLAYED, FAILED))
    return report


def run_ratings(
    deals,
    rules: Rules,
    numbering: str,
    store_path,
    series: RatingSeries,
    limits: Limits,
    jobs=None,
    progress=True,
    stream=None,
    *,
    dask: str | None = None,
    chunk_size: int = DASK_QUEUED,
) -> RunReport:
    """Solve what the store lacks of ``deals`` (as ``run_batch``, skipping every stored
    verdict), then rate every stored deal of them, on ``jobs`` local workers or the Dask
    cluster ``dask``; a stopped solve is the report."""
    deals = checked_range(deals, rules, numbering)
    check_count("--runs", series.runs, MAX_RUNS)
    check_seed(series.seed)
    check_arguments(deals, rules, numbering, limits, checked_jobs(jobs), chunk_size)
    execution = Execution(jobs, dask, chunk_size, progress, stream)
    with execution.opened(store_path, rules, numbering) as store:
        solving = Work(rules, numbering, limits, deal_record, failure_record)
        solved = solve_pending(store, store_path, deals, STORED, solving, execution)
        if solved.interrupted:
            return solved
        verdicts = {
            deal: figures for deal, *figures in store.pending_ratings(deals, series.runs, series.seed)
        }
        report = RunReport(str(store_path), deals.count, deals.count - len(verdicts), len(verdicts))
        games = counted(series.runs, "greedy game")
        execution.say(f"rating {counted(len(verdicts), 'deal')} ({games} each, seed {series.seed})")

        def store_rating(work: DealWork):
            if work.error is not None:
                return failed(work, report)
            rating = rating_of(work.failures, series.runs, series.seed, rules.variant, *verdicts[work.deal])
            store.write_rating(rating_row(work.deal, rating, rules, numbering))
            return RATED, None

        work = Work(rules, numbering, series, count_failures, failed_deal)
        run_deals(iter(verdicts), work, store_rating, report, execution, (RATED, FAILED))
    return report


def failed(work: DealWork, report: RunReport) -> tuple[str, str]:
    """A deal that failed: listed in the report's errors and shown, not stored."""
    report.errors.append(f"deal {work.deal}: {work.error}")
    return FAILED, f"error on {report.errors[-1]}"


def checked_jobs(jobs: int | None) -> int | None:
    """``jobs`` (None: every usable core); YukonError unless positive."""
    if jobs is not None:
        check_count("--jobs", jobs)
    return jobs


def checked_range(deals, rules: Rules, numbering: str):
    deals = as_deal_range(deals)
    if deals.intervals:
        check_deal_number(rules.variant, deals.first, numbering)
        check_deal_number(rules.variant, deals.last, numbering)
    return deals
