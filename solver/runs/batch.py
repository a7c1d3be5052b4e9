"""Running a batch: solve a range of deals in parallel into a results store, resumably.

``run_batch`` walks the range in ascending order, skips deals the store has already
decided (and unknown ones unless asked to retry them), and hands the rest to local worker
processes (``pool``) or to a Dask cluster (``cluster``). Workers only solve; every record
comes back to this process, which writes it to the store in its own transaction, so a run
killed at any moment loses nothing committed and running the same command again resumes it.
Each deal is claimed in the store before it is solved (``claims``), so runs sharing a store
share the work.
"""

import os
import sys
import time
from collections import Counter
from contextlib import ExitStack, closing
from dataclasses import dataclass, field

from solver.errors import YukonError
from solver.interrupts import StopFlag, exit_status
from solver.numbering import check_deal_number
from solver.ranges import DealRange, merge
from solver.record import DECIDED, LARGEST_INTEGER
from solver.result import UNKNOWN, Limits
from solver.rules import Rules
from solver.runs.claims import ClaimedDeals, ClaimKeeper
from solver.runs.cluster import DASK_QUEUED, dask_session, run_dask
from solver.runs.pool import run_local
from solver.runs.progress import Progress
from solver.runs.solve_deal import failure_record, solve_deal
from solver.store import Store


@dataclass
class BatchReport:
    """What a run did: deals in range, skipped as already stored, to solve, solved by
    verdict, the signal that stopped it (None for a completed run), and the contradictions
    met (a new verdict solved where the store said unsolvable, or the reverse)."""

    store: str
    in_range: int
    skipped: int
    to_solve: int
    counts: Counter = field(default_factory=Counter)
    interrupted_by: int | None = None
    seconds: float = 0.0
    contradictions: list[str] = field(default_factory=list)

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    @property
    def interrupted(self) -> bool:
        return self.interrupted_by is not None

    @property
    def exit_status(self) -> int:
        """0 for a completed run; 128 + the signal (130 for Ctrl-C) for a stopped one."""
        return exit_status(self.interrupted_by) if self.interrupted else 0


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


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


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
    solve_one=solve_deal,
    resume_command: str | None = None,
    stream=None,
) -> BatchReport:
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
    stream = sys.stderr if stream is None else stream
    limits = Limits() if limits is None else limits
    deals = as_deal_range(deals)
    check_arguments(deals, rules, numbering, limits, jobs, chunk_size)
    jobs = min(jobs or default_jobs(), default_jobs())
    skip = DECIDED if retry_unknown else (*DECIDED, UNKNOWN)
    started = time.monotonic()
    with ExitStack() as stack:
        client, cluster = stack.enter_context(dask_session(dask, jobs)) if dask else (None, None)
        store = stack.enter_context(Store.open_for_run(store_path, rules, numbering))
        to_solve = store.count_pending(deals, skip)
        jobs = max(1, min(jobs, to_solve))
        report = BatchReport(str(store_path), deals.count, deals.count - to_solve, to_solve)
        label = f"{rules.label()} ({numbering})"
        if progress:
            where = f"Dask {dask}" if dask else f"{jobs} worker{'s' if jobs != 1 else ''}"
            print(
                f"{label}: {deals.count} deals in range, {report.skipped} already in {store_path}, "
                f"solving {to_solve} with {where}",
                file=stream,
                flush=True,
            )
        if to_solve == 0:
            return report
        bar = stack.enter_context(closing(Progress(to_solve, label, progress, stream)))

        def on_record(record):
            contradiction = store.write(record)
            if contradiction is not None:
                report.contradictions.append(contradiction)
                bar.message(f"CONTRADICTION (stored verdict kept): {contradiction}")
            report.counts[record.status] += 1
            bar.update(record)

        def make_failure(deal, reason):
            return failure_record(deal, rules, numbering, limits, reason)

        arguments = (rules, numbering, limits, solve_one)
        claimed = ClaimedDeals(store, store.pending(deals, skip), skip)
        try:
            with StopFlag() as stop, ClaimKeeper(claimed):
                if dask is not None:
                    completed = run_dask(
                        client, cluster, chunk_size, claimed, arguments, on_record, stop, make_failure
                    )
                else:
                    completed = run_local(claimed, jobs, arguments, on_record, stop, make_failure)
                report.interrupted_by = None if completed else stop.signal
        finally:
            report.seconds = time.monotonic() - started
    if report.interrupted:
        again = f": {resume_command}" if resume_command else ""
        print(
            f"stopped: {report.done} new results saved in {store_path}, "
            f"{to_solve - report.done} deals left; run the same command again to resume{again}",
            file=stream,
            flush=True,
        )
    return report


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
