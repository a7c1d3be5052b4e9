"""What a run did, whatever its work (solving, playing, rating): one report type."""

from collections import Counter
from dataclasses import dataclass, field

from solver.common.interrupts import exit_status


@dataclass
class RunReport:
    """Deals in range, skipped as already in the store, to do; the answers stored, counted
    by kind (a verdict; ``played``, ``rated``); ``errors``, one line a deal that failed and
    was not stored (it is retried by the next run); the contradictions met (a new verdict
    solved where the store said unsolvable, or the reverse); the signal that stopped the
    run (None for a completed run) and its seconds."""

    store: str
    in_range: int
    skipped: int
    to_do: int
    counts: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    contradictions: list[str] = field(default_factory=list)
    interrupted_by: int | None = None
    seconds: float = 0.0

    @property
    def done(self) -> int:
        """Deals whose answer was stored."""
        return sum(self.counts.values())

    @property
    def interrupted(self) -> bool:
        return self.interrupted_by is not None

    @property
    def exit_status(self) -> int:
        """0 for a completed run, 1 when some deal failed, 128 + the signal (130 for
        Ctrl-C) for a stopped one."""
        if self.interrupted:
            return exit_status(self.interrupted_by)
        return 1 if self.errors else 0
