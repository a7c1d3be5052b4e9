"""The daily schedule's epochs: what the manifest says about the order of the daily deals.

A schedule is a list of epochs, each ``{"start": "YYYY-MM-DD", "method": ..., "key": ...,
"generation": N}`` with strictly increasing starts; an epoch rules the days from its start to
the next one's, with the catalogue files of its ``generation`` (absent: 1; a tier that has no
file of that generation goes on with its newest earlier one). ``manifest.json`` holds it
under ``"schedule"`` since manifest format version 2; a version 1 manifest has none and means
``LEGACY_SCHEDULE``. ``catalogue/README.md`` (The daily deal)
states both methods; ``solver.catalogue.schedule`` runs them.
"""

from dataclasses import dataclass
from datetime import date

from solver.errors import YukonError, clipped

# Release 0.1.0's order: i -> (a * i + b) mod n, (a, b) from FNV-1a of "variant/tier/cycle".
AFFINE = "affine-fnv1a"
# From 2027: each cycle's pool sorted by SHA-256 of "key/file/cycle/deal".
KEYED_SORT = "keyed-sort-sha256"
# From 2027-01-01 (generation 2): the keyed sort, each day's deal the first in that order not
# served within the last GAP days (``schedule`` states the rule).
SPACED = "keyed-spaced-sha256"
METHODS = (AFFINE, KEYED_SORT, SPACED)
# The fewest days between two servings of one deal in a tier under the spaced method: none is
# served twice within 365 days (so never on one date of two successive years, leap or not).
GAP = 366
# The first day of every schedule so far (release 0.1.0's EPOCH).
FIRST_START = date(2026, 1, 1)
# The manifest format version that holds a schedule; version 1 means LEGACY_SCHEDULE.
SCHEDULE_MANIFEST_VERSION = 2


@dataclass(frozen=True)
class Epoch:
    """From ``start`` on (to the next epoch's start) cycles run back to back through the
    files of ``generation``, each pool in the order ``method`` gives it with ``key`` (the
    affine method takes no key: "")."""

    start: date
    method: str
    key: str
    generation: int = 1

    def as_json(self) -> dict:
        generation = {"generation": self.generation} if self.generation != 1 else {}
        return {"start": self.start.isoformat(), "method": self.method, "key": self.key} | generation


# What a manifest without a schedule (format version 1) means: the affine order forever.
LEGACY_SCHEDULE = (Epoch(FIRST_START, AFFINE, ""),)
# The schedule shipped before generation 2 (manifests written then keep it): every day up to
# 2026-12-31 keeps its release 0.1.0 deal; a keyed order starts a new cycle on 2027-01-01.
SCHEDULE_BEFORE_GENERATIONS = (*LEGACY_SCHEDULE, Epoch(date(2027, 1, 1), KEYED_SORT, "yukon-daily-2027"))
# The schedule written into new manifests, and shipped: every day up to 2026-12-31 keeps its
# release 0.1.0 deal; from 2027-01-01 the files of generation 2, spaced (no deal twice in GAP days).
SCHEDULE = (*LEGACY_SCHEDULE, Epoch(date(2027, 1, 1), SPACED, "yukon-daily-2027", 2))


def schedule_json(schedule: tuple[Epoch, ...] = SCHEDULE) -> list[dict]:
    return [epoch.as_json() for epoch in schedule]


def read_epoch(item: object, number: int, where: str) -> Epoch:
    """One epoch of a manifest's schedule; YukonError naming it when it is malformed."""
    if not isinstance(item, dict):
        raise YukonError(f"{where}: schedule epoch {number} is not a JSON object")
    start, method, key = item.get("start"), item.get("method"), item.get("key")
    generation = item.get("generation", 1)
    if method not in METHODS:
        raise YukonError(
            f"{where}: schedule epoch {number} has method {clipped(repr(method), 60)}, "
            f"not one of {', '.join(METHODS)}"
        )
    if not isinstance(key, str):
        raise YukonError(f"{where}: schedule epoch {number} has no text 'key'")
    if type(generation) is not int or generation < 1:
        raise YukonError(f"{where}: schedule epoch {number} has a bad 'generation' (not a whole number >= 1)")
    try:
        return Epoch(date.fromisoformat(start), method, key, generation)
    except (TypeError, ValueError):
        raise YukonError(f"{where}: schedule epoch {number} has a bad 'start' (not YYYY-MM-DD)") from None


def read_schedule(manifest: dict, where: str) -> tuple[Epoch, ...]:
    """The epochs of a manifest (``where``: its path, for messages); a version 1 manifest
    without a schedule has ``LEGACY_SCHEDULE``."""
    if "schedule" not in manifest and manifest.get("format_version") == 1:
        return LEGACY_SCHEDULE
    items = manifest.get("schedule")
    if not isinstance(items, list) or not items:
        raise YukonError(f"{where}: no 'schedule' list of epochs (manifest format version 2)")
    schedule = tuple(read_epoch(item, number, where) for number, item in enumerate(items, start=1))
    for number, (earlier, later) in enumerate(zip(schedule, schedule[1:]), start=2):
        if later.start <= earlier.start:
            raise YukonError(f"{where}: schedule epoch {number} does not start after epoch {number - 1}")
    return schedule
