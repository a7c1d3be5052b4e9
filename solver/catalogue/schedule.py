"""The daily deal: a fixed, language-neutral map from (date, variant, tier) to an entry.

Cycles run back to back from ``EPOCH`` (or from the earliest ``since`` if later). A cycle's
pool is the catalogue's entries, in file order, whose ``since`` is on or before the cycle's
first day; it lasts one day per pool entry and visits the pool in the order
``i -> (a * i + b) mod n``, with ``a`` coprime to ``n``, from the FNV-1a hash of
``"variant/tier/cycle"``. So no entry comes back within a cycle, and an extension published
with ``since`` after today leaves the running cycle (and every earlier date) unchanged: new
entries join the next cycle. ``catalogue/README.md`` states the algorithm for clients.
"""

from dataclasses import dataclass
from datetime import date
from math import gcd

from solver.catalogue.entries import entry_problem
from solver.errors import YukonError

EPOCH = date(2026, 1, 1)
FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193


@dataclass(frozen=True)
class DailyPick:
    """Entry ``index`` (in file order) is the deal of the day: day ``day`` (0-based) of
    cycle ``cycle``, whose pool holds ``pool_size`` entries."""

    index: int
    cycle: int
    day: int
    pool_size: int


def fnv1a32(text: str) -> int:
    """32-bit FNV-1a of the UTF-8 bytes of ``text``."""
    value = FNV_OFFSET
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return value


def affine_map(key: str, size: int) -> tuple[int, int]:
    """(a, b) of the cycle's order ``i -> (a * i + b) mod size``: b = h mod n,
    a = 1 + (floor(h / n) mod n), raised by 1 until gcd(a, n) = 1."""
    value = fnv1a32(key)
    offset = value % size
    step = 1 + (value // size) % size
    while gcd(step, size) != 1:
        step += 1
    return step, offset


def first_day(sinces: list[date]) -> date:
    return max(EPOCH, min(sinces))


def cycles_until_growth(joins: list[int], start: int, size: int) -> int | None:
    """How many cycles of ``size`` days from day number ``start`` come before the first one
    that starts on or after the next later join, which its pool takes in (None: no later join)."""
    later = [join for join in joins if join > start]
    return -(-(min(later) - start) // size) if later else None


def pick(sinces: list[date], variant: str, tier: str, day: date) -> DailyPick:
    """The entry for ``day`` given every entry's ``since`` in file order. Cycles that share
    a pool are skipped at once, up to the day or to the first cycle starting on or after
    the next ``since``, so the cost grows with the distinct dates, not with the cycles."""
    if not sinces:
        raise YukonError(f"the {variant} {tier} catalogue has no entries")
    joins = [since.toordinal() for since in sinces]
    start, target, cycle = first_day(sinces).toordinal(), day.toordinal(), 0
    if target < start:
        raise YukonError(
            f"the {variant} {tier} schedule starts on {date.fromordinal(start).isoformat()}, "
            f"after {day.isoformat()}"
        )
    while True:
        pool = [index for index, join in enumerate(joins) if join <= start]
        size = len(pool)
        to_day, to_growth = (target - start) // size, cycles_until_growth(joins, start, size)
        if to_growth is not None and to_growth <= to_day:
            start, cycle = start + to_growth * size, cycle + to_growth
            continue
        start, cycle = start + to_day * size, cycle + to_day
        offset = target - start
        step, shift = affine_map(f"{variant}/{tier}/{cycle}", size)
        return DailyPick(pool[(step * offset + shift) % size], cycle, offset, size)


def daily_entry(catalogue: dict, day: date) -> tuple[dict, DailyPick]:
    """The catalogue's entry for ``day`` and where it sits in the schedule; an entry that
    is not valid (``entries.entry_problem``) is refused, never served."""
    variant, tier, entries = catalogue["variant"], catalogue["tier"], catalogue["entries"]
    try:
        sinces = [date.fromisoformat(entry["since"]) for entry in entries]
    except (KeyError, TypeError, ValueError):
        raise YukonError(f"the {variant} {tier} catalogue has a bad 'since'") from None
    chosen = pick(sinces, variant, tier, day)
    problem = entry_problem(entries[chosen.index], variant, tier)
    if problem is not None:
        raise YukonError(
            f"the {variant} {tier} catalogue's entry {chosen.index}: {problem}; refusing to serve it"
        )
    return entries[chosen.index], chosen
