"""A solve's budget: the nodes, time and memory it may spend, its cancel handle, and what ran out."""

import time
from contextlib import contextmanager

from solver.common.interrupts import CANCEL_HANDLES, COMMAND_CTRL_C, watched_by_search
from solver.errors import ArgumentError, type_name
from solver.results.limits import Limits
from solver.results.result import Spent


class Budget:
    """Nodes, time and memory left for one solve; ``spent`` names what ran out."""

    def __init__(self, limits: Limits, on_bound=None, cancel=None):
        """``on_bound(bound, length)``: told each time ``--minimal`` proves that no line is
        shorter than ``bound`` moves, the shortest line found so far being ``length`` long.
        ``cancel``: a handle with ``is_set()`` (a ``threading.Event``), read between chunks of
        the search (about ``SearchConfig.chunk_seconds``): once set, the solve ends with an
        unknown verdict, interrupted. The handles of ``interrupts.cancelled_by`` and the command
        line's Ctrl-C are read too."""
        self.limits = limits
        self.on_bound = on_bound
        self.started = time.perf_counter()
        self.nodes = 0  # positions searched, in all
        self.looked = 0  # of those, by a first look that won nothing (``look_over``)
        self.spent = None
        handles = (checked_cancel(cancel), *CANCEL_HANDLES.get(), COMMAND_CTRL_C.get())
        self.cancel_handles = [handle for handle in handles if handle is not None]

    @property
    def interrupted(self) -> bool:
        return any(handle.is_set() for handle in self.cancel_handles)

    @contextmanager
    def searching(self):
        """Around the solve: the command's Ctrl-C watches it (``interrupts.watched_by_search``),
        and memory the process cannot get (``ulimit -v``) ends it, memory ``spent``."""
        with watched_by_search():
            try:
                yield
            except MemoryError:
                self.spent = Spent.MEMORY

    def look_over(self) -> None:
        """The solve's first look (``solve.first_look``) won nothing: the positions searched so far
        count among ``nodes``, not among ``plan_nodes``, and a node limit it reached is the plan's
        to spend again."""
        self.looked = self.nodes
        if self.spent is Spent.NODES:
            self.spent = None

    @property
    def plan_nodes(self) -> int:
        """The positions searched since the first look, by the solve's plan of probes and full
        search: what the node limit and the start of the dead-end tests count, so that the plan
        searches as it would have without a look."""
        return self.nodes - self.looked

    def pause(self, seconds: float) -> None:
        """Leave ``seconds`` out of the time spent (they were spent compiling kernels)."""
        self.started += seconds

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def time_left(self) -> float:
        if self.limits.time_limit is None:
            return float("inf")
        return self.limits.time_limit - self.elapsed()

    def nodes_left(self) -> float:
        return float("inf") if self.limits.max_nodes is None else self.limits.max_nodes - self.plan_nodes


def checked_cancel(cancel):
    """``cancel`` when it is None or has an ``is_set()`` method; else an ArgumentError."""
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise ArgumentError("cancel", f" must have is_set() (a threading.Event), not {type_name(cancel)}")
    return cancel
