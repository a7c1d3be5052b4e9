"""Solver verdicts as immutable records carrying everything needed to trust or redo them."""

from dataclasses import asdict, dataclass

SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
EXIT_CODES = {SOLVED: 0, UNSOLVABLE: 1, UNKNOWN: 3}


@dataclass(frozen=True)
class Limits:
    """Budgets. ``None`` means no node limit / no time limit."""

    max_nodes: int | None = None
    time_limit: float | None = 60.0
    memory_bytes: int = 1 << 30
    minimal: bool = False


@dataclass(frozen=True)
class Result:
    """``status`` is solved (``solution`` replayed as a win on the reference engine),
    unsolvable (the search was exhausted using only sound reductions) or unknown
    (``budget`` names what ran out: nodes, time, memory, depth or interrupted)."""

    status: str
    solution: str
    nodes: int
    seconds: float
    peak_table_entries: int
    proven_minimal: bool = False
    budget: str | None = None

    @property
    def solution_length(self) -> int:
        return len(self.solution.split())

    def as_dict(self) -> dict:
        return asdict(self) | {"solution_length": self.solution_length}
