"""A Dask cluster: one task per deal, on a scheduler's workers or a LocalCluster.

Workers must import this solver at this version (checked before any task is sent). Each
deal's record comes back as soon as it is solved, so Ctrl-C or a lost worker loses no
finished result, and a few deals still spread over every worker. A deal whose task fails
(Dask gives up after losing workers on it) gets the work's failed answer naming the failure
(solving: an unknown record).
"""

import logging
import os
import signal
import tempfile
import time
from contextlib import contextmanager, suppress

from solver.common.interrupts import POLL_SECONDS
from solver.errors import YukonError, error_line
from solver.runs.work import Work, exception_reason, run_task
from solver.version import __version__

# Deals in flight per Dask worker thread (each deal is its own task).
DASK_QUEUED = 2
END = object()


def import_distributed():
    """The ``distributed`` module, or a YukonError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise YukonError("--dask needs the dask extra: pip install 'yukon-solver[dask]'") from None
    return distributed


def dask_client(distributed, address: str, jobs: int, scratch: str | None = None):
    """A Client for ``address`` (``local``: a new LocalCluster on loopback whose scheduler and
    workers keep their files and lock files in the folder ``scratch``) and its cluster."""
    cluster = None
    try:
        if address == "local":
            import dask

            with dask.config.set({"temporary-directory": scratch}):  # read as the processes start
                cluster = distributed.LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
            return distributed.Client(cluster), cluster
        return distributed.Client(address, timeout="30s"), None
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        text = error_line(error)
        if address == "local":
            raise YukonError(f"cannot start a local Dask cluster: {text}") from None
        raise YukonError(f"cannot connect to the Dask scheduler at {address}: {text}") from None


def solver_version() -> str:
    """Run on every Dask worker: the version of the solver it imports."""
    return __version__


def check_dask_workers(client, address: str) -> None:
    """Every worker present must import this solver at this version, or every deal would
    be stored as a failure (or results of two versions would mix)."""
    try:
        versions = client.run(solver_version)
    except Exception as error:
        raise YukonError(
            f"Dask workers at {address} cannot run yukon-solver: {exception_reason(error)}"
        ) from None
    others = sorted({version for version in versions.values() if version != __version__})
    if others:
        raise YukonError(f"Dask workers at {address} run yukon-solver {', '.join(others)}, not {__version__}")


def run_dask(client, cluster, queued, deals, work: Work, on_answer, stop) -> bool:
    """Run ``work`` on ``deals`` (an iterator that may yield None for "none yet, ask again")
    on a Dask cluster, one task per deal and ``queued`` deals per worker thread at most in
    flight, handing each answer to ``on_answer`` as soon as its deal is done; False if
    ``stop`` was requested before the end. A deal whose task fails (a worker lost on it
    again and again) gets ``work.failure``."""
    distributed = import_distributed()
    pending: dict = {}
    completed = distributed.as_completed()
    source_left = True

    def submit_more():
        nonlocal source_left
        window = max(queued * sum(client.nthreads().values()), 1)
        while source_left and len(pending) < window:
            deal = next(deals, END)
            if deal is END:
                source_left = False
            if deal is END or deal is None:
                return
            future = client.submit(run_task, deal, work, pure=False)
            pending[future] = deal
            completed.add(future)

    submit_more()
    while pending or source_left:
        if stop.requested:
            client.cancel(list(pending))
            if cluster is not None:
                kill_local_workers(cluster)
            return False
        for future in completed.next_batch(block=False) if pending else ():
            deal = pending.pop(future)
            try:
                answer = future.result()
            except Exception as error:  # the task failed as a whole
                answer = work.failure(deal, f"dask task failed: {exception_reason(error)}")
            on_answer(answer)
        submit_more()
        time.sleep(POLL_SECONDS / 2)
    return True


@contextmanager
def dask_session(address: str, jobs: int):
    """A Client of the cluster at ``address`` whose workers run this solver, and the
    LocalCluster it started (None for a remote scheduler); both closed on exit, and the
    LocalCluster's scratch folder (its workers' files and lock files) removed."""
    with tempfile.TemporaryDirectory(prefix="yukon-dask-", ignore_cleanup_errors=True) as scratch:
        client, cluster = dask_client(import_distributed(), address, jobs, scratch)
        try:
            check_dask_workers(client, address)
            yield client, cluster
        finally:
            with suppress(Exception):
                client.close()
            if cluster is not None:
                with suppress(Exception):
                    cluster.close()


def kill_local_workers(cluster) -> None:
    """Stop a LocalCluster's worker processes at once: a worker busy in a solve would
    otherwise finish its deal (up to the time limit) before the cluster can close. (Windows
    has no SIGKILL; there any signal but Ctrl-C's ends a process at once.)"""
    kill = getattr(signal, "SIGKILL", signal.SIGTERM)
    for nanny in list(getattr(cluster, "workers", {}).values()):
        with suppress(Exception):
            os.kill(nanny.process.pid, kill)
