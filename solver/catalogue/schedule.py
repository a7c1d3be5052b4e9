"""The daily deal: a fixed, language-neutral map from (date, catalogue file) to an entry.

The manifest's schedule (``epochs``) is a list of epochs; the epoch of a date is the last
that starts on or before it. Within an epoch, cycles run back to back from its start (or
from the file's earliest ``since`` if later), counted from 0. A cycle's pool is the file's
entries, in file order, whose ``since`` is on or before the cycle's first day; it lasts one
day per pool entry and visits the pool in the order of the epoch's method:

- ``affine-fnv1a`` (release 0.1.0, up to 2026-12-31): ``i -> (a * i + b) mod n``, ``a``
  coprime to ``n``, from the FNV-1a hash of ``"variant/tier/cycle"``;
- ``keyed-sort-sha256`` (from 2027-01-01): the pool sorted by the SHA-256 digest of
  ``"key/file/cycle/deal"`` (``file``: the file's name in the manifest), then by index.

So no entry comes back within a cycle, and an extension published with ``since`` after
today leaves the running cycle (and every earlier date) unchanged: new entries join the next
cycle. ``catalogue/README.md`` states the algorithm for clients.
"""

import hashlib
from dataclasses import dataclass
from datetime import date
from math import gcd
from pathlib import Path

from solver.catalogue.checks import load_checked
from solver.catalogue.entries import entry_problem
from solver.catalogue.epochs import AFFINE, FIRST_START, KEYED_SORT, Epoch, read_schedule
from solver.catalogue.files import MANIFEST_NAME, catalogue_name, read_manifest
from solver.errors import YukonError

# The first day new catalogues join the schedule (``build``'s default ``since``).
EPOCH = FIRST_START
FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193


@dataclass(frozen=True)
class Listing:
    """What the schedule reads of a catalogue file: its name in the manifest, variant and
    tier, and each entry's ``since`` and deal number, in file order."""

    name: str
    variant: str
    tier: str
    sinces: list[date]
    deals: list[int]


@dataclass(frozen=True)
class DailyPick:
    """Entry ``index`` (in file order) is the deal of the day: day ``day`` (0-based) of
    cycle ``cycle`` of the epoch starting ``epoch``, whose pool holds ``pool_size`` entries."""

    index: int
    cycle: int
    day: int
    pool_size: int
    epoch: date


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


def affine_order(listing: Listing, epoch: Epoch, cycle: int, pool: list[int]) -> list[int]:
    """The pool in release 0.1.0's order for ``cycle`` (the epoch's key is not used)."""
    step, shift = affine_map(f"{listing.variant}/{listing.tier}/{cycle}", len(pool))
    return [pool[(step * day + shift) % len(pool)] for day in range(len(pool))]


def sort_key(epoch: Epoch, name: str, cycle: int, deal: int) -> bytes:
    return hashlib.sha256(f"{epoch.key}/{name}/{cycle}/{deal}".encode()).digest()


def keyed_order(listing: Listing, epoch: Epoch, cycle: int, pool: list[int]) -> list[int]:
    """The pool sorted by SHA-256 of ``"key/file/cycle/deal"``, ties (none expected) by index."""
    return sorted(pool, key=lambda index: (sort_key(epoch, listing.name, cycle, listing.deals[index]), index))


def cycles_until_growth(joins: list[int], start: int, size: int) -> int | None:
    """How many cycles of ``size`` days from day number ``start`` come before the first one
    that starts on or after the next later join, which its pool takes in (None: no later join)."""
    later = [join for join in joins if join > start]
    return -(-(min(later) - start) // size) if later else None


def epoch_of(schedule: tuple[Epoch, ...], listing: Listing, day: date) -> Epoch:
    """The epoch that rules ``day``; YukonError before the file's schedule starts."""
    first = max(schedule[0].start, min(listing.sinces))
    if day < first:
        name = f"{listing.variant} {listing.tier}"
        raise YukonError(f"the {name} schedule starts on {first.isoformat()}, after {day.isoformat()}")
    return [epoch for epoch in schedule if epoch.start <= day][-1]


def cycle_day(joins: list[int], start: int, target: int) -> tuple[int, int, list[int]]:
    """(cycle, day in it, pool) of day number ``target`` for cycles from day number ``start``.
    Cycles that share a pool are skipped at once, up to the target or to the first cycle
    starting on or after the next ``since``: the cost grows with the distinct dates."""
    cycle = 0
    while True:
        pool = [index for index, join in enumerate(joins) if join <= start]
        size = len(pool)
        to_day, to_growth = (target - start) // size, cycles_until_growth(joins, start, size)
        if to_growth is not None and to_growth <= to_day:
            start, cycle = start + to_growth * size, cycle + to_growth
            continue
        start, cycle = start + to_day * size, cycle + to_day
        return cycle, target - start, pool


ORDERS = {AFFINE: affine_order, KEYED_SORT: keyed_order}


def pick(listing: Listing, day: date, schedule: tuple[Epoch, ...]) -> DailyPick:
    """The entry of ``listing`` for ``day`` under the manifest's ``schedule``."""
    if not listing.sinces:
        raise YukonError(f"the {listing.variant} {listing.tier} catalogue has no entries")
    epoch = epoch_of(schedule, listing, day)
    start = max(epoch.start, min(listing.sinces))
    joins = [since.toordinal() for since in listing.sinces]
    cycle, offset, pool = cycle_day(joins, start.toordinal(), day.toordinal())
    order = ORDERS[epoch.method](listing, epoch, cycle, pool)
    return DailyPick(order[offset], cycle, offset, len(pool), epoch.start)


def listing_of(catalogue: dict, name: str) -> Listing:
    """The schedule's view of a catalogue (``name``: its file name in the manifest)."""
    variant, tier, entries = catalogue["variant"], catalogue["tier"], catalogue["entries"]
    try:
        sinces = [date.fromisoformat(entry["since"]) for entry in entries]
    except (KeyError, TypeError, ValueError):
        raise YukonError(f"the {variant} {tier} catalogue has a bad 'since'") from None
    deals = [entry.get("deal") for entry in entries]
    if not all(type(deal) is int for deal in deals):
        raise YukonError(f"the {variant} {tier} catalogue has a 'deal' that is no whole number")
    return Listing(name, variant, tier, sinces, deals)


def daily_entry(catalogue: dict, day: date, schedule: tuple[Epoch, ...], name: str) -> tuple[dict, DailyPick]:
    """The catalogue's entry for ``day`` and where it sits in the schedule; an entry that
    is not valid (``entries.entry_problem``) is refused, never served."""
    chosen = pick(listing_of(catalogue, name), day, schedule)
    entry = catalogue["entries"][chosen.index]
    problem = entry_problem(entry, catalogue["variant"], catalogue["tier"])
    if problem is not None:
        raise YukonError(
            f"the {catalogue['variant']} {catalogue['tier']} catalogue's entry {chosen.index}: "
            f"{problem}; refusing to serve it"
        )
    return entry, chosen


def daily_in(
    directory: Path,
    variant: str,
    tier: str,
    day: date,
    foundation_return: bool = False,
    numbering: str = "pysol",
) -> tuple[dict, DailyPick]:
    """``daily_entry`` of the checked catalogue file of a rule set and tier in a folder, under
    its manifest's schedule."""
    schedule = read_schedule(read_manifest(directory), str(directory / MANIFEST_NAME))
    catalogue = load_checked(directory, variant, tier, foundation_return, numbering)
    return daily_entry(catalogue, day, schedule, catalogue_name(variant, tier, foundation_return, numbering))
