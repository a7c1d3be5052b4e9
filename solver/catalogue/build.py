"""Writing a catalogue from rated candidates: checked, deduplicated, append-only; the
entries a build adds are in order of difficulty score, easiest first."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from solver.catalogue.checks import checked_file
from solver.catalogue.entries import RatedDeal, difficulty_of, entry_key, entry_problem, make_entry
from solver.catalogue.files import (
    MANIFEST_NAME,
    catalogue_name,
    empty_catalogue,
    manifest_line,
    manifest_or_empty,
    save_catalogue,
)
from solver.catalogue.schedule import EPOCH
from solver.errors import YukonError
from solver.results.result import TIER_NAMES


@dataclass
class BuildReport:
    """What a build did: the file written, entries added and kept, candidates refused
    (with why) and the solution length of every entry now in the file."""

    path: Path
    added: int = 0
    taken: tuple[int, int] | None = None  # the lowest and highest deal number added
    kept: int = 0
    refused: list[str] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Shelf:
    """Which catalogue a build grows: variant, tier, rule set and the difficulty model
    its scores come from (None: the greedy failure rate only, as release 0.1.0)."""

    variant: str
    tier: str
    foundation_return: bool = False
    numbering: str = "pysol"
    model: dict | None = None

    def empty(self) -> dict:
        return empty_catalogue(self.variant, self.tier, self.foundation_return, self.numbering, self.model)


def opened(directory: Path, path: Path, shelf: Shelf) -> dict:
    """The catalogue at ``path`` (a new one if none), every entry replayed as ``catalogue
    verify`` does: a file it would refuse (tampered, or not in the manifest) is not
    extended, nor is one scored by another difficulty model than its new entries'."""
    record = manifest_line(manifest_or_empty(directory), path.name)
    if record is None and not (path.exists() or path.is_symlink()):
        return shelf.empty()
    if record is None:
        raise YukonError(f"{path}: not listed in {MANIFEST_NAME}; refusing to extend it")
    catalogue = checked_file(directory, record, replay=True)
    if catalogue.get("difficulty_model") != shelf.model:
        raise YukonError(f"{path} was scored by another difficulty model; extend it with that one")
    return catalogue


def build_catalogue(
    candidates: Iterable[RatedDeal],
    directory: Path,
    shelf: Shelf,
    count: int,
    today: date,
    since: date | None = None,
) -> BuildReport:
    """Grow the ``shelf`` catalogue in ``directory`` to ``count`` entries from
    ``candidates`` of its variant and tier (others are passed over), then write it and its
    manifest line. Entries already there stay as they are, in place; each new one is checked
    by ``entry_problem`` (a line that does not win on the reference engine is refused).

    New entries join the daily schedule on ``since``: by default the epoch for a new
    catalogue and the day after ``today`` for an extension, which must join after today
    so that no date already served changes."""
    variant, tier = shelf.variant, shelf.tier
    if tier not in TIER_NAMES:
        raise YukonError(f"unknown tier {tier!r} (choose one of {', '.join(TIER_NAMES)})")
    path = directory / catalogue_name(variant, tier, shelf.foundation_return, shelf.numbering)
    catalogue = opened(directory, path, shelf)
    entries = catalogue["entries"]
    since = since or (date.fromordinal(today.toordinal() + 1) if entries else EPOCH)
    if entries and since <= today:
        raise YukonError(f"an extension of {path} must join the schedule after today ({today}), not {since}")
    report = BuildReport(path, kept=len(entries))
    present = {entry_key(entry) for entry in entries}
    pending, added = iter(candidates), []
    while len(entries) + len(added) < count and (rated := next(pending, None)) is not None:
        if (rated.variant, rated.tier) != (variant, tier) or rated.key in present:
            continue
        entry = make_entry(rated, since)
        problem = entry_problem(entry, variant, tier, shelf.model)
        if problem:
            report.refused.append(f"{rated.numbering} deal {rated.deal}: {problem}")
            continue
        added.append(entry)
        present.add(rated.key)
    entries += sorted(added, key=difficulty_of)
    report.added = len(added)
    report.taken = (min(e["deal"] for e in added), max(e["deal"] for e in added)) if added else None
    if not entries:
        raise YukonError(f"no {variant} {tier} deal among the candidates; {path} not written")
    report.lengths = [entry["length"] for entry in entries]
    save_catalogue(directory, catalogue)
    return report
