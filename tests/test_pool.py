"""Local workers: a deal sent to a worker that has just died is handed on, not lost, and the
run does not fail on the closed pipe (the death is seen later, from the process's end)."""

import multiprocessing
import os
import signal
from dataclasses import dataclass

from stores import YUKON

from solver.common.interrupts import StopFlag
from solver.runs.pool import Worker, run_local
from solver.runs.work import Work


@dataclass(frozen=True)
class Answer:
    deal: int
    reason: str = ""
    solved_by: int = 0


def answer(deal, rules, numbering, settings):
    """A worker task (module-level, sent to the workers): which process answered."""
    return Answer(deal, solved_by=os.getpid())


def failed(deal, rules, numbering, settings, reason, seconds):
    return Answer(deal, reason=reason)


WORK = Work(YUKON, "pysol", None, answer, failed)


def workers_of_this_process() -> set[int]:
    """The pids of this process's live pool workers."""
    return {child.pid for child in multiprocessing.active_children() if child.name == "yukon-worker"}


def kill_workers(started_before: set[int]) -> list[int]:
    """SIGKILL the live pool workers of this process that were not in ``started_before`` (those the
    test itself started: never another test's, under pytest-xdist or not) and wait until each has ended."""
    children = [
        child
        for child in multiprocessing.active_children()
        if child.name == "yukon-worker" and child.pid not in started_before
    ]
    for child in children:
        os.kill(child.pid, signal.SIGKILL)
    for child in children:
        child.join()
    return [child.pid for child in children]


def started_worker() -> Worker:
    worker = Worker(multiprocessing.get_context("spawn"), WORK)
    assert worker.connection.recv()[0] == "ready"
    worker.ready = True
    return worker


def test_a_send_to_a_dead_worker_says_so_and_keeps_nothing_pending():
    others = workers_of_this_process()
    worker = started_worker()
    try:
        assert worker.send(7) and list(worker.pending) == [7]
        assert worker.connection.recv() == ("answer", Answer(7, solved_by=worker.process.pid))
        worker.pending.clear()
        assert kill_workers(others) == [worker.process.pid]
        assert worker.send(8) is False
        assert worker.gone and list(worker.pending) == []
    finally:
        worker.reap()


def deals_killing_the_worker_first(killed: list[int], others: set[int]):
    """Deals 1-3; before handing out deal 1 (the worker is then idle and ready) it kills the
    worker (the pool's one, not among ``others``), so the pool sends deal 1 down a pipe whose
    reader has gone."""
    killed.extend(kill_workers(others))
    yield from (1, 2, 3)


def test_a_deal_sent_to_a_worker_that_died_idle_is_solved_by_its_replacement():
    killed: list[int] = []
    answers: list[Answer] = []
    others = workers_of_this_process()
    finished = run_local(deals_killing_the_worker_first(killed, others), 1, WORK, answers.append, StopFlag())
    assert finished and len(killed) == 1
    assert [(one.deal, one.reason) for one in answers] == [(1, ""), (2, ""), (3, "")]
    assert killed[0] not in {one.solved_by for one in answers}
