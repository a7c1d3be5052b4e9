"""Local worker processes: long-lived, one deal at a time each, replaced when they die.

Each worker gets one deal at a time (at most PIPELINE outstanding), so the deal a worker
was on when its process died is known exactly: it gets the work's failed answer naming the
cause (solving: an unknown record), the worker is replaced and the run goes on. Workers
ignore Ctrl-C (the parent stops the run) and die with the parent.
"""

import ctypes
import multiprocessing
import os
import signal
from collections import deque
from contextlib import suppress
from multiprocessing.connection import wait

from solver.common.interrupts import POLL_SECONDS, ignore_in_worker, sigint_ignored
from solver.errors import YukonError
from solver.runs.work import Work

# Deals sent to a local worker ahead of the one it is solving.
PIPELINE = 2
# What the deal iterator's end looks like to ``run_local``.
END = object()


def worker_main(connection, work: Work, parent_pid: int) -> None:
    """A worker: receive deal numbers, send back their answers, until told to stop or orphaned."""
    ignore_in_worker()  # the parent handles Ctrl-C and a closed terminal
    die_with_parent(parent_pid)
    try:
        connection.send(("ready", os.getpid()))
        while True:
            deal = connection.recv()
            if deal is None:
                return
            connection.send(("answer", work.run(deal)))
    except (EOFError, OSError):  # the parent has gone
        return


def die_with_parent(parent_pid: int) -> None:
    """Linux: have the kernel kill this worker when the parent dies (e.g. SIGKILL), so an
    orphan does not go on solving for up to a time limit. Best effort elsewhere."""
    with suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(0)


class Worker:
    """One worker process and the deals sent to it, oldest first."""

    def __init__(self, context, work: Work):
        self.connection, child_end = context.Pipe()
        self.process = context.Process(
            target=worker_main, args=(child_end, work, os.getpid()), daemon=True, name="yukon-worker"
        )
        with sigint_ignored():
            self.process.start()
        child_end.close()
        self.pending: deque[int] = deque()
        self.ready = False
        self.gone = False  # a send found the pipe closed: watch the process until its end is seen

    def send(self, deal) -> bool:
        """Send ``deal``; False if the worker has already died (its pipe is closed), and then
        the deal is not pending here: the caller hands it to another worker."""
        try:
            self.connection.send(deal)
        except OSError:  # BrokenPipeError: the process died since the loop last looked at it
            self.gone = True
            return False
        self.pending.append(deal)
        return True

    def receive_all(self):
        """Every message already sent; stops at end of file."""
        messages = []
        try:
            while self.connection.poll():
                messages.append(self.connection.recv())
        except (EOFError, OSError):
            pass
        return messages

    def stop(self, graceful: bool) -> None:
        if graceful and self.process.is_alive():
            with suppress(OSError):
                self.connection.send(None)
            self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.terminate()

    def reap(self) -> None:
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=1)
        self.connection.close()


def run_local(deals, jobs: int, work: Work, on_answer, stop) -> bool:
    """Run ``work`` on ``deals`` (an iterator that may yield None for "none yet, ask again")
    on ``jobs`` worker processes, handing each answer to ``on_answer``; a deal whose worker
    died gets ``work.failure`` instead. False if ``stop`` was requested before the end."""
    context = multiprocessing.get_context("spawn")
    workers = [Worker(context, work) for _ in range(jobs)]
    requeued: deque[int] = deque()
    source_left = True
    finished = False

    def next_deal():
        nonlocal source_left
        if requeued:
            return requeued.popleft()
        if source_left:
            deal = next(deals, END)
            if deal is not END:
                return deal
            source_left = False
        return None

    try:
        while not stop.requested:
            for worker in workers:
                while worker.ready and not worker.gone and len(worker.pending) < PIPELINE:
                    deal = next_deal()
                    if deal is None:
                        break
                    if not worker.send(deal):
                        requeued.appendleft(deal)
                        break
            busy = [worker for worker in workers if worker.pending or not worker.ready or worker.gone]
            if not busy and not source_left and not requeued:
                finished = True
                break
            handles = [worker.connection for worker in busy] + [worker.process.sentinel for worker in busy]
            ready = wait(handles, timeout=POLL_SECONDS)
            for index, worker in enumerate(workers):
                if worker.connection not in ready and worker.process.sentinel not in ready:
                    continue
                for kind, payload in worker.receive_all():
                    if kind == "ready":
                        worker.ready = True
                    else:
                        expected = worker.pending.popleft()
                        if payload.deal != expected:
                            raise RuntimeError(f"worker returned deal {payload.deal}, expected {expected}")
                        on_answer(payload)
                if not worker.process.is_alive():
                    worker.process.join()
                    code = worker.process.exitcode
                    if stop.requested:
                        break
                    if not worker.ready:
                        raise YukonError(f"a worker process died while starting ({describe_exit(code)})")
                    if worker.pending:
                        culprit = worker.pending.popleft()
                        on_answer(
                            work.failure(
                                culprit, f"worker process died while solving ({describe_exit(code)})"
                            )
                        )
                        requeued.extendleft(reversed(worker.pending))
                    worker.reap()
                    workers[index] = Worker(context, work)
        return finished
    finally:
        for worker in workers:
            worker.stop(graceful=finished)
        for worker in workers:
            worker.reap()


def describe_exit(code) -> str:
    """How a process ended: ``killed by SIGKILL`` or ``exit code 1``."""
    if code is not None and code < 0:
        with suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"
