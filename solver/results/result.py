"""Solver verdicts as immutable records carrying everything needed to trust or redo them, and
the words they are spelled in (stored and exported as these strings); the budgets a search is
given are ``solver.results.limits``."""

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """A verdict: solved, unsolvable (proved) or unknown (a budget ran out)."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


class Spent(StrEnum):
    """What stopped the search of an unknown verdict: its time or nodes ran out, the table
    was full (memory), a path outgrew the search stack (depth), or Ctrl-C."""

    TIME = "time"
    NODES = "nodes"
    MEMORY = "memory"
    DEPTH = "depth"
    INTERRUPTED = "interrupted"


class Proof(StrEnum):
    """What proved an unsolvable verdict: the search, exhausted (every position it left out was
    proved dead or cannot matter), or a dead-end test on the opening itself, run once the search
    had gone on long enough without a verdict: over pairs of facts, or over triples."""

    SEARCH = "search"
    ROOT_PAIRS = "root pairs test"
    ROOT_TRIPLES = "root triples test"


SOLVED, UNSOLVABLE, UNKNOWN = Status
# The difficulty tiers of a solvable deal, easiest first (``solver.player.difficulty``).
TIER_NAMES = ("easy", "normal", "hard")

# The largest node budget: the engine counts nodes in 64-bit integers, as wide as SQLite's.
LARGEST_INTEGER = 2**63 - 1


@dataclass(frozen=True)
class Result:
    """``status`` is solved (``solution`` replayed as a win on the reference engine),
    unsolvable (the search was exhausted using only sound reductions) or unknown
    (``budget`` names what stopped the search). ``lower_bound`` (with ``Limits.minimal``
    only): no line is shorter, as far as the search for a shortest one got.
    ``loss_reason`` (unsolvable only): why, in words (``solver.search.loss_reason``), told from
    ``proof``, what proved it."""

    status: Status
    solution: str
    nodes: int
    seconds: float
    peak_table_entries: int
    proven_minimal: bool = False
    budget: Spent | None = None
    lower_bound: int | None = None
    loss_reason: str | None = None
    proof: Proof | None = None

    @property
    def solution_length(self) -> int:
        return len(self.solution.split())

    def as_dict(self) -> dict[str, Any]:
        return asdict(self) | {"solution_length": self.solution_length}
