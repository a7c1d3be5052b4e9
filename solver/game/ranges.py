"""Deal numbers and ranges as players type them: ``12``, ``1-1000``, ``1,5,9-20`` -> the
sorted, unique deal numbers.

A single deal number is read as PySolFC reads a game number: ``#``, spaces, ``,`` and ``_``
are dropped (``#12``, ``12,345``, ``#12 345``); PySolFC also drops ``-`` and ``.``, which
are refused here (``1-5`` is a range and ``1.5`` a decimal, never deal 15). In a range a
comma separates deals and ``-`` joins the ends of an interval; each number may still carry
``#``, spaces and ``_`` (``#1-#100``). ``ms12345`` (every number of a range prefixed, or only the first) is
PySolFC's Microsoft deal 12345: the ``ms`` numbering (``split_numbering``).

A range is kept as merged intervals, so ``1-100000000000000000000`` costs nothing until it
is iterated; iteration yields the numbers in ascending order, each once.
"""

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from solver.errors import ArgumentError, YukonError, clipped, type_name
from solver.game.numbering import MAX_DEAL, NUMBERINGS

# What PySolFC drops from a game number (pysolrandom.construct_random), but "-" and ".".
DEAL_SEPARATORS = re.compile(r"[\s#,_]")
RANGE_NUMBER_SEPARATORS = re.compile(r"[\s#_]")
MS_PREFIX = re.compile(r"(?<![0-9a-z])ms(?=[\s#0-9])", re.IGNORECASE | re.ASCII)
# More digits than any deal number has: such a number is refused before it is converted.
MAX_DIGITS = 30


def deal_number(text: str) -> int:
    """A single deal number as PySolFC reads one (``#12``, ``12,345``); YukonError else."""
    digits = DEAL_SEPARATORS.sub("", text)
    if not digits.isascii() or not digits.isdigit():
        raise YukonError(
            f"deal number {clipped(repr(text))} is not a whole number (like 12, #12, 12,345 or ms12345)"
        )
    return whole_number(digits, "deal number")


def named_deal(number: "int | str", numbering: str = "pysol") -> tuple[int, str]:
    """A deal given to a library call: an int, or text as the command line takes it (``"#12"``,
    ``"12,345"``, ``"ms12345"``, which also chooses the ``ms`` numbering): (the number, the
    numbering). The range is checked where the deal is dealt (``numbering.check_deal_number``)."""
    if isinstance(number, str):
        text, numbering = split_numbering(number, numbering)
        return deal_number(text), numbering
    if isinstance(number, bool) or not isinstance(number, int):
        raise ArgumentError("number", f" must be a deal number (like 12 or '#12'), not {type_name(number)}")
    return number, numbering


def split_numbering(text: str, numbering: str) -> tuple[str, str]:
    """``text`` without its ``ms`` prefixes, and the numbering it names: ``ms`` when it has
    them (refused beside ``kpat``), else ``numbering``."""
    if not MS_PREFIX.match(text.strip()):
        return text, numbering
    if numbering == "kpat":
        raise YukonError(f"{clipped(repr(text))} is a PySolFC Microsoft deal: it has no kpat number")
    return MS_PREFIX.sub("", text), "ms"


def whole_number(text: str, what: str) -> int:
    """``text`` (ASCII digits only) as an integer; YukonError naming ``what`` otherwise."""
    if not text.isascii() or not text.isdigit():
        raise YukonError(f"{what} {clipped(repr(text))} is not a whole number")
    if len(text) > MAX_DIGITS:
        raise YukonError(f"{what} {clipped(text)} has {len(text)} digits: no deal number is that large")
    return int(text)


@dataclass(frozen=True)
class DealRange:
    """Disjoint, non-adjacent inclusive intervals ``(first, last)`` in ascending order."""

    intervals: tuple[tuple[int, int], ...]

    @property
    def count(self) -> int:
        """How many deals (may exceed what ``len`` can return, hence a property)."""
        return sum(last - first + 1 for first, last in self.intervals)

    @property
    def first(self) -> int:
        return self.intervals[0][0]

    @property
    def last(self) -> int:
        return self.intervals[-1][1]

    def __iter__(self) -> Iterator[int]:
        for first, last in self.intervals:
            yield from range(first, last + 1)

    def __contains__(self, deal) -> bool:
        index = bisect.bisect_right(self.intervals, (deal, float("inf"))) - 1
        return index >= 0 and self.intervals[index][0] <= deal <= self.intervals[index][1]

    def __str__(self) -> str:
        return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in self.intervals)


def parse_range(text: str, numbering: str = "pysol") -> DealRange:
    """Read a deal range; every number must lie in 1..MAX_DEAL[numbering].

    A bad part raises YukonError naming it, e.g. ``deal range part '5-1': 5 is above 1``.
    """
    if numbering not in MAX_DEAL:
        raise YukonError(f"unknown numbering {numbering!r} (choose one of {', '.join(NUMBERINGS)})")
    maximum = MAX_DEAL[numbering]
    if not text or not text.strip():
        raise YukonError("empty deal range (expected like 12, 1-1000 or 1,5,9-20)")
    intervals = []
    for raw in text.split(","):
        part = raw.strip()
        ends = [RANGE_NUMBER_SEPARATORS.sub("", end) for end in part.split("-")]
        if len(ends) > 2 or not all(end.isascii() and end.isdigit() for end in ends):
            raise YukonError(
                f"deal range part {clipped(repr(part))} is not a number or FIRST-LAST "
                "(expected like 12, #12, 1-1000 or 1,5,9-20)"
            )
        first = whole_number(ends[0], f"deal range part {clipped(repr(part))}:")
        last = whole_number(ends[-1], f"deal range part {clipped(repr(part))}:")
        for number in (first, last):
            if number < 1:
                raise YukonError(f"deal range part {part!r}: deal numbers start at 1")
            if number > maximum:
                raise YukonError(
                    f"deal range part {part!r}: {number} is beyond the last {numbering} deal {maximum}"
                )
        if first > last:
            raise YukonError(
                f"deal range part {part!r}: {first} is above {last} (write it as {last}-{first})"
            )
        intervals.append((first, last))
    return DealRange(merge(intervals))


def merge(intervals) -> tuple[tuple[int, int], ...]:
    merged: list[list[int]] = []
    for first, last in sorted(intervals):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return tuple((first, last) for first, last in merged)
