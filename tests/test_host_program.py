"""The library in a host program (issue 52, item 5): no signal handler changed by a library
call, a cancel handle for a running solve or hint, and solves on several threads that give
what serial solves give."""

import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from solver import api
from solver.errors import ArgumentError
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import UNKNOWN, Spent
from solver.search.readiness import warm_up
from solver.search.solve import solve_position

YUKON_HARD = 28927  # unknown after minutes: a solve that only a budget or a cancel ends
NODES = Limits(max_nodes=200_000, time_limit=None)


class CancelAfter:
    """A cancel handle that is set from the ``calls``-th time it is read on, and notes the
    SIGINT handler in place each time (no timing: the search reads it between chunks)."""

    def __init__(self, calls: int):
        self.calls_left = calls
        self.handlers = set()

    def is_set(self) -> bool:
        self.handlers.add(signal.getsignal(signal.SIGINT))
        self.calls_left -= 1
        return self.calls_left < 0


def test_a_solve_reads_its_cancel_handle_and_touches_no_signal_handler():
    warm_up()
    before = signal.getsignal(signal.SIGINT)
    cancel = CancelAfter(3)
    result = solve_position(deal_board("yukon", YUKON_HARD), Rules(), Limits(time_limit=None), cancel=cancel)
    assert (result.status, result.budget) == (UNKNOWN, Spent.INTERRUPTED)
    assert cancel.handlers == {before} and signal.getsignal(signal.SIGINT) is before


def test_an_event_set_from_another_thread_cancels_a_running_solve():
    warm_up()
    started, cancel = threading.Event(), threading.Event()

    class Watched:
        def is_set(self):
            started.set()
            return cancel.is_set()

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(
            api.solve_deal, YUKON_HARD, Rules(), limits=Limits(time_limit=None), cancel=Watched()
        )
        started.wait()
        cancel.set()
        outcome = running.result()
    assert (outcome.status, outcome.budget) == ("unknown", "interrupted")


def test_a_set_handle_cancels_a_sampling_hint_at_once():
    board = deal_board("yukon", 12)
    cancel = CancelAfter(0)
    hint = api.hint(board, Rules(), samples=4, max_nodes=10**9, cancel=cancel)
    assert hint.status == "move" and hint.confidence.won == 0  # no sampled search found a win
    assert cancel.calls_left < 0  # every sampled solve read it and stopped


def test_a_cancel_handle_must_have_is_set():
    with pytest.raises(ArgumentError, match=r"^cancel must have is_set\(\) \(a threading.Event\), not bool$"):
        api.solve_deal(12, Rules(), cancel=True)
    with pytest.raises(ArgumentError, match="^cancel must have is_set"):
        api.hint(deal_board("yukon", 12), Rules(), cancel="stop")


@pytest.mark.parametrize(("variant", "deals"), [("russian", (1, 2, 3, 15)), ("yukon", (12, 151, 454))])
def test_solves_on_two_threads_give_the_serial_results(variant, deals):
    warm_up()
    rules = Rules(variant)

    def solved(deal):
        result = solve_position(deal_board(variant, deal), rules, NODES)
        return result.status, result.solution, result.nodes, result.loss_reason, result.proof

    serial = [solved(deal) for deal in deals]
    with ThreadPoolExecutor(2) as pool:
        threaded = list(pool.map(solved, deals))
    assert threaded == serial


# Two threads of a fresh process whose first solves start together (the kernels loaded by both).
FRESH_THREADS = """
from concurrent.futures import ThreadPoolExecutor
from solver.game.numbering import deal_board
from solver.results.limits import Limits
from solver.game.rules import Rules
from solver.search.solve import solve_position

def solved(deal):
    limits = Limits(max_nodes=100_000, time_limit=None)
    result = solve_position(deal_board("russian", deal), Rules("russian"), limits)
    return result.status, result.solution, result.nodes

with ThreadPoolExecutor(2) as pool:
    threaded = list(pool.map(solved, (1, 2, 3, 16)))
print(threaded == [solved(deal) for deal in (1, 2, 3, 16)])
"""


def test_the_first_solves_of_a_process_on_two_threads_give_the_serial_results():
    done = subprocess.run([sys.executable, "-c", FRESH_THREADS], capture_output=True, text=True, timeout=600)
    assert done.stdout == "True\n", done.stderr
