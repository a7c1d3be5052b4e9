"""Running a batch: solve a range of deals in parallel into a results store, resumably.

``run_batch`` walks the range in ascending order, skips deals the store has already
decided (and unknown ones unless asked to retry them), and hands the rest to local worker
processes (``pool``) or to a Dask cluster (``cluster``). Workers only solve; every record
comes back to this process, which writes it to the store in its own transaction (``loop``).
Each deal is claimed in the store before it is solved (``claims``), so runs sharing a store
share the work.
"""

from solver.errors import YukonError
from solver.game.numbering import check_deal_number
from solver.game.ranges import DealRange, merge
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.record import DECIDED, LARGEST_INTEGER, finite_or_none, now_text
from solver.results.result import UNKNOWN
from solver.runs.claims import ClaimedDeals, ClaimKeeper
from solver.runs.cluster import DASK_QUEUED
from solver.runs.deal_record import deal_record, failure_record
from solver.runs.loop import Execution, run_deals
from solver.runs.report import RunReport
from solver.runs.work import Work
from solver.store import Retry, Store


def as_deal_range(deals) -> DealRange:
    """A DealRange from a DealRange, a range or integers."""
    if isinstance(deals, DealRange):
        return deals
    if isinstance(deals, range) and deals.step == 1:
        return DealRange(((deals.start, deals.stop - 1),) if deals else ())
    numbers = list(deals)
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int):
            raise YukonError(f"deal number {number!r} is not an integer")
    return DealRange(merge((number, number) for number in numbers))


def run_batch(
    deals,
    rules: Rules,
    numbering: str,
    store_path,
    limits: Limits | None = None,
    jobs: int | None = None,
    retry_unknown: bool = False,
    dask: str | None = None,
    progress: bool = True,
    *,
    chunk_size: int = DASK_QUEUED,
    solve_one=deal_record,
    resume_command: str | None = None,
    stream=None,
) -> RunReport:
    """Solve ``deals`` (a DealRange or integers) into the store at ``store_path``.

    Deals the store already decided are skipped; unknown ones too unless ``retry_unknown``.
    ``jobs`` local worker processes (default, and at most: every usable core, and no more
    than the deals to solve), or, with ``dask``, a Dask scheduler address or ``"local"`` (a
    LocalCluster of ``jobs`` single-thread workers), ``chunk_size`` deals in flight per
    worker thread. ``solve_one(deal, rules, numbering, limits) -> Record`` must be a
    module-level function (it is sent to the workers). Runs sharing a store share the work
    (``claims``). On Ctrl-C or SIGTERM the run stops, saying how to resume, and the
    report's ``exit_status`` is 128 + the signal number.
    """
    limits = Limits() if limits is None else limits
    deals = as_deal_range(deals)
    check_arguments(deals, rules, numbering, limits, jobs, chunk_size)
    execution = Execution(jobs, dask, chunk_size, progress, stream)
    skip = DECIDED if retry_unknown else (*DECIDED, UNKNOWN)
    work = Work(rules, numbering, limits, solve_one, failure_record)
    with execution.opened(store_path, rules, numbering) as store:
        return solve_pending(store, store_path, deals, skip, work, execution, resume_command)


def solve_pending(
    store: Store, store_path, deals: DealRange, skip, work: Work, execution: Execution, resume_command=None
) -> RunReport:
    """Solve into ``store`` the deals of ``deals`` whose stored status is not in ``skip``,
    each claimed first (``claims``)."""
    to_solve = store.count_pending(deals, skip)
    report = RunReport(str(store_path), deals.count, deals.count - to_solve, to_solve)
    execution.say(
        f"{work.rules.label()} ({work.numbering}): {deals.count} deals in range, {report.skipped} already "
        f"in {store_path}, solving {to_solve} with {execution.where(to_solve)}"
    )

    def store_record(record):
        contradiction = store.write(record)
        if contradiction is None:
            return record.status, None
        report.contradictions.append(contradiction)
        return record.status, f"CONTRADICTION (stored verdict kept): {contradiction}"

    claimed = ClaimedDeals(
        store, store.pending(deals, skip), skip, retry_of(skip, work.settings), execution.say
    )
    with ClaimKeeper(claimed):
        run_deals(claimed, work, store_record, report, execution, resume_command=resume_command)
    return report


def retry_of(skip, limits: Limits) -> Retry | None:
    """What a run that retries unknown deals (``skip`` lacks unknown) leaves to other runs."""
    if UNKNOWN in skip:
        return None
    return Retry(now_text(), limits.max_nodes, finite_or_none(limits.time_limit))


def check_arguments(deals: DealRange, rules: Rules, numbering: str, limits: Limits, jobs, chunk_size) -> None:
    """Refuse arguments a run cannot honour, before the store is opened."""
    if jobs is not None and jobs < 1:
        raise YukonError(f"--jobs must be at least 1, not {jobs}")
    if chunk_size < 1:
        raise YukonError(f"chunk size must be at least 1, not {chunk_size}")
    if limits.max_nodes is not None and not 1 <= limits.max_nodes <= LARGEST_INTEGER:
        raise YukonError(f"--max-nodes {limits.max_nodes} must lie in 1..{LARGEST_INTEGER}")
    if deals.intervals:
        check_deal_number(rules.variant, deals.first, numbering)
        check_deal_number(rules.variant, deals.last, numbering)
