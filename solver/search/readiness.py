"""The engine's kernel groups made ready in a process (compiled once per machine, loaded from the
cache by every later process), each when a solve first needs it and outside any solve's budget:
``kernels_ready`` calls a group's kernels on a one-card position (``exercise``) in a thread of
its own (``apart``), with Python's garbage collector paused."""

import atexit
import gc
import logging
import threading
from contextlib import contextmanager

from solver.common.interrupts import KERNELS_THREAD, POLL_SECONDS
from solver.engine import jit, moves, search
from solver.engine.groups import LEAN, LOSS, PAIRS, SEARCH
from solver.game.board import Board
from solver.game.cards import KING, make_card
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import Proof
from solver.search.budget import Budget
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_tables, path_position_dead, root_pairs_dead, root_triples_dead
from solver.search.lines import shorten
from solver.search.loss_reason import loss_reason
from solver.search.packing import pack
from solver.search.searching import Search

# The compile notice and the cache warning, each one line as the command line prints it on stderr
# (``solver.cli`` shows this logger's lines bare); warnings, so that a program that sets up no
# logging sees them on stderr too (Python's last-resort handler), and can silence them. The logger
# keeps the name it had before this module left ``solve``: programs filter on it.
LOG = logging.getLogger("solver.search.solve")
ONE_CARD_LEFT = Board(((make_card(KING, 0),),) + ((),) * 6, (0,) * 7, (12, 13, 13, 13))


class KernelsReady:
    """The kernel groups made ready in a process (``groups``, by name), from ``cache`` (a
    ``jit.KernelCache``, whose note is said before the first group). ``READY`` is the process's
    one; a test passes one of its own to ``warm_up`` and ``kernels_ready``."""

    def __init__(self, cache=jit.CACHE):
        self.cache, self.groups = cache, set()


READY = KernelsReady()


def warm_up(ready: KernelsReady = READY) -> None:
    """Make the kernels of a solve's first look ready (compiled, or loaded from the on-disk cache)
    once per process, before any solve's budget starts: see ``kernels_ready``."""
    if ready.cache.note and not ready.groups:
        LOG.warning("warning: %s", ready.cache.note)
    kernels_ready(LEAN, ready=ready)


def kernels_ready(group: jit.KernelGroup, budget: Budget | None = None, ready: KernelsReady = READY) -> None:
    """Make ``group``'s kernels ready in this process (``jit.KernelCache.kernels_ready``: the first
    process of a machine compiles them, saying so through ``LOG``, never on stdout), on a one-move
    position; the seconds that takes are left out of ``budget``'s time."""
    if group.name not in ready.groups:
        with collector_paused():
            seconds = ready.cache.kernels_ready(group, lambda: apart(exercise, group), LOG.warning)
        ready.groups.add(group.name)
        if budget is not None:
            budget.pause(seconds)


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off inside, as it was after: loading or compiling kernels
    makes a great many objects that numba keeps, and the collections their making sets off walk
    them again and again (a tenth of a warm start's time, some of a first compile's)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def apart(function, *arguments) -> None:
    """``function(*arguments)`` in a thread of its own, so that it leaves alone this thread's
    search stack and dead-end tables, which a solve may be using (its error is raised here).
    A daemon thread, waited for where a signal can break in: a Ctrl-C while it compiles stops
    the wait at once, and the process may leave without it (a compile cut short marks no group
    complete)."""
    thread = Apart(function, arguments)
    thread.start()
    # Woken every POLL_SECONDS: a signal that comes just before a wait blocks is only seen once the
    # thread wakes. Not ``join``: Python 3.11's, cut by a Ctrl-C, takes the thread for ended.
    while not thread.done.wait(POLL_SECONDS):
        pass
    if thread.failure is not None:
        raise thread.failure


class Apart(threading.Thread):
    """The thread of ``apart``: ``done`` once ``function(*arguments)`` returned or raised ``failure``."""

    def __init__(self, function, arguments):
        super().__init__(name=KERNELS_THREAD, daemon=True)
        self.function, self.arguments = function, arguments
        self.failure, self.done = None, threading.Event()

    def run(self):
        try:
            self.function(*self.arguments)
        except BaseException as error:  # raised again in the caller's thread
            self.failure = error
        finally:
            self.done.set()


@atexit.register
def wait_for_kernels() -> None:
    """At the exit of a program that stopped waiting for a compile (a Ctrl-C in ``apart``), wait
    for it to end: LLVM torn down under it would abort the process. (The command line leaves
    at once instead: ``solver.cli``.)"""
    for thread in threading.enumerate():
        if isinstance(thread, Apart):
            thread.done.wait()


def exercise(group: jit.KernelGroup) -> None:
    """Call ``group``'s kernels as a solve does, on ONE_CARD_LEFT."""
    packed, everything = pack(ONE_CARD_LEFT, Rules()), moves.ALL_REDUCTIONS
    unlimited = Limits(time_limit=None)
    if group is LEAN:
        look = Search(packed, search.DFS, everything, 0, unlimited.memory_bytes, lean=True)
        look.run(Budget(unlimited))
        shorten(ONE_CARD_LEFT, Rules(), look.path())
        look.grow(Budget(unlimited))
        return
    if group is SEARCH:
        Search(packed, search.DFS, everything, 0, unlimited.memory_bytes).run(Budget(unlimited))
        return
    if group is LOSS:
        loss_reason(ONE_CARD_LEFT, Rules(), 0, Proof.SEARCH)
        return
    dead_ends = dead_end_tables()
    root_pairs_dead(packed, dead_ends, everything)
    tested = Search(packed, search.DFS, everything, 0, DEFAULT.first_table_slots, dead_ends=dead_ends)
    if group is PAIRS:
        tested.run(Budget(unlimited))
    else:
        root_triples_dead(packed, dead_ends, everything)
        path_position_dead(tested, 0)
