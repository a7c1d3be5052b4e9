"""The daily deal: a fixed, language-neutral map from (date, catalogue file) to an entry.

The manifest's schedule (``epochs``) is a list of epochs; the epoch of a date is the last
that starts on or before it, and it serves the tier's file of the epoch's ``generation`` (the
newest generation up to it that the manifest lists for the rule set and tier). Within an
epoch, cycles run back to back from its start (or from the file's earliest ``since`` if
later), counted from 0. A cycle's pool is the file's entries, in file order, whose ``since``
is on or before the cycle's first day; it lasts one day per pool entry and visits the pool in
the order of the epoch's method:

- ``affine-fnv1a`` (release 0.1.0, up to 2026-12-31): ``i -> (a * i + b) mod n``, ``a``
  coprime to ``n``, from the FNV-1a hash of ``"variant/tier/cycle"``;
- ``keyed-sort-sha256`` (the schedule shipped before generation 2 ran it from 2027-01-01;
  manifests that state it keep it): the pool sorted by the SHA-256 digest of
  ``"key/file/cycle/deal"`` (``file``: the file's name in the manifest), then by index;
- ``keyed-spaced-sha256`` (from 2027-01-01, generation 2): no deal of a tier comes back
  within 365 days (``GAP`` = 366: two servings are at least 366 days apart), across cycles
  and epochs. Each cycle's pool is sorted as by
  ``keyed-sort-sha256`` (its ``remaining`` list). Day by day from the epoch's first day, the
  deal of the day is the first entry of ``remaining`` whose deal number was last served by
  this tier's schedule (any epoch, any generation's file) at least GAP days earlier, or never
  (``day - last >= GAP``, days as ordinals); if there is none, the entry of ``remaining``
  whose deal was served longest ago (the first of ``remaining`` among equals). It is taken out
  of ``remaining``; a cycle ends when ``remaining`` is empty. "Served" before the epoch is
  what the earlier epochs served on its GAP - 1 days before its start.

  So every entry comes once a cycle, and when every pool holds at least GAP entries some
  entry is always eligible (on day ``q`` of a cycle at most ``GAP - 1 - q`` of the unserved
  ``n - q`` were served in the GAP - 1 days before it): no deal is served twice within
  365 days (any GAP consecutive days show GAP distinct deals). A smaller pool repeats as
  little as it can.

So no entry comes back within a cycle, and an extension published with ``since`` after
today leaves the running cycle (and every earlier date) unchanged: new entries join the next
cycle. ``catalogue/README.md`` states the algorithm for clients.
"""

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from math import gcd
from pathlib import Path

from solver.catalogue.checks import entry_refusal, load_checked
from solver.catalogue.epochs import AFFINE, FIRST_START, GAP, KEYED_SORT, SPACED, Epoch, read_schedule
from solver.catalogue.files import MANIFEST_NAME, catalogue_name, manifest_line, read_manifest
from solver.errors import YukonError

# The first day new catalogues join the schedule (``build``'s default ``since``).
EPOCH = FIRST_START
FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193
ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class Listing:
    """What the schedule reads of a catalogue file: its name in the manifest, variant and
    tier, and each entry's ``since`` and deal number, in file order."""

    name: str
    variant: str
    tier: str
    sinces: list[date]
    deals: list[int]


# A tier's files as the schedule reads them: one Listing for every epoch, or one a generation.
Listings = Listing | Mapping[int, Listing]


@dataclass(frozen=True)
class DailyPick:
    """Entry ``index`` (in file order) of the file ``file`` is the deal of the day: day ``day``
    (0-based) of cycle ``cycle`` of the epoch starting ``epoch``, whose pool holds
    ``pool_size`` entries."""

    index: int
    cycle: int
    day: int
    pool_size: int
    epoch: date
    file: str = ""


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


def first_day(listing: Listing, epoch: Epoch) -> date:
    """The first day an epoch serves a file: its start, or the file's first ``since`` if later."""
    return max(epoch.start, min(listing.sinces))


def fixed_picks(listing: Listing, epoch: Epoch, first: date, last: date) -> Iterator[tuple[date, DailyPick]]:
    """The pick of each day from ``first`` to ``last`` in an epoch whose order depends on the
    cycle alone (affine, keyed); a cycle's order is built once for all its days."""
    start = first_day(listing, epoch).toordinal()
    joins = [since.toordinal() for since in listing.sinces]
    orders: dict[int, list[int]] = {}
    for day in range(first.toordinal(), last.toordinal() + 1):
        cycle, offset, pool = cycle_day(joins, start, day)
        if cycle not in orders:
            orders = {cycle: ORDERS[epoch.method](listing, epoch, cycle, pool)}
        order = orders[cycle]
        yield (
            date.fromordinal(day),
            DailyPick(order[offset], cycle, offset, len(pool), epoch.start, listing.name),
        )


def spaced_choice(remaining: list[int], deals: list[int], last: dict[int, int], day: int) -> int:
    """The entry of ``remaining`` served on day number ``day``: the first whose deal was last
    served GAP days or more before (or never); else the one served longest ago."""
    for index in remaining:
        if day - last.get(deals[index], day - GAP) >= GAP:
            return index
    return min(remaining, key=lambda index: last[deals[index]])


def spaced_picks(
    listing: Listing, epoch: Epoch, end: date, carried: dict[int, int]
) -> Iterator[tuple[date, DailyPick]]:
    """Every day's pick of a spaced epoch from its first day up to ``end``; ``carried``: the
    day number each deal was last served before the epoch (the GAP - 1 days before it)."""
    joins = [since.toordinal() for since in listing.sinces]
    day, last, cycle = first_day(listing, epoch).toordinal(), dict(carried), 0
    while day <= end.toordinal():
        pool = [index for index, join in enumerate(joins) if join <= day]
        remaining = keyed_order(listing, epoch, cycle, pool)
        for offset in range(min(len(pool), end.toordinal() - day + 1)):
            index = spaced_choice(remaining, listing.deals, last, day)
            remaining.remove(index)
            last[listing.deals[index]] = day
            yield date.fromordinal(day), DailyPick(index, cycle, offset, len(pool), epoch.start, listing.name)
            day += 1
        cycle += 1


def listing_for(listings: Listings, generation: int) -> Listing | None:
    """The file an epoch of ``generation`` serves: the newest generation up to it (None: none)."""
    if isinstance(listings, Listing):
        return listings
    earlier = [number for number in listings if number <= generation]
    return listings[max(earlier)] if earlier else None


def epoch_end(schedule: tuple[Epoch, ...], number: int, last: date) -> date:
    """The last day of epoch ``number`` within days up to ``last``."""
    return min(last, schedule[number + 1].start - ONE_DAY) if number + 1 < len(schedule) else last


def served(
    listings: Listings, schedule: tuple[Epoch, ...], first: date, last: date
) -> Iterator[tuple[date, DailyPick, Listing]]:
    """Every day from ``first`` to ``last`` a file of the tier serves, with its pick and file,
    in date order (days before a file's first ``since``, or with no file, are passed over)."""
    for number, epoch in enumerate(schedule):
        listing, end = listing_for(listings, epoch.generation), epoch_end(schedule, number, last)
        if listing is None or not listing.sinces or end < max(first, first_day(listing, epoch)):
            continue
        if epoch.method != SPACED:
            for day, chosen in fixed_picks(listing, epoch, max(first, first_day(listing, epoch)), end):
                yield day, chosen, listing
            continue
        before = served(listings, schedule[:number], epoch.start - (GAP - 1) * ONE_DAY, epoch.start - ONE_DAY)
        carried = {earlier.deals[chosen.index]: day.toordinal() for day, chosen, earlier in before}
        for day, chosen in spaced_picks(listing, epoch, end, carried):
            if day >= first:
                yield day, chosen, listing


def pick(listings: Listings, day: date, schedule: tuple[Epoch, ...]) -> DailyPick:
    """The entry for ``day`` under the manifest's ``schedule`` of a tier's file (``listings``:
    one Listing, or one a generation)."""
    generation = [epoch for epoch in schedule if epoch.start <= day or epoch is schedule[0]][-1].generation
    listing = listing_for(listings, generation)
    if listing is None:
        raise YukonError(f"no catalogue file of generation {generation} or earlier for {day.isoformat()}")
    if not listing.sinces:
        raise YukonError(f"the {listing.variant} {listing.tier} catalogue has no entries")
    start = max(schedule[0].start, min(listing.sinces))
    if day < start:
        name = f"{listing.variant} {listing.tier}"
        raise YukonError(f"the {name} schedule starts on {start.isoformat()}, after {day.isoformat()}")
    return next(chosen for _day, chosen, _listing in served(listings, schedule, day, day))


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


def daily_of(
    catalogues: Mapping[int, tuple[str, dict]], day: date, schedule: tuple[Epoch, ...]
) -> tuple[dict, DailyPick]:
    """The entry for ``day`` of a tier's catalogues (``{generation: (file name, catalogue)}``)
    and where it sits in the schedule; an entry that ``check`` would refuse
    (``checks.entry_refusal``) is refused, never served."""
    listings = {
        generation: listing_of(catalogue, name) for generation, (name, catalogue) in catalogues.items()
    }
    chosen = pick(listings, day, schedule)
    catalogue = next(catalogue for name, catalogue in catalogues.values() if name == chosen.file)
    entry = catalogue["entries"][chosen.index]
    problem = entry_refusal(catalogue, entry, scored=False)
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
    """``daily_of`` the checked catalogue files of a rule set and tier in a folder (each
    generation the manifest lists, of the epochs up to ``day``), under its manifest's schedule."""
    manifest = read_manifest(directory)
    schedule = read_schedule(manifest, str(directory / MANIFEST_NAME))
    generations = sorted({epoch.generation for epoch in schedule if epoch.start <= day} | {1})
    names = {
        generation: catalogue_name(variant, tier, foundation_return, numbering, generation)
        for generation in generations
    }
    listed = [generation for generation in generations if manifest_line(manifest, names[generation])] or [1]
    catalogues = {
        generation: (
            names[generation],
            load_checked(directory, variant, tier, foundation_return, numbering, generation),
        )
        for generation in listed
    }
    return daily_of(catalogues, day, schedule)
