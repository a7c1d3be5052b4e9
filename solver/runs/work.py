"""What a run's workers do with each deal: one typed description, sent to every worker.

A run of any kind (solving, playing, rating) is a ``Work``: the rule set and numbering, the
run's ``settings`` (solving: the Limits; playing and rating: the series), the module-level
``task`` a worker runs on each deal and the ``failed`` answer of a deal whose task raised or
whose worker died. A fault never escapes a worker: it becomes that deal's failed answer,
naming it (type, file and line, first line of the message).
"""

import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from solver.errors import first_line
from solver.game.rules import Rules


@dataclass(frozen=True)
class Work:
    """``task(deal, rules, numbering, settings)`` is a deal's answer (a Record, a player's
    DealWork); ``failed(deal, rules, numbering, settings, reason, seconds)`` is the answer of
    a deal whose task failed. Both must be module-level functions: they are sent to the
    workers (local processes or Dask)."""

    rules: Rules
    numbering: str
    settings: object
    task: Callable
    failed: Callable

    def run(self, deal: int):
        """The task's answer on ``deal``; an exception becomes the failed answer naming it."""
        started = time.perf_counter()
        try:
            return self.task(deal, self.rules, self.numbering, self.settings)
        except Exception as error:  # a fault on one deal is recorded, not fatal
            return self.failure(deal, exception_reason(error), time.perf_counter() - started)

    def failure(self, deal: int, reason: str, seconds: float = 0.0):
        """The answer of ``deal`` when its task failed or its worker died."""
        return self.failed(deal, self.rules, self.numbering, self.settings, reason, seconds)


def run_task(deal: int, work: Work):
    """A Dask task: the answer on one deal."""
    return work.run(deal)


def exception_reason(error: BaseException) -> str:
    """``Type at file.py:line: first line of the message``."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{where}: {first_line(str(error))}".rstrip(": ")
