"""The skeleton every run shares (solving, playing, rating): where its work goes, and the
loop that hands deals to the workers, each answer to the run's store, shows progress, and
stops on Ctrl-C or SIGTERM saying how to resume.

Workers only compute; every answer comes back to this process, which stores it (in its own
transaction), so a run killed at any moment loses nothing stored and running the same
command again resumes it.
"""

import os
import sys
import time
from collections.abc import Callable
from contextlib import closing, contextmanager
from dataclasses import dataclass, field

from solver.common.interrupts import StopFlag
from solver.errors import counted
from solver.runs.cluster import DASK_QUEUED, dask_session, run_dask
from solver.runs.pool import run_local
from solver.runs.progress import VERDICTS, Progress
from solver.runs.report import RunReport
from solver.runs.work import Work
from solver.store import Store

# The kind of answer a deal that failed and was not stored counts as.
FAILED = "failed"
# The longest command the line of a stopped run repeats (a longer one, a list of thousands
# of deals, is only referred to).
RESUME_CHARS = 300


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


@dataclass
class Execution:
    """Where a run's work goes: ``jobs`` local worker processes (None: every usable core,
    and never more) or, with ``dask``, a Dask scheduler's address (``local``: a LocalCluster
    of ``jobs`` single-thread workers), ``chunk_size`` deals in flight per worker thread;
    progress shown on ``stream``."""

    jobs: int | None
    dask: str | None = None
    chunk_size: int = DASK_QUEUED
    progress: bool = True
    stream: object = None
    # The Dask session's client and LocalCluster (None: a remote scheduler), while it lasts.
    client: object = field(default=None, init=False)
    cluster: object = field(default=None, init=False)

    def __post_init__(self):
        self.jobs = min(self.jobs or default_jobs(), default_jobs())
        self.stream = sys.stderr if self.stream is None else self.stream

    @contextmanager
    def opened(self, store_path, rules, numbering: str):
        """The store at ``store_path`` opened for the run, once the Dask session (if any) is
        up, so that a failed connection leaves no store file; both closed on exit."""
        with self.session(), Store.open_for_run(store_path, rules, numbering) as store:
            yield store

    @contextmanager
    def session(self):
        """The Dask client and cluster while the run lasts (nothing for local workers)."""
        if self.dask is None:
            yield
            return
        with dask_session(self.dask, self.jobs) as (self.client, self.cluster):
            yield

    def where(self, to_do: int) -> str:
        """Who does the work, as the run's first line says."""
        if self.dask:
            return f"Dask {self.dask}"
        jobs = self.workers(to_do)
        return counted(jobs, "worker")

    def workers(self, to_do: int) -> int:
        """Local worker processes for ``to_do`` deals: ``jobs``, at most one a deal."""
        return max(1, min(self.jobs, to_do))

    def say(self, text: str) -> None:
        """A line of the run's progress, when progress is shown."""
        if self.progress:
            print(text, file=self.stream, flush=True)


def run_deals(
    deals,
    work: Work,
    store_answer: Callable,
    report: RunReport,
    execution: Execution,
    kinds=VERDICTS,
    resume_command: str | None = None,
) -> None:
    """Run ``work`` on ``deals`` (an iterator that may yield None for "none yet, ask again";
    ``report.to_do`` of them), handing each answer to ``store_answer(answer) -> (kind,
    note)``: the answer's kind (FAILED when it was not stored) and a line the user must see
    (or None). Sets the report's counts, stopping signal and seconds (nothing to do: nothing
    is done)."""
    if report.to_do == 0:
        return
    started = time.monotonic()
    label = f"{work.rules.label()} ({work.numbering})"
    with closing(Progress(report.to_do, label, execution.progress, execution.stream, kinds)) as bar:

        def on_answer(answer) -> None:
            kind, note = store_answer(answer)
            if note is not None:
                bar.message(note)
            if kind != FAILED:
                report.counts[kind] += 1
            bar.update(kind)

        try:
            with StopFlag() as stop:
                if execution.dask is not None:
                    completed = run_dask(
                        execution.client,
                        execution.cluster,
                        execution.chunk_size,
                        deals,
                        work,
                        on_answer,
                        stop,
                    )
                else:
                    completed = run_local(deals, execution.workers(report.to_do), work, on_answer, stop)
                report.interrupted_by = None if completed else stop.signal
        finally:
            report.seconds = time.monotonic() - started
    if report.interrupted:
        print(stopped_line(report, resume_command), file=execution.stream, flush=True)


def stopped_line(report: RunReport, resume_command: str | None) -> str:
    """What a stopped run says: what it saved, what is left, and how to resume (the command
    itself when it is at most RESUME_CHARS long)."""
    again = f": {resume_command}" if resume_command and len(resume_command) <= RESUME_CHARS else ""
    return (
        f"stopped: {counted(report.done, 'new result')} saved in {report.store}, "
        f"{counted(report.to_do - report.done, 'deal')} left; run the same command again to resume{again}"
    )
