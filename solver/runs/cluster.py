"""A Dask cluster: chunks of deals as tasks, on a scheduler's workers or a LocalCluster.

Workers must import this solver at this version (checked before any task is sent). A task
that fails as a whole is retried one deal a task, so the deal at fault is stored as an
unknown record naming the failure while the others are solved.
"""

import logging
import os
import signal
import time
from collections import deque
from contextlib import suppress

import solver
from solver.errors import YukonError, error_line
from solver.interrupts import POLL_SECONDS
from solver.runs.solve_deal import exception_reason, solve_chunk

# Deals per Dask task.
DASK_CHUNK = 20


def import_distributed():
    """The ``distributed`` module, or a YukonError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise YukonError("--dask needs the dask extra: pip install 'yukon-solver[dask]'") from None
    return distributed


def dask_client(distributed, address: str, jobs: int):
    """A Client for ``address`` (``local``: a new LocalCluster on loopback) and its cluster."""
    cluster = None
    try:
        if address == "local":
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
    return solver.__version__


def check_dask_workers(client, address: str) -> None:
    """Every worker present must import this solver at this version, or every deal would
    be stored as a failure (or results of two versions would mix)."""
    try:
        versions = client.run(solver_version)
    except Exception as error:
        raise YukonError(
            f"Dask workers at {address} cannot run yukon-solver: {exception_reason(error)}"
        ) from None
    others = sorted({version for version in versions.values() if version != solver.__version__})
    if others:
        raise YukonError(
            f"Dask workers at {address} run yukon-solver {', '.join(others)}, not {solver.__version__}"
        )


def run_dask(address, jobs, chunk_size, deals, arguments, on_record, stop, make_failure) -> bool:
    """Send chunks of ``deals`` to a Dask cluster, handing each record to ``on_record``;
    False if ``stop`` was requested before the end."""
    distributed = import_distributed()
    client, cluster = dask_client(distributed, address, jobs)
    pending: dict = {}
    completed = distributed.as_completed()
    retry_alone: deque[list[int]] = deque()
    source_left = True

    def submit_more():
        nonlocal source_left
        window = max(2 * sum(client.nthreads().values()), 4)
        while len(pending) < window:
            if retry_alone:
                chunk = retry_alone.popleft()
            elif source_left:
                chunk = [deal for _, deal in zip(range(chunk_size), deals)]
                if len(chunk) < chunk_size:
                    source_left = False
                if not chunk:
                    return
            else:
                return
            future = client.submit(solve_chunk, chunk, *arguments, pure=False)
            pending[future] = chunk
            completed.add(future)

    try:
        check_dask_workers(client, address)
        submit_more()
        while pending:
            if stop.requested:
                client.cancel(list(pending))
                if cluster is not None:
                    kill_local_workers(cluster)
                return False
            batch = completed.next_batch(block=False)
            if not batch:
                time.sleep(POLL_SECONDS / 2)
                continue
            for future in batch:
                chunk = pending.pop(future)
                try:
                    records = future.result()
                except Exception as error:  # a task that failed as a whole
                    if len(chunk) > 1:
                        retry_alone.extend([deal] for deal in chunk)
                    else:
                        on_record(make_failure(chunk[0], f"dask task failed: {exception_reason(error)}"))
                    continue
                for record in records:
                    on_record(record)
            submit_more()
        return True
    finally:
        with suppress(Exception):
            client.close()
        if cluster is not None:
            with suppress(Exception):
                cluster.close()


def kill_local_workers(cluster) -> None:
    """Stop a LocalCluster's worker processes at once: a worker busy in a solve would
    otherwise finish its deal (up to the time limit) before the cluster can close."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        with suppress(Exception):
            os.kill(nanny.process.pid, signal.SIGKILL)
