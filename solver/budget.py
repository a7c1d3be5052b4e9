"""A solve's budget: the nodes, time and memory it may spend, and what ran out."""

import signal
import time

from solver.interrupts import StopFlag
from solver.result import Limits


class Budget:
    """Nodes, time and memory left for one solve; ``spent`` names what ran out."""

    def __init__(self, limits: Limits, on_bound=None):
        """``on_bound(bound, length)``: told each time ``--minimal`` proves that no line is
        shorter than ``bound`` moves, the shortest line found so far being ``length`` long."""
        self.limits = limits
        self.on_bound = on_bound
        self.started = time.perf_counter()
        self.nodes = 0
        self.spent = None
        # While searching, Ctrl-C only sets this flag, which the search reads between chunks
        # (so it stops within a chunk, about ``solver.solve.CHUNK_SECONDS``, with a clean
        # unknown verdict); a process that ignores SIGINT (a batch worker) keeps ignoring it.
        self.ctrl_c = StopFlag((signal.SIGINT,), second_raises=False, keep_ignored=True)

    @property
    def interrupted(self) -> bool:
        return self.ctrl_c.requested

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
        return float("inf") if self.limits.max_nodes is None else self.limits.max_nodes - self.nodes
