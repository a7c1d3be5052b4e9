"""The budgets a search is given (``Limits``: nodes, seconds, the table's memory, whether to
search for a shortest line), each checked as it is made, and memory sizes as a user writes
them (``512M``, ``2G``)."""

from dataclasses import dataclass

from solver.errors import ArgumentError, YukonError
from solver.results.result import LARGEST_INTEGER

MIN_MEMORY, MAX_MEMORY = 1 << 20, 1 << 40
MEMORY_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_memory(text: str) -> int:
    """``512M``, ``1G``, ``1.5GiB``, ``1T`` or a number of bytes (digits 0-9 only)."""
    cleaned = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = cleaned[-1:] if cleaned[-1:] in MEMORY_UNITS else ""
    try:
        if not cleaned.isascii():
            raise ValueError("digits other than 0-9")
        size = float(cleaned[: len(cleaned) - len(unit)]) * MEMORY_UNITS[unit]
    except (ValueError, OverflowError):
        raise YukonError(f"memory size {text!r} is not like 512M or 2G (digits 0-9 and a unit)") from None
    check_memory(size, repr(text))
    return int(size)


def check_memory(size: float, shown: str) -> None:
    if not MIN_MEMORY <= size <= MAX_MEMORY:
        raise YukonError(f"memory size {shown} must be between 1M and 1T")


@dataclass(frozen=True)
class Limits:
    """Budgets. ``None`` means no node limit / no time limit (as does an infinite one). The node
    limit counts the positions of the solve's plan, not those of its quick first look
    (``SearchConfig.first_look_nodes``), which a solve's record counts too.
    A node limit lies in 1..LARGEST_INTEGER, a time limit is positive seconds, the table's
    memory lies in MIN_MEMORY..MAX_MEMORY bytes: anything else is a YukonError."""

    max_nodes: int | None = None
    time_limit: float | None = 60.0
    memory_bytes: int = 1 << 30
    minimal: bool = False

    def __post_init__(self) -> None:
        if self.max_nodes is not None and not (
            is_integer(self.max_nodes) and 1 <= self.max_nodes <= LARGEST_INTEGER
        ):
            raise ArgumentError("max_nodes", f" {self.max_nodes!r} must lie in 1..{LARGEST_INTEGER}")
        if self.time_limit is not None and not (is_number(self.time_limit) and self.time_limit > 0):
            raise ArgumentError("time_limit", f" {self.time_limit!r} must be a positive number of seconds")
        if not (is_integer(self.memory_bytes) and MIN_MEMORY <= self.memory_bytes <= MAX_MEMORY):
            raise ArgumentError("memory_bytes", f" {self.memory_bytes!r} must be between 1M and 1T")
        if not isinstance(self.minimal, bool):
            raise ArgumentError("minimal", f" must be True or False, not {self.minimal!r}")


def is_integer(value: object) -> bool:
    """An int, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """An int or a float, not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
